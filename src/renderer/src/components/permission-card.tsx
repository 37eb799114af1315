// One permission request: who asks, for which tool, with what input, and the answers. "Always allow" names
// the exact rule it adds wherever it is offered (the queue, a panel, a transcript row), and a compound
// command says part by part which parts that rule covers and why the others may run.
import { useLayoutEffect, useRef, useState } from 'react'
import { prettyJson, toolSummary } from '../lib/tool-summary'
import { useShallow } from 'zustand/react/shallow'
import { answerHandOff, nextAfterAnswer, refocusWhenLost, type AnswerHandOff } from '../lib/focus'
import { plural, truncate } from '../lib/format'
import { reasonBeyondInput } from '../lib/permission-reason'
import { useAgentColor } from '../lib/use-agent-color'
import { pendingLike } from '../state/selectors'
import { respondPermission, useApp } from '../state/store'
import type { CommandPart } from '../../../shared/events'
import { FEEDBACK_MAX_CHARS, type PermissionChoice } from '../../../shared/permission-answer'
import type { PermissionState } from '../../../shared/view/session-state'
import { errorMessage } from '../transport/types'
import { EditDiffView } from './edit-diff-view'
import { estimateIn, FanoutEstimateView } from './fanout-estimate'
import { Icon } from './icon'
import { InlineError } from './inline-error'

/** `full`: the queue and the conversation; `panel`: a panel or transcript row; `tile`: an overview tile (once or no). */
export type AnswerSize = 'full' | 'panel' | 'tile'

/** Answers a request (or several) with focus handed on to the next request when the answered one goes. */
export function useAnswer(wrap: React.RefObject<HTMLElement | null>) {
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const handOff = useRef<AnswerHandOff | null>(null)
  useLayoutEffect(
    () => () => {
      const to = handOff.current
      if (to) refocusWhenLost(() => nextAfterAnswer(to))
    },
    []
  )
  const answer = async (label: string, calls: Array<{ requestId: string; decision: PermissionChoice }>, feedback?: string) => {
    if (wrap.current) handOff.current = answerHandOff(wrap.current)
    setBusy(label)
    setError(null)
    try {
      await Promise.all(calls.map((c) => respondPermission(c.requestId, c.decision, feedback)))
    } catch (err) {
      setError(errorMessage(err))
      setBusy(null)
      handOff.current = null
    }
  }
  return { busy, error, answer }
}

/**
 * Words for the agent with the answer (the model's tool result says them): they go with whichever answer is
 * clicked, and Enter in the field denies with them, the safe answer.
 */
export function FeedbackField({
  value,
  onChange,
  onSubmit,
  disabled
}: {
  value: string
  onChange: (v: string) => void
  onSubmit: () => void
  disabled: boolean
}) {
  return (
    <input
      type="text"
      className="perm-feedback"
      aria-label="Tell the agent (optional)"
      placeholder="Tell the agent what to do instead (optional; Enter denies with it)"
      maxLength={FEEDBACK_MAX_CHARS}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' || e.nativeEvent.isComposing || !value.trim()) return
        e.preventDefault()
        onSubmit()
      }}
      data-testid="perm-feedback"
    />
  )
}

/** "Always allow Bash(npm test:*)": the rule in code, cut with its whole text in the tooltip when long. */
export function AlwaysLabel({ rule, max = 60 }: { rule: string; max?: number }) {
  return (
    <>
      Always allow{' '}
      <code className="perm-rule" title={rule.length > max ? rule : undefined}>
        {truncate(rule, max)}
      </code>
    </>
  )
}

export function PermissionActions({ request, size = 'full' }: { request: PermissionState; size?: AnswerSize }) {
  const like = useApp(useShallow((s) => pendingLike(s.events, request)))
  const wrap = useRef<HTMLDivElement>(null)
  const { busy, error, answer } = useAnswer(wrap)
  const rules = request.suggestedRules
  const rule = rules.join(', ')
  const [feedback, setFeedback] = useState('')
  const said = size === 'full' ? feedback : ''
  const one = (decision: PermissionChoice) => answer(decision, [{ requestId: request.requestId, decision }], said)
  const others = like.length - 1
  const alwaysTitle = `Adds ${rule} for the rest of this session${others > 0 ? `, and allows the ${plural(others, 'other waiting request')} it covers` : ''}`
  return (
    <div className="permission-actions-wrap" ref={wrap}>
      {size === 'full' && <FeedbackField value={feedback} onChange={setFeedback} onSubmit={() => void one('deny')} disabled={!!busy} />}
      <div className="permission-actions">
        <button className="btn btn-primary btn-sm" disabled={!!busy} onClick={() => one('allow')} data-testid="perm-allow">
          <Icon name="check" size={13} /> {size === 'tile' ? 'Allow' : 'Allow once'}
        </button>
        {like.length > 1 && size !== 'tile' && (
          <button
            className="btn btn-sm"
            disabled={!!busy}
            onClick={() =>
              answer(
                'all',
                like.map((p) => ({ requestId: p.requestId, decision: 'allow' })),
                said
              )
            }
            title={`Allows these ${like.length} waiting requests once each, without adding a rule`}
            data-testid="perm-allow-like"
          >
            {size === 'panel' ? `Allow all ${like.length}` : `Allow all ${like.length} like this`}
          </button>
        )}
        {rules.length > 0 && size !== 'tile' && (
          <button className="btn btn-sm perm-always" disabled={!!busy} onClick={() => one('allow_always')} title={alwaysTitle} data-testid="perm-always">
            <AlwaysLabel rule={rule} max={size === 'panel' ? 36 : 60} />
          </button>
        )}
        <button className="btn btn-sm btn-danger-ghost" disabled={!!busy} onClick={() => one('deny')} data-testid="perm-deny">
          <Icon name="x" size={13} /> {said.trim() ? 'Deny with note' : 'Deny'}
        </button>
        <InlineError error={error} as="span" />
      </div>
      {size === 'full' && rules.length > 0 && (
        <div className="perm-rule-note small muted" data-testid="perm-rule-note">
          “Always allow” adds the rule <code>{rule}</code> for the rest of this session
          {others > 0 ? ` and allows the ${plural(others, 'other waiting request')} it covers` : ''}.
        </div>
      )}
    </div>
  )
}

const COVERED: Record<CommandPart['covered'], string> = {
  'read-only': 'read-only: runs without asking',
  allowed: 'allowed by',
  rule: '“Always” adds',
  asks: 'asked about every time: no rule can cover it'
}

/** A compound command part by part: which rule covers which part, and why the others run anyway. */
export function CommandParts({ parts }: { parts: CommandPart[] | undefined }) {
  if (!parts?.length) return null
  return (
    <ul className="command-parts small" data-testid="command-parts" aria-label="The command’s parts">
      {parts.map((p, i) => (
        <li key={i} className={`command-part covered-${p.covered}`} data-covered={p.covered}>
          <code>{p.command}</code>
          <span className="muted">
            {' '}
            — {COVERED[p.covered]}
            {p.rule && (p.covered === 'allowed' || p.covered === 'rule') ? (
              <>
                {' '}
                <code>{p.rule}</code>
              </>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  )
}

export function PermissionCard({ request }: { request: PermissionState }) {
  const agent = useApp((s) => s.events.sessions[request.sessionId]?.agents[request.requestingAgentId])
  const via = useApp((s) => (request.agentId !== request.requestingAgentId ? s.events.sessions[request.sessionId]?.agents[request.agentId] : undefined))
  const summary = toolSummary(request.toolName, request.input)
  // The command (or path) shows once, in its box; the reason adds only what it says beyond it.
  const reason = reasonBeyondInput(request.reason, request.input)
  const color = useAgentColor(agent?.color, agent?.agentType ?? 'agent', agent?.parentId === null)
  const estimate = estimateIn(request.input)
  return (
    <div className="permission-card" data-testid="permission-card">
      <div className="permission-head">
        <Icon name="shield" className="permission-icon" />
        <span className="agent-chip" style={color}>
          {agent?.name ?? agent?.agentType ?? 'agent'}
        </span>
        <span className="permission-title">
          wants to use <strong>{request.toolName}</strong>
        </span>
        {via && <span className="muted small">(asked via {via.agentType})</span>}
      </div>
      {agent?.description && <div className="permission-desc muted small">{agent.description}</div>}
      {/* A compound command shows once: part by part with what covers each, else whole in its box. */}
      {estimate ? (
        <FanoutEstimateView estimate={estimate} />
      ) : request.commandParts?.length ? (
        <CommandParts parts={request.commandParts} />
      ) : (
        summary && <code className="permission-summary">{summary}</code>
      )}
      {/* An edit is approved seeing what it changes, not only where. */}
      <EditDiffView toolName={request.toolName} input={request.input} previousText={request.previousText} wide />
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
