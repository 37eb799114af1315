// One permission request: who asks, for which tool, with what input, and the three answers.
import { useState } from 'react'
import { agentColorVar } from '../lib/agent-colors'
import { prettyJson, toolSummary } from '../lib/tool-summary'
import { respondPermission, useApp } from '../state/store'
import type { PermissionDecision, PermissionState } from '../../../shared/view/session-state'
import { errorText } from '../transport/types'
import { Icon } from './icon'

export function PermissionActions({ request, compact = false }: { request: PermissionState; compact?: boolean }) {
  const [busy, setBusy] = useState<PermissionDecision | null>(null)
  const [error, setError] = useState<string | null>(null)
  const answer = async (decision: PermissionDecision) => {
    setBusy(decision)
    setError(null)
    try {
      await respondPermission(request.requestId, decision)
    } catch (err) {
      setError(errorText(err))
      setBusy(null)
    }
  }
  return (
    <div className="permission-actions">
      <button className="btn btn-primary btn-sm" disabled={!!busy} onClick={() => answer('allow')} data-testid="perm-allow">
        <Icon name="check" size={13} /> Allow once
      </button>
      <button className="btn btn-sm" disabled={!!busy} onClick={() => answer('allow_always')} title={`Allow ${request.toolName} for the rest of this session`}>
        {compact ? 'Always' : 'Always allow'}
      </button>
      <button className="btn btn-sm btn-danger-ghost" disabled={!!busy} onClick={() => answer('deny')} data-testid="perm-deny">
        <Icon name="x" size={13} /> Deny
      </button>
      {error && <span className="inline-error" role="alert">{error}</span>}
    </div>
  )
}

export function PermissionCard({ request }: { request: PermissionState }) {
  const agent = useApp((s) => s.events.sessions[request.sessionId]?.agents[request.requestingAgentId])
  const via = useApp((s) => (request.agentId !== request.requestingAgentId ? s.events.sessions[request.sessionId]?.agents[request.agentId] : undefined))
  const summary = toolSummary(request.toolName, request.input)
  return (
    <div className="permission-card" data-testid="permission-card">
      <div className="permission-head">
        <Icon name="shield" className="permission-icon" />
        <span className="agent-chip" style={{ ['--agent-color' as string]: agentColorVar(agent?.color, request.requestingAgentId, agent?.parentId === null) }}>
          {agent?.agentType ?? 'agent'}
        </span>
        <span className="permission-title">
          wants to use <strong>{request.toolName}</strong>
        </span>
        {via && <span className="muted small">(asked via {via.agentType})</span>}
      </div>
      {agent?.description && <div className="permission-desc muted small">{agent.description}</div>}
      {summary && <code className="permission-summary">{summary}</code>}
      <details className="permission-input">
        <summary>Full input</summary>
        <pre>{prettyJson(request.input)}</pre>
      </details>
      {request.reason && <div className="permission-reason small">{request.reason}</div>}
      <PermissionActions request={request} />
    </div>
  )
}
