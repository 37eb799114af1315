// Retry on the error that ended a failed agent, in its transcript and on its panel, and on its row once it
// folded into the finished list (the `agent.retry` call).
import type { TranscriptItem } from '../../../shared/view/session-state'
import { useTask } from '../lib/use-task'
import { retryAgent, useApp } from '../state/store'

const EMPTY: TranscriptItem[] = []

/**
 * Retry on the error that ended a failed agent (its last error, while it is failed): it runs again from its
 * conversation as it stands, sending the failed request again. A refusal is said next to the button.
 */
export function RetryButton({ sessionId, agentId, itemKey }: { sessionId: string; agentId: string; itemKey: string }) {
  const shown = useApp((s) => {
    const session = s.events.sessions[sessionId]
    if (session?.agents[agentId]?.status !== 'failed') return false
    const items = session.items[agentId] ?? EMPTY
    return items.findLast((i) => i.kind === 'error')?.key === itemKey
  })
  const task = useTask()
  if (!shown) return null
  return (
    <>
      <button className="msg-error-retry" disabled={task.busy} onClick={() => void task.run(() => retryAgent(sessionId, agentId))}>
        Retry
      </button>
      {task.error && <span className="msg-error-retry-problem">{task.error}</span>}
    </>
  )
}

/** Retry on a failed agent's finished row: the same retry, where the agent is seen without its transcript. */
export function RetryAgentButton({ sessionId, agentId }: { sessionId: string; agentId: string }) {
  const failed = useApp((s) => s.events.sessions[sessionId]?.agents[agentId]?.status === 'failed')
  const task = useTask()
  if (!failed) return null
  return (
    <button
      className="btn btn-sm finished-retry"
      disabled={task.busy}
      title={task.error ?? 'Run it again from its conversation as it stands'}
      onClick={() => void task.run(() => retryAgent(sessionId, agentId))}
      data-testid="finished-retry"
    >
      Retry
    </button>
  )
}
