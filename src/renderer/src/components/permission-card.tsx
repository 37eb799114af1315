// One permission request: who asks, for which tool, with what input, and the three answers.
import { useLayoutEffect, useRef, useState } from 'react'
import { prettyJson, toolSummary } from '../lib/tool-summary'
import { useShallow } from 'zustand/react/shallow'
import { answerHandOff, nextAfterAnswer, refocusWhenLost, type AnswerHandOff } from '../lib/focus'
import { plural } from '../lib/format'
import { reasonBeyondInput } from '../lib/permission-reason'
import { useAgentColor } from '../lib/use-agent-color'
import { pendingLike } from '../state/selectors'
import { respondPermission, useApp } from '../state/store'
import type { PermissionDecision, PermissionState } from '../../../shared/view/session-state'
import { errorText } from '../transport/types'
import { Icon } from './icon'

export function PermissionActions({ request, compact = false }: { request: PermissionState; compact?: boolean }) {
  const [busy, setBusy] = useState<PermissionDecision | 'all' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const like = useApp(useShallow((s) => pendingLike(s.events, request)))
  const rules = request.suggestedRules
  const rule = rules.join(', ')
  const wrap = useRef<HTMLDivElement>(null)
  // Answered, the request goes away with the button that had focus: focus moves on to the next request
  // waiting in the same place (or the scope's fallback: the dialog's Close, the prompt box).
  const handOff = useRef<AnswerHandOff | null>(null)
  useLayoutEffect(
    () => () => {
      const to = handOff.current
      if (to) refocusWhenLost(() => nextAfterAnswer(to))
    },
    []
  )
  const answer = async (decision: PermissionDecision | 'all') => {
    if (wrap.current) handOff.current = answerHandOff(wrap.current)
    setBusy(decision)
    setError(null)
    try {
      if (decision === 'all') await Promise.all(like.map((p) => respondPermission(p.requestId, 'allow')))
      else await respondPermission(request.requestId, decision)
    } catch (err) {
      setError(errorText(err))
      setBusy(null)
      handOff.current = null
    }
  }
  const others = like.length - 1
  const alwaysTitle = `Adds ${rule} for the rest of this session${others > 0 ? `, and allows the ${plural(others, 'other waiting request')} it covers` : ''}`
  return (
    <div className="permission-actions-wrap" ref={wrap}>
      <div className="permission-actions">
        <button className="btn btn-primary btn-sm" disabled={!!busy} onClick={() => answer('allow')} data-testid="perm-allow">
          <Icon name="check" size={13} /> Allow once
        </button>
        {like.length > 1 && (
          <button className="btn btn-sm" disabled={!!busy} onClick={() => answer('all')} title={`Allows these ${like.length} waiting requests once each, without adding a rule`} data-testid="perm-allow-like">
            Allow all {like.length} like this
          </button>
        )}
        {rules.length > 0 && (
          <button className="btn btn-sm" disabled={!!busy} onClick={() => answer('allow_always')} title={alwaysTitle} data-testid="perm-always">
            {compact ? 'Always' : <>Always allow <code className="perm-rule">{rule}</code></>}
          </button>
        )}
        <button className="btn btn-sm btn-danger-ghost" disabled={!!busy} onClick={() => answer('deny')} data-testid="perm-deny">
          <Icon name="x" size={13} /> Deny
        </button>
        {error && <span className="inline-error" role="alert">{error}</span>}
      </div>
      {!compact && rules.length > 0 && (
        <div className="perm-rule-note small muted" data-testid="perm-rule-note">
          “Always allow” adds the rule <code>{rule}</code> for the rest of this session{others > 0 ? ` and allows the ${plural(others, 'other waiting request')} it covers` : ''}.
        </div>
      )}
    </div>
  )
}

export function PermissionCard({ request }: { request: PermissionState }) {
  const agent = useApp((s) => s.events.sessions[request.sessionId]?.agents[request.requestingAgentId])
  const via = useApp((s) => (request.agentId !== request.requestingAgentId ? s.events.sessions[request.sessionId]?.agents[request.agentId] : undefined))
  const summary = toolSummary(request.toolName, request.input)
  // The command (or path) shows once, in its box; the reason adds only what it says beyond it.
  const reason = reasonBeyondInput(request.reason, request.input)
  const color = useAgentColor(agent?.color, agent?.agentType ?? 'agent', agent?.parentId === null)
  return (
    <div className="permission-card" data-testid="permission-card">
      <div className="permission-head">
        <Icon name="shield" className="permission-icon" />
        <span className="agent-chip" style={color}>
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
      {reason && (
        <div className="permission-reason small" data-testid="permission-reason">
          {reason}
        </div>
      )}
      <PermissionActions request={request} />
    </div>
  )
}
