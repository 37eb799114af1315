// The Compact action on an agent (its panel, the main agent's header): summarises its conversation so far,
// now when it is idle, before its next model request when it works. What happens shows in its transcript.
import { useState } from 'react'
import { truncate } from '../lib/format'
import { compactAgent } from '../state/store'
import { errorMessage } from '../transport/types'
import { Icon } from './icon'

export function CompactButton({ sessionId, agentId, compacting, label = false }: { sessionId: string; agentId: string; compacting: boolean; label?: boolean }) {
  const [state, setState] = useState<{ busy: boolean; note: string | null; error: string | null }>({ busy: false, note: null, error: null })
  const run = () => {
    setState({ busy: true, note: null, error: null })
    compactAgent(sessionId, agentId).then(
      (r) => setState({ busy: false, note: r.status === 'scheduled' ? 'Compacts before its next request' : null, error: null }),
      (err) => setState({ busy: false, note: null, error: errorMessage(err) })
    )
  }
  const busy = state.busy || compacting
  return (
    <>
      {state.error && (
        <span className="inline-error small" role="alert" title={state.error}>
          {truncate(state.error, 60)}
        </span>
      )}
      {state.note && !state.error && <span className="muted small">{state.note}</span>}
      <button
        className={label ? 'btn btn-sm' : 'icon-button'}
        title={
          busy ? 'Compacting the conversation…' : 'Compact: summarise the conversation so far to free its context window (the transcript keeps everything)'
        }
        aria-label="Compact the conversation"
        onClick={run}
        disabled={busy}
        data-testid="compact-agent"
      >
        <Icon name="compact" size={label ? 12 : 14} />
        {label && <span>{busy ? 'Compacting…' : 'Compact'}</span>}
      </button>
    </>
  )
}
