// Alike permission requests in one card — the same tool, the same rule "Always" would add (or the same
// command) in one session — with one answer for all of them ("Allow all N"), and each still answerable on
// its own.
import { useRef, useState } from 'react'
import type { PermissionState } from '../../../shared/view/session-state'
import { toolSummary } from '../lib/tool-summary'
import { useAgentColor } from '../lib/use-agent-color'
import { useApp } from '../state/store'
import { Icon } from './icon'
import { EditDiffView } from './edit-diff-view'
import { AlwaysLabel, CommandParts, FeedbackField, PermissionActions, PermissionCard, useAnswer } from './permission-card'
import { InlineError } from './inline-error'

/** Groups requests that one answer fits: by session, tool, and the rule "Always" adds (else the command). */
export function groupAlike(requests: readonly PermissionState[]): PermissionState[][] {
  const groups = new Map<string, PermissionState[]>()
  for (const r of requests) {
    const key = [r.sessionId, r.toolName, r.suggestedRules.length ? r.suggestedRules.join('\n') : toolSummary(r.toolName, r.input)].join('\u0000')
    const g = groups.get(key)
    if (g) g.push(r)
    else groups.set(key, [r])
  }
  return [...groups.values()]
}

function GroupItem({ request }: { request: PermissionState }) {
  const agent = useApp((s) => s.events.sessions[request.sessionId]?.agents[request.requestingAgentId])
  const color = useAgentColor(agent?.color, agent?.agentType ?? 'agent', agent?.parentId === null)
  const summary = toolSummary(request.toolName, request.input)
  return (
    <li className="permission-group-item" data-testid="permission-group-item">
      <span className="agent-chip" style={color}>
        {agent?.name ?? agent?.agentType ?? 'agent'}
      </span>
      <span className="permission-group-what">
        <code>{summary}</code>
        {agent?.description && <span className="muted small"> — {agent.description}</span>}
      </span>
      <PermissionActions request={request} size="tile" />
      <EditDiffView toolName={request.toolName} input={request.input} previousText={request.previousText} />
    </li>
  )
}

export function PermissionGroup({ requests }: { requests: PermissionState[] }) {
  const wrap = useRef<HTMLDivElement>(null)
  const { busy, error, answer } = useAnswer(wrap)
  const [feedback, setFeedback] = useState('')
  if (requests.length === 1) return <PermissionCard request={requests[0]} />
  const first = requests[0]
  const summaries = new Set(requests.map((r) => toolSummary(r.toolName, r.input)))
  const rule = first.suggestedRules.join(', ')
  const all = (decision: 'allow' | 'deny') =>
    answer(
      decision,
      requests.map((r) => ({ requestId: r.requestId, decision })),
      feedback
    )
  return (
    <div className="permission-card permission-group" data-testid="permission-group" ref={wrap}>
      <div className="permission-head">
        <Icon name="shield" className="permission-icon" />
        <span className="permission-title">
          {requests.length} requests to use <strong>{first.toolName}</strong>
          {summaries.size === 1 && <span className="muted">, all for the same</span>}
        </span>
      </div>
      {summaries.size === 1 &&
        (first.commandParts?.length ? <CommandParts parts={first.commandParts} /> : <code className="permission-summary">{[...summaries][0]}</code>)}
      <ul className="permission-group-items">
        {requests.map((r) => (
          <GroupItem key={r.requestId} request={r} />
        ))}
      </ul>
      <div className="permission-actions-wrap">
        <FeedbackField value={feedback} onChange={setFeedback} onSubmit={() => void all('deny')} disabled={!!busy} />
        <div className="permission-actions">
          {/* The group's own answers; each request's own buttons are beside it above. */}
          <button
            className="btn btn-primary btn-sm"
            disabled={!!busy}
            onClick={() => all('allow')}
            data-testid="perm-allow-all"
            title="Allows each of these requests once, without adding a rule"
          >
            <Icon name="check" size={13} /> Allow all {requests.length}
          </button>
          {rule && (
            <button
              className="btn btn-sm perm-always"
              disabled={!!busy}
              onClick={() => answer('always', [{ requestId: first.requestId, decision: 'allow_always' }], feedback)}
              title={`Adds ${rule} for the rest of this session; it answers all ${requests.length}`}
              data-testid="perm-always-all"
            >
              <AlwaysLabel rule={rule} />
            </button>
          )}
          <button className="btn btn-sm btn-danger-ghost" disabled={!!busy} onClick={() => all('deny')} data-testid="perm-deny-all">
            <Icon name="x" size={13} /> Deny all {requests.length}
          </button>
          <InlineError error={error} as="span" />
        </div>
        {rule && (
          <div className="perm-rule-note small muted">
            “Always allow” adds the rule <code>{rule}</code> for the rest of this session, which answers all {requests.length}.
          </div>
        )}
      </div>
    </div>
  )
}
