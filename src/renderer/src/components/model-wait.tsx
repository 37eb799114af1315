// "Waiting for the model · 12 s": shown wherever an agent's request is out and nothing of the reply has come
// yet (tiles, panels, the tree, the main agent's bar), hatched like a permission wait, so a slow model never
// reads as a frozen agent.
import { waitingForModelSince } from '../../../shared/view/model-wait'
import type { AgentState } from '../../../shared/view/session-state'
import { formatDuration } from '../lib/format'
import { useNow } from '../lib/use-now'

/** Whole seconds waited, from the first; nothing before (a "0 s" says nothing). */
export function waitedText(since: number, now: number): string {
  const ms = Math.max(0, now - since)
  if (ms < 1000) return ''
  return ms < 60_000 ? `${Math.floor(ms / 1000)} s` : formatDuration(ms)
}

export function ModelWait({ agent, short = false, className = '' }: { agent: Pick<AgentState, 'waits'>; short?: boolean; className?: string }) {
  const since = waitingForModelSince(agent)
  const now = useNow(since !== null)
  if (since === null) return null
  const waited = waitedText(since, Math.max(now, since))
  return (
    <span className={`model-wait ${className}`} data-testid="model-wait" title={`A request to the model is out; nothing of its reply has arrived${waited ? ` for ${waited}` : ' yet'}.`}>
      <span className="model-wait-hatch" aria-hidden="true" />
      {short ? 'Model' : 'Waiting for the model'}
      {waited ? (
        <>
          {' · '}
          <span className="model-wait-time">{waited}</span>
        </>
      ) : (
        '…'
      )}
    </span>
  )
}
