// The right side of a session: the live panels grid, the tree + timeline, or the team board; in coordinator
// mode the phase strip sits above them.
import { useRef } from 'react'
import { useAction } from '../commands/registry'
import { Icon } from '../components/icon'
import { useFitLevel } from '../lib/use-fit-level'
import { agentCounts, countParts } from '../state/agent-counts'
import { ui, useApp } from '../state/store'
import { Overview } from './overview/overview'
import { PhaseStrip } from './phase-strip'
import { TeamBoard } from './team-board'
import { TreeTimeline } from './tree-timeline'

export function RightPane({ sessionId }: { sessionId: string }) {
  const pane = useApp((s) => s.rightPane)
  const counts = useApp((s) => agentCounts(s.events.sessions[sessionId]))
  const team = useApp((s) => s.events.sessions[sessionId]?.team ?? null)
  const parts = countParts(counts)
  const summary = parts.map((p) => p.text).join(', ')
  // The strip stays one line: first the summary shortens ("2 waiting"), then the tabs show only their
  // icons; what is hidden stays in the accessible names and tooltips.
  const strip = useRef<HTMLDivElement>(null)
  const fit = useFitLevel(strip, 2, `${summary}|${team ? team.members.length : '-'}`)
  useAction({
    id: 'view.overview',
    title: 'Show the subagents overview',
    group: 'Session',
    keywords: 'tiles panels grid',
    enabled: pane !== 'panels',
    run: () => ui.setRightPane('panels')
  })
  useAction({
    id: 'view.timeline',
    title: 'Show the tree and timeline',
    group: 'Session',
    keywords: 'gantt',
    enabled: pane !== 'timeline',
    run: () => ui.setRightPane('timeline')
  })
  useAction({
    id: 'view.team',
    title: 'Show the team board',
    group: 'Session',
    keywords: 'tasks members',
    enabled: !!team && pane !== 'team',
    run: () => ui.setRightPane('team')
  })
  return (
    <section className="right-pane" aria-label="Subagents">
      <div className={`pane-tabs fit-${fit}`} role="tablist" ref={strip} data-testid="pane-tabs">
        <button
          role="tab"
          aria-selected={pane === 'panels'}
          className={`pane-tab${pane === 'panels' ? ' active' : ''}`}
          onClick={() => ui.setRightPane('panels')}
          title={fit >= 2 ? 'Subagents' : undefined}
          data-testid="tab-panels"
        >
          <Icon name="grid" size={13} /> <span className="pane-tab-label">Subagents</span> <span className="count">{counts.total}</span>
        </button>
        <button
          role="tab"
          aria-selected={pane === 'timeline'}
          className={`pane-tab${pane === 'timeline' ? ' active' : ''}`}
          onClick={() => ui.setRightPane('timeline')}
          title={fit >= 2 ? 'Tree & timeline' : undefined}
          data-testid="tab-timeline"
        >
          <Icon name="timeline" size={13} /> <span className="pane-tab-label">Tree &amp; timeline</span>
        </button>
        {team && (
          <button
            role="tab"
            aria-selected={pane === 'team'}
            className={`pane-tab${pane === 'team' ? ' active' : ''}`}
            onClick={() => ui.setRightPane('team')}
            title={fit >= 2 ? 'Team' : undefined}
            data-testid="tab-team"
          >
            <Icon name="agents" size={13} /> <span className="pane-tab-label">Team</span> <span className="count">{team.members.length}</span>
          </button>
        )}
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
        {pane === 'team' && team ? (
          <TeamBoard sessionId={sessionId} />
        ) : pane === 'timeline' ? (
          <TreeTimeline sessionId={sessionId} />
        ) : (
          <Overview sessionId={sessionId} />
        )}
      </div>
    </section>
  )
}
