// An agent's context meter: how full its context window is ("62% of 200k"), amber past the compaction
// threshold, "compacting…" while a compaction runs. From the shared view state (AgentState.context).
import { contextMeter } from '../../../shared/view/context-meter'
import type { AgentContext } from '../../../shared/view/session-state'

/**
 * `short`: the percentage alone. `fit`: both, the container choosing (a narrow panel shows "12%" whole rather
 * than "12% of 20" cut off by its row).
 */
export function ContextMeter({ context, short = false, fit = false }: { context: AgentContext | undefined; short?: boolean; fit?: boolean }) {
  const meter = contextMeter(context)
  if (!context || !meter) return null
  const cls = `context-meter${meter.high ? ' high' : ''}${context.compacting ? ' compacting' : ''}`
  return (
    <span className={cls} title={meter.detail} data-testid="context-meter" data-percent={meter.percent}>
      <span className="context-meter-bar" aria-hidden="true">
        <span className="context-meter-fill" style={{ width: `${Math.max(2, meter.percent)}%` }} />
      </span>
      <span className="context-meter-text">
        {context.compacting ? (
          'compacting…'
        ) : short ? (
          `${meter.percent}%`
        ) : fit ? (
          <>
            <span className="context-meter-long">{meter.label}</span>
            <span className="context-meter-short">{meter.percent}%</span>
          </>
        ) : (
          meter.label
        )}
      </span>
    </span>
  )
}
