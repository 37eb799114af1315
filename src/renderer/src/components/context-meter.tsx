// An agent's context meter: how full its context window is ("62% of 200k"), amber past the compaction
// threshold, "compacting…" while a compaction runs. From the shared view state (AgentState.context).
import { contextMeter } from '../../../shared/view/context-meter'
import type { AgentContext } from '../../../shared/view/session-state'

export function ContextMeter({ context, short = false }: { context: AgentContext | undefined; short?: boolean }) {
  const meter = contextMeter(context)
  if (!context || !meter) return null
  const cls = `context-meter${meter.high ? ' high' : ''}${context.compacting ? ' compacting' : ''}`
  return (
    <span className={cls} title={meter.detail} data-testid="context-meter" data-percent={meter.percent}>
      <span className="context-meter-bar" aria-hidden="true">
        <span className="context-meter-fill" style={{ width: `${Math.max(2, meter.percent)}%` }} />
      </span>
      <span className="context-meter-text">{context.compacting ? 'compacting…' : short ? `${meter.percent}%` : meter.label}</span>
    </span>
  )
}
