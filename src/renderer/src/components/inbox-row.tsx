// A message delivered to an agent, in its transcript: the person's own words as "You", a message from
// another agent under its sender's name, a subagent's report as one row that opens its panel, and Fanout's
// notes as a notice. The envelopes the model reads (view/inbox-message.ts) never show.
import { memo } from 'react'
import { reportVerb } from '../../../shared/view/inbox-message'
import type { InboxItem } from '../../../shared/view/session-state'
import { truncate } from '../lib/format'
import { useAgentColor } from '../lib/use-agent-color'
import { plainPreview } from '../lib/plain-preview'
import { ui, useApp } from '../state/store'
import { Icon } from './icon'
import { StatusDot } from './status'

/** `compact`: in a live panel, where a few lines must do. */
export const InboxRow = memo(function InboxRow({ item, sessionId, compact = false }: { item: InboxItem; sessionId: string; compact?: boolean }) {
  const m = item.message
  switch (m.type) {
    case 'person':
      return (
        <div className={compact ? 'tail-user tail-you' : 'msg-user'} data-testid="user-message">
          <div className="msg-user-label">You</div>
          <div className="msg-user-text">{compact ? truncate(m.text, 600) : m.text}</div>
        </div>
      )
    case 'agent':
      return <AgentMessage sessionId={sessionId} from={item.from} fromName={item.fromName ?? m.fromName} summary={m.summary} text={m.text} compact={compact} />
    case 'report':
      return <ReportRow sessionId={sessionId} item={item} />
    case 'note':
      return <div className="msg-notice">{m.text}</div>
  }
})

function AgentMessage({
  sessionId,
  from,
  fromName,
  summary,
  text,
  compact
}: {
  sessionId: string
  from: string
  fromName: string
  summary?: string
  text: string
  compact: boolean
}) {
  const own = useApp((s) => s.events.sessions[sessionId]?.agents[from]?.color)
  const type = useApp((s) => s.events.sessions[sessionId]?.agents[from]?.agentType ?? fromName)
  const color = useAgentColor(own, type)
  return (
    <div className="msg-inbox" style={color} data-testid="agent-message">
      <div className="msg-inbox-head">
        <Icon name="message" size={12} />
        <span>
          Message from <strong className="msg-inbox-from">{fromName}</strong>
        </span>
        {summary && <span className="msg-inbox-summary">· {summary}</span>}
      </div>
      <div className={`msg-inbox-text${compact ? ' clamp' : ''}`}>{compact ? truncate(text, 600) : text}</div>
    </div>
  )
}

function ReportRow({ sessionId, item }: { sessionId: string; item: InboxItem }) {
  const m = item.message as Extract<InboxItem['message'], { type: 'report' }>
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[m.agentId])
  const name = agent?.name ?? m.name
  const type = agent?.agentType ?? m.agentType
  const preview = plainPreview(m.text, 200)
  const color = useAgentColor(agent?.color, type)
  return (
    <button
      className="msg-report"
      style={color}
      onClick={() => agent && ui.focusAgent(agent.id)}
      disabled={!agent}
      title={agent ? 'Show this agent’s panel' : undefined}
      data-testid="task-report"
      data-status={m.status}
    >
      <StatusDot status={m.status} />
      <span className="msg-report-line">
        {/* Task first, as the agent's card above names it; the type (or member name) after it. */}
        {agent?.description ? (
          <>
            <strong className="msg-report-task">{agent.description}</strong> <span className="muted">({name ?? type})</span>
          </>
        ) : (
          <>
            <strong className="agent-type">{name ?? type}</strong>
            {name && <span className="muted"> ({type})</span>}
          </>
        )}{' '}
        {reportVerb(m.status)}
        {preview && <span className="msg-report-preview"> — {preview}</span>}
      </span>
      {agent && <Icon name="chevronRight" size={14} className="agent-card-go" />}
    </button>
  )
}
