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

// The words for the room there is: a panel says it all, a compact tile a little less, a timeline label (beside
// its legend of hatches) the least.
const WORDS = { full: 'Waiting for the model', tile: 'Waiting on model', label: 'Model' } as const

export function ModelWait({ agent, form = 'full', className = '' }: { agent: Pick<AgentState, 'waits'>; form?: keyof typeof WORDS; className?: string }) {
  const since = waitingForModelSince(agent)
  const now = useNow(since !== null)
  if (since === null) return null
  const waited = waitedText(since, Math.max(now, since))
  return (
    <span
      className={`model-wait ${className}`}
      data-testid="model-wait"
      title={`A request to the model is out; nothing of its reply has arrived${waited ? ` for ${waited}` : ' yet'}.`}
    >
      <span className="model-wait-hatch" aria-hidden="true" />
      {/* The words give way before the time does, on the narrowest tile. */}
      <span className="model-wait-words">
        {WORDS[form]}
        {waited ? '' : '…'}
      </span>
      {waited && <span className="model-wait-time">{` · ${waited}`}</span>}
    </span>
  )
}
