// The main agent's conversation: the transcript, waiting permission requests, and the prompt box
// (a follow-up when the agent is idle; a message to it while it works).
import { Icon } from '../components/icon'
import { PermissionCard } from '../components/permission-card'
import { TranscriptList } from '../components/transcript-list'
import { formatClock, formatCost, plural } from '../lib/format'
import { isActive } from '../../../shared/view/session-state'
import { agentCounts } from '../state/agent-counts'
import { sendMessage, sendPrompt, stopAgent, useApp } from '../state/store'
import { PromptBox } from './prompt-box'
import { useState } from 'react'
import { errorText } from '../transport/types'

// Narrow slices: the session object changes with every streamed delta, these do not.
function SessionSummary({ sessionId }: { sessionId: string }) {
  const root = useApp((s) => {
    const session = s.events.sessions[sessionId]
    return session?.rootAgentId ? session.agents[session.rootAgentId] : undefined
  })
  const counts = useApp((s) => agentCounts(s.events.sessions[sessionId]))
  const toolCount = useApp((s) => s.events.sessions[sessionId]?.toolCount ?? 0)
  const cost = useApp((s) => s.events.sessions[sessionId]?.usage.costUsd ?? 0)
  if (!root || root.endedAt === null) return null
  if (counts.active)
    return (
      <div className="session-summary status-running" data-testid="session-still-working">
        <Icon name="agents" size={14} />
        <span>The main agent finished its turn; {plural(counts.active, 'agent')} still working. It hears from them when they report.</span>
      </div>
    )
  return (
    <div className={`session-summary status-${root.status}`} data-testid="session-summary">
      <Icon name={root.status === 'completed' ? 'check' : 'alert'} size={14} />
      <span>
        {root.status === 'completed' ? 'Finished' : root.status === 'stopped' ? 'Stopped' : root.status === 'max_turns' ? 'Stopped at the turn limit' : 'Failed'} in{' '}
        {formatClock(root.endedAt - root.startedAt)} · {plural(counts.total, 'subagent')} · {plural(toolCount, 'tool call')} · {formatCost(cost)}
      </span>
    </div>
  )
}

export function Conversation({ sessionId }: { sessionId: string }) {
  const rootId = useApp((s) => s.events.sessions[sessionId]?.rootAgentId ?? null)
  const root = useApp((s) => (rootId ? s.events.sessions[sessionId]?.agents[rootId] : undefined))
  const queue = useApp((s) => s.events.sessions[sessionId]?.permissionQueue)
  const permissions = useApp((s) => s.events.sessions[sessionId]?.permissions)
  const opening = useApp((s) => s.opening?.sessionId === sessionId)
  const openError = useApp((s) => s.openError)
  const [stopError, setStopError] = useState<string | null>(null)
  const running = !!root && isActive(root.status)
  // Requests of the main agent itself show here; subagents' show on their panels and in the queue.
  const mine = (queue ?? []).map((id) => permissions![id]).filter((p) => p.requestingAgentId === rootId || p.agentId === rootId)

  if (openError && !rootId) return <div className="pane-message error">Could not open this session: {openError}</div>
  if (opening && !rootId) return <div className="pane-message muted">Loading the session…</div>

  return (
    <section className="conversation" aria-label="Conversation">
      {rootId ? (
        <TranscriptList sessionId={sessionId} agentId={rootId} footer={<SessionSummary sessionId={sessionId} />} />
      ) : (
        <div className="pane-message muted">Starting…</div>
      )}
      <div className="conversation-bottom">
        {mine.map((p) => (
          <PermissionCard key={p.requestId} request={p} />
        ))}
        {running && rootId && (
          <div className="running-bar">
            <span className="muted small">The main agent is working…</span>
            <button
              className="btn btn-sm"
              onClick={() => stopAgent(sessionId, rootId).catch((err) => setStopError(errorText(err)))}
              data-testid="stop-session"
            >
              <Icon name="stop" size={12} /> Stop
            </button>
            {stopError && <span className="inline-error">{stopError}</span>}
          </div>
        )}
        <PromptBox
          placeholder={running ? 'Message the main agent while it works…' : 'Follow up…'}
          testId="followup"
          onSubmit={async (text) => {
            if (running && rootId) await sendMessage(sessionId, rootId, text)
            else await sendPrompt(sessionId, text)
          }}
        />
      </div>
    </section>
  )
}
