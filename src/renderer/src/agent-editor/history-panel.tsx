// An agent definition's record, beside its editor: how many runs, how often they succeeded, the median
// cost, tokens, turns and time, the last runs as a bar chart (cost per run, colored by outcome, the median
// as a dashed line: plain SVG, no chart library for a dozen bars), and the last few as rows. From
// `agents.history` (store/agent-history.ts); refreshed when the file is saved and when a run ends.
import { useEffect, useState } from 'react'
import type { AgentRunRecord, AgentStats } from '../../../shared/budget'
import { call } from '../state/app-state'
import { useApp } from '../state/store'
import { formatDateTime, formatShortDateTime } from '../lib/format'

const usd = (n: number | null) => (n === null ? '–' : n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`)
const secs = (ms: number | null) => (ms === null ? '–' : ms < 60_000 ? `${Math.round(ms / 1000)}s` : `${Math.round(ms / 60_000)}m`)

const OUTCOME_TEXT: Record<AgentRunRecord['outcome'], string> = {
  completed: 'completed',
  failed: 'failed',
  stopped: 'stopped',
  budget: 'stopped by budget',
  max_turns: 'turn limit',
  merged: 'merged',
  discarded: 'discarded'
}

export function HistoryChart({ runs, median }: { runs: AgentRunRecord[]; median: number | null }) {
  const W = 240
  const H = 72
  const top = Math.max(...runs.map((r) => r.costUsd), median ?? 0) || 1
  const slot = W / Math.max(runs.length, 8)
  const y = (v: number) => H - 2 - (v / top) * (H - 8)
  return (
    <svg
      className="agent-history-chart"
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`Cost of the last ${runs.length} runs, highest ${usd(top)}`}
      data-testid="history-chart"
    >
      {runs.map((r, i) => (
        <rect
          key={`${r.agentId}${r.ts}`}
          className={`bar ${r.outcome}`}
          x={i * slot + 1}
          width={Math.max(1, slot - 2)}
          y={y(r.costUsd)}
          height={H - 2 - y(r.costUsd)}
        >
          <title>{`${formatDateTime(r.ts)}: ${OUTCOME_TEXT[r.outcome]}, ${usd(r.costUsd)}, ${r.tokens.toLocaleString('en-US')} tokens, ${r.turns} turns`}</title>
        </rect>
      ))}
      {median !== null && <line className="median" x1={0} x2={W} y1={y(median)} y2={y(median)} />}
    </svg>
  )
}

export function HistoryPanel({ agentType, file }: { agentType: string | undefined; file: string }) {
  const [stats, setStats] = useState<AgentStats | null | undefined>(undefined)
  // A run that ends anywhere may be this definition's: count ended agents as the refresh signal.
  const ended = useApp((s) => Object.values(s.events.sessions).reduce((n, x) => n + Object.values(x.agents).filter((a) => a.endedAt !== null).length, 0))
  useEffect(() => {
    if (!agentType) return
    let live = true
    call('agents.history', { agentType, file })
      .then((r) => live && setStats(r.stats))
      .catch(() => live && setStats(null))
    return () => {
      live = false
    }
  }, [agentType, file, ended])
  if (!agentType) return null
  return (
    <section className="ae-card agent-history" data-testid="history-panel" aria-label="Run history">
      <h3>Run history {stats ? <span className="count">{stats.runs}</span> : null}</h3>
      {stats === undefined ? null : !stats ? (
        <p className="small muted">No recorded runs yet. Each run of this agent records its cost, tokens, turns, time and how it ended.</p>
      ) : (
        <>
          <div className="agent-history-figures small">
            <span data-testid="history-success">
              <strong>{stats.successRate === null ? '–' : `${Math.round(stats.successRate * 100)}%`}</strong> succeeded
            </span>
            <span data-testid="history-median">
              median <strong>{usd(stats.medianCostUsd)}</strong>
            </span>
            <span>{Math.round(stats.medianTokens ?? 0).toLocaleString('en-US')} tokens</span>
            <span>{stats.medianTurns ?? '–'} turns</span>
            <span>{secs(stats.medianDurationMs)}</span>
          </div>
          <HistoryChart runs={stats.last} median={stats.medianCostUsd} />
          <div className="agent-history-runs small" data-testid="history-runs">
            {stats.last
              .slice(-5)
              .reverse()
              .map((r) => (
                <span key={`${r.agentId}${r.ts}`} style={{ display: 'contents' }}>
                  <span className="muted">{formatShortDateTime(r.ts)}</span>
                  <span>{OUTCOME_TEXT[r.outcome]}</span>
                  <span>{usd(r.costUsd)}</span>
                  <span className="muted">{r.turns} turns</span>
                </span>
              ))}
          </div>
        </>
      )}
    </section>
  )
}
