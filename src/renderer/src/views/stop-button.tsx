// The Stop button of a panel and of a tile: stops the agent with its toast (stop-agent.ts); a refusal goes to
// the control's own error line through `setError`.
import type { AgentState } from '../../../shared/view/session-state'
import { Icon } from '../components/icon'
import { errorMessage } from '../transport/types'
import { stopWithToast } from './stop-agent'

export function StopButton({
  agent,
  title,
  label,
  size,
  testId,
  setError
}: {
  agent: AgentState
  title: string
  label?: string
  size: number
  testId: string
  setError(error: string | null): void
}) {
  return (
    <button
      className="icon-button danger"
      title={title}
      aria-label={label}
      data-testid={testId}
      data-action="stop"
      onClick={() => {
        setError(null)
        stopWithToast(agent.sessionId, agent.id).catch((err) => setError(errorMessage(err)))
      }}
    >
      <Icon name="stop" size={size} />
    </button>
  )
}
