// The right side of a session: the live panels grid, the tree + timeline, or the team board; in coordinator
// mode the phase strip sits above them.
import { Activity, memo, useRef, useState } from 'react'
import { useAction } from '../commands/registry'
import { Icon, type IconName } from '../components/icon'
import { useFitLevel } from '../lib/use-fit-level'
import { agentCounts, countParts } from '../state/agent-counts'
import type { RightPane as RightPaneKind } from '../state/app-state'
import { ui, useApp } from '../state/store'
import { Overview } from './overview/overview'
import { PhaseStrip } from './phase-strip'
import { TeamBoard } from './team-board'
import { TreeTimeline } from './tree-timeline'

export function RightPane({ sessionId }: { sessionId: string }) {
  const pane = useApp((s) => s.rightPane)
  const counts = useApp((s) => agentCounts(s.events.sessions[sessionId]))
  const team = useApp((s) => s.events.sessions[sessionId]?.team ?? null)
  const shown: RightPaneKind = pane === 'team' && !team ? 'panels' : pane
  // Views shown before in this session: kept mounted (hidden) from then on. A new session starts afresh.
  const [visited, setVisited] = useState<{ sessionId: string; panes: Set<RightPaneKind> }>(() => ({ sessionId, panes: new Set([shown]) }))
  if (visited.sessionId !== sessionId || !visited.panes.has(shown))
    setVisited((v) => ({ sessionId, panes: new Set([...(v.sessionId === sessionId ? v.panes : []), shown]) }))
  const parts = countParts(counts)
  const summary = parts.map((p) => p.text).join(', ')
  // The strip stays one line: first the summary shortens ("2 waiting"), then the tabs show only their
  // icons; what is hidden stays in the accessible names and tooltips.
  const strip = useRef<HTMLDivElement>(null)
  const fit = useFitLevel(strip, 2, `${summary}|${team ? team.members.length : '-'}`)
  usePaneAction(pane, 'panels', 'view.overview', 'Show the subagents overview', 'tiles panels grid')
  usePaneAction(pane, 'timeline', 'view.timeline', 'Show the tree and timeline', 'gantt')
  usePaneAction(pane, 'team', 'view.team', 'Show the team board', 'tasks members', !!team)
  return (
    <section className="right-pane" aria-label="Subagents">
      <div className={`pane-tabs fit-${fit}`} role="tablist" ref={strip} data-testid="pane-tabs">
        <PaneTab pane="panels" shown={pane} icon="grid" label="Subagents" fit={fit} count={counts.total} />
        <PaneTab pane="timeline" shown={pane} icon="timeline" label="Tree & timeline" fit={fit} />
        {team && <PaneTab pane="team" shown={pane} icon="agents" label="Team" fit={fit} count={team.members.length} />}
        <span className="pane-tabs-summary small muted" title={summary} data-fit data-testid="pane-summary">
          {parts.map((p) => (
            <span key={p.group} className={`count-${p.group}`} data-testid={`tab-count-${p.group}`}>
              {p.short}
              <span className="count-rest">{p.text.slice(p.short.length)}</span>
            </span>
          ))}
        </span>
      </div>
      <PhaseStrip sessionId={sessionId} />
      <div className="pane-content">
        {/* The overview and the tree stay mounted once shown, the other one hidden (Activity: kept, its
            effects paused, its updates after the visible view's): switching back shows what is built
            instead of building 64 tiles or rows again. */}
        <Activity mode={shown === 'panels' ? 'visible' : 'hidden'}>
          <Overview sessionId={sessionId} />
        </Activity>
        {visited.sessionId === sessionId && visited.panes.has('timeline') && (
          <Activity mode={shown === 'timeline' ? 'visible' : 'hidden'}>
            <TreeTimeline sessionId={sessionId} />
          </Activity>
        )}
        {shown === 'team' && <TeamBoard sessionId={sessionId} />}
      </div>
    </section>
  )
}

/** The palette's command for one pane: it shows that pane, and is disabled while it is shown (or absent). */
function usePaneAction(shown: RightPaneKind, pane: RightPaneKind, id: string, title: string, keywords: string, available = true) {
  useAction({ id, title, group: 'Session', keywords, enabled: available && shown !== pane, run: () => ui.setRightPane(pane) })
}

/** One tab of the strip; once the strip is tight its label hides, so the tooltip says it. */
function PaneTabView({
  pane,
  shown,
  icon,
  label,
  fit,
  count
}: {
  pane: RightPaneKind
  shown: RightPaneKind
  icon: IconName
  label: string
  fit: number
  count?: number
}) {
  return (
    <button
      role="tab"
      aria-selected={shown === pane}
      className={`pane-tab${shown === pane ? ' active' : ''}`}
      onClick={() => ui.setRightPane(pane)}
      title={fit >= 2 ? label : undefined}
      data-testid={`tab-${pane}`}
    >
      <Icon name={icon} size={13} /> <span className="pane-tab-label">{label}</span>
      {count !== undefined && (
        <>
          {' '}
          <span className="count">{count}</span>
        </>
      )}
    </button>
  )
}
const PaneTab = memo(PaneTabView)
