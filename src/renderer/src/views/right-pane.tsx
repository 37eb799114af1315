// The right side of a session: the live panels grid, the tree + timeline, or the team board; in coordinator
// mode the phase strip sits above them.
import { Icon } from '../components/icon'
import { agentCounts, countParts } from '../state/agent-counts'
import { ui, useApp } from '../state/store'
import { PanelsGrid } from './panels-grid'
import { PhaseStrip } from './phase-strip'
import { TeamBoard } from './team-board'
import { TreeTimeline } from './tree-timeline'

export function RightPane({ sessionId }: { sessionId: string }) {
  const pane = useApp((s) => s.rightPane)
  const counts = useApp((s) => agentCounts(s.events.sessions[sessionId]))
  const team = useApp((s) => s.events.sessions[sessionId]?.team ?? null)
  return (
    <section className="right-pane" aria-label="Subagents">
      <div className="pane-tabs" role="tablist">
        <button role="tab" aria-selected={pane === 'panels'} className={`pane-tab${pane === 'panels' ? ' active' : ''}`} onClick={() => ui.setRightPane('panels')} data-testid="tab-panels">
          <Icon name="grid" size={13} /> Subagents <span className="count">{counts.total}</span>
        </button>
        <button role="tab" aria-selected={pane === 'timeline'} className={`pane-tab${pane === 'timeline' ? ' active' : ''}`} onClick={() => ui.setRightPane('timeline')} data-testid="tab-timeline">
          <Icon name="timeline" size={13} /> Tree &amp; timeline
        </button>
        {team && (
          <button role="tab" aria-selected={pane === 'team'} className={`pane-tab${pane === 'team' ? ' active' : ''}`} onClick={() => ui.setRightPane('team')} data-testid="tab-team">
            <Icon name="agents" size={13} /> Team <span className="count">{team.members.length}</span>
          </button>
        )}
        <span className="pane-tabs-summary small muted">
          {countParts(counts).map((p) => (
            <span key={p.group} className={`count-${p.group}`} data-testid={`tab-count-${p.group}`}>
              {p.text}
            </span>
          ))}
        </span>
      </div>
      <PhaseStrip sessionId={sessionId} />
      <div className="pane-content">{pane === 'team' && team ? <TeamBoard sessionId={sessionId} /> : pane === 'timeline' ? <TreeTimeline sessionId={sessionId} /> : <PanelsGrid sessionId={sessionId} />}</div>
    </section>
  )
}
