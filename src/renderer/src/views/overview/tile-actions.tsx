// The actions of one agent in the overview — steer (send it a message), stop, maximize — as buttons on its
// tile (shown on the tile with focus or the pointer, never only on hover: the focused tile always has them)
// and as keys on the focused tile: M, S, Enter.
import { useLayoutEffect, useRef, useState } from 'react'
import type { AgentState } from '../../../../shared/view/session-state'
import { isActive } from '../../../../shared/view/session-state'
import { IconButton } from '../../components/icon-button'
import { refocusWhenLost } from '../../lib/focus'
import { truncate } from '../../lib/format'
import { sendMessage, ui } from '../../state/store'
import { errorMessage } from '../../transport/types'
import { ChangesButton } from '../../review/changes-button'
import { OpenWorktreeButton } from '../open-worktree'
import { useRunningElsewhere } from '../running-elsewhere'
import { StopButton } from '../stop-button'

export function TileActions({ agent, onMessage }: { agent: AgentState; onMessage: () => void }) {
  const [error, setError] = useState<string | null>(null)
  // Another process runs the session: it is followed here, read-only (no steering, no stopping).
  const elsewhere = useRunningElsewhere(agent.sessionId)
  const active = isActive(agent.status) && !elsewhere
  const name = agent.name ?? agent.agentType
  return (
    <div className="tile-actions" data-testid="tile-actions">
      {error && (
        <span className="inline-error small" role="alert" title={error}>
          {truncate(error, 40)}
        </span>
      )}
      {active && (
        <IconButton
          icon="message"
          title={`Steer: send ${name} a message (M)`}
          aria-label={`Send ${name} a message`}
          onClick={onMessage}
          data-testid="tile-message"
          data-action="message"
        />
      )}
      {active && <StopButton agent={agent} title={`Stop ${name} (S)`} label={`Stop ${name}`} size={13} testId="tile-stop" setError={setError} />}
      <ChangesButton agent={agent} />
      <OpenWorktreeButton agent={agent} />
      <IconButton
        icon="maximize"
        title="Open its full panel (Enter)"
        aria-label={`Open ${name}’s full panel`}
        onClick={() => ui.maximize(agent.id)}
        data-testid="tile-maximize"
        data-action="maximize"
      />
    </div>
  )
}

/** The message box over a tile: Enter sends, Escape closes; focus goes back to the tile. */
export function TileMessage({ agent, onDone }: { agent: AgentState; onDone: () => void }) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const box = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const tile = box.current?.closest<HTMLElement>('[data-tile]')
    return () => refocusWhenLost(() => tile)
  }, [])
  const send = async () => {
    if (!text.trim()) return
    try {
      await sendMessage(agent.sessionId, agent.id, text.trim())
      onDone()
    } catch (err) {
      setError(errorMessage(err))
    }
  }
  return (
    <div className="tile-message" ref={box} onClick={(e) => e.stopPropagation()}>
      <input
        autoFocus
        value={text}
        placeholder={`Message ${agent.name ?? agent.agentType}…`}
        aria-label={`Message to ${agent.name ?? agent.agentType}`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation()
          if (e.key === 'Enter') void send()
          if (e.key === 'Escape') {
            e.preventDefault()
            onDone()
          }
        }}
        data-testid="tile-message-input"
      />
      {error && (
        <span className="inline-error small" role="alert" title={error}>
          {truncate(error, 50)}
        </span>
      )}
    </div>
  )
}
