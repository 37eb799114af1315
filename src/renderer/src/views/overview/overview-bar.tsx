// The line over the overview, always there so the grid never shifts when it changes: which agents need the
// person (each a button to it, and "Next" for Alt+J), Tidy, and the density (auto shows what it chose).
import { useShallow } from 'zustand/react/shallow'
import { Icon } from '../../components/icon'
import { agentFullName, agentTask } from '../../lib/agent-naming'
import { keyLabel } from '../../commands/keys'
import { runAction } from '../../commands/registry'
import type { Density } from '../../lib/overview-layout'
import { ATTENTION_LABEL, sessionAttention } from '../../state/attention'
import { DENSITY_CHOICES, ui, useApp, type DensityChoice } from '../../state/store'

const DENSITY_LABEL: Record<DensityChoice, string> = { auto: 'Auto', panels: 'Panels', tiles: 'Tiles', compact: 'Compact' }

export function OverviewBar({ sessionId, density, canTidy }: { sessionId: string; density: Density; canTidy: boolean }) {
  const items = useApp(useShallow((s) => sessionAttention(s.events.sessions[sessionId], s.acknowledged)))
  // By task, the part that differs ("imple…" three times told the person nothing); the type is in the tooltip.
  const names = useApp(
    useShallow((s) =>
      items.map((i) => {
        const agent = s.events.sessions[sessionId]?.agents[i.agentId]
        return agent ? agentTask(agent) : 'agent'
      })
    )
  )
  const fullNames = useApp(
    useShallow((s) =>
      items.map((i) => {
        const agent = s.events.sessions[sessionId]?.agents[i.agentId]
        return agent ? agentFullName(agent) : 'agent'
      })
    )
  )
  const rootId = useApp((s) => s.events.sessions[sessionId]?.rootAgentId)
  const choice = useApp((s) => s.density)
  return (
    <div className="overview-bar" data-testid="overview-bar">
      <div className={`overview-attention${items.length ? ' has-items' : ''}`} data-testid="overview-attention">
        {items.length ? (
          <>
            <Icon name="alert" size={13} className="overview-attention-icon" />
            <span className="overview-attention-count">{items.length} need you:</span>
            {items.slice(0, 4).map((item, i) => (
              <button
                key={item.agentId}
                className={`attention-chip attention-${item.reason}`}
                title={`${ATTENTION_LABEL[item.reason]}: ${fullNames[i]}`}
                aria-label={`${ATTENTION_LABEL[item.reason]}: ${fullNames[i]}`}
                onClick={() => (item.agentId === rootId ? runAction('next-attention') : ui.focusAgent(item.agentId))}
                data-testid="attention-chip"
                data-index={i}
              >
                {names[i]}
              </button>
            ))}
            {items.length > 4 && <span className="muted small">+{items.length - 4}</span>}
            <button className="btn-link small" onClick={() => runAction('next-attention')} title={`Go to the next agent needing you (${keyLabel('Alt+J')})`}>
              Next <kbd>{keyLabel('Alt+J')}</kbd>
            </button>
          </>
        ) : (
          <span className="muted small">No agent needs you</span>
        )}
      </div>
      <button
        className="btn btn-sm btn-ghost overview-tidy"
        onClick={() => ui.tidy()}
        disabled={!canTidy}
        title={`Move finished agents out of the grid and close the gaps (${keyLabel('Alt+T')})`}
        data-testid="overview-tidy"
      >
        Tidy
      </button>
      <label className="select-inline overview-density" title={`How agents are drawn (${keyLabel('Alt+D')} for the next)`}>
        <Icon name="grid" size={13} />
        <select value={choice} onChange={(e) => ui.setDensity(e.target.value as DensityChoice)} aria-label="Overview density" data-testid="overview-density">
          {DENSITY_CHOICES.map((c) => (
            <option key={c} value={c}>
              {c === 'auto' ? `Auto (${DENSITY_LABEL[density].toLowerCase()})` : DENSITY_LABEL[c]}
            </option>
          ))}
        </select>
      </label>
    </div>
  )
}
