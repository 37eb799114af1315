// What a fan-out will cost, in the approval card before it starts: the total with its range as a bar (the
// amount that asks marked on it), then each agent type's count and figures. From the `estimate` the runtime
// put in the request's input (orchestration/spawn/fanout-estimate.ts).
import type { FanoutEstimate } from '../../../shared/budget'

const usd = (n: number) => (n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`)

/** The estimate in a permission request's input, if it carries one. */
export function estimateIn(input: unknown): FanoutEstimate | null {
  const e = (input as { estimate?: FanoutEstimate } | null)?.estimate
  return e && Array.isArray(e.agents) && typeof e.median === 'number' ? e : null
}

export function FanoutEstimateView({ estimate }: { estimate: FanoutEstimate }) {
  const top = Math.max(estimate.high, estimate.approveAbove ?? 0) * 1.1 || 1
  const at = (n: number) => `${Math.min(100, (n / top) * 100)}%`
  const byType = new Map<string, { n: number; median: number; low: number; high: number; runs: number }>()
  for (const a of estimate.agents) {
    const t = byType.get(a.agentType) ?? { n: 0, median: 0, low: 0, high: 0, runs: a.runs }
    byType.set(a.agentType, { n: t.n + 1, median: t.median + a.median, low: t.low + a.low, high: t.high + a.high, runs: a.runs })
  }
  return (
    <div className="fanout-estimate" data-testid="fanout-estimate">
      <div className="fanout-estimate-total">
        {estimate.agents.length} agent{estimate.agents.length === 1 ? '' : 's'}: about {usd(estimate.median)}{' '}
        <span className="muted">
          ({usd(estimate.low)}–{usd(estimate.high)})
        </span>
      </div>
      <div
        className="fanout-estimate-range"
        role="img"
        aria-label={`Estimated ${usd(estimate.low)} to ${usd(estimate.high)}${estimate.approveAbove ? `; approval needed above ${usd(estimate.approveAbove)}` : ''}`}
      >
        <span className="fanout-estimate-span" style={{ left: at(estimate.low), width: `calc(${at(estimate.high)} - ${at(estimate.low)})` }} />
        <span className="fanout-estimate-mid" style={{ left: at(estimate.median) }} />
        {estimate.approveAbove ? (
          <span className="fanout-estimate-limit" style={{ left: at(estimate.approveAbove) }} title={`Asks above ${usd(estimate.approveAbove)}`} />
        ) : null}
      </div>
      <div className="fanout-estimate-rows small">
        {[...byType].map(([type, t]) => (
          <span key={type} style={{ display: 'contents' }}>
            <span>
              {t.n} × <strong>{type}</strong>
            </span>
            <span>
              {usd(t.median)} ({usd(t.low)}–{usd(t.high)})
            </span>
            <span className="muted">{t.runs ? `from ${t.runs} recorded run${t.runs === 1 ? '' : 's'}` : 'no recorded runs: a guess from the prompt'}</span>
          </span>
        ))}
      </div>
      {estimate.approveAbove ? (
        <div className="muted small">Fan-outs whose high end is above {usd(estimate.approveAbove)} ask first (Settings → Limits).</div>
      ) : null}
    </div>
  )
}
