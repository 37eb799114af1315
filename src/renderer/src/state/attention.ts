// Which agents need the person: one waiting on a permission answer, one that failed (until the person has
// looked at it), and the main agent when its turn ended on a question and nothing else is working. Tiles mark
// them; "Next agent needing you" (Alt+J) goes to each in turn, this session's first.
import { isActive, type AgentState, type SessionState, type TranscriptItem } from '../../../shared/view/session-state'

export type AttentionReason = 'permission' | 'failed' | 'question'

export interface AttentionItem {
  sessionId: string
  agentId: string
  reason: AttentionReason
  /** Since when it has needed the person: the request, the failure, the question. */
  since: number
}

export const ATTENTION_LABEL: Record<AttentionReason, string> = {
  permission: 'Needs your permission',
  failed: 'Failed',
  question: 'Asks you a question'
}

/** When the person last looked at each agent (opened its panel, jumped to it): by agent id. */
export type Acknowledged = Readonly<Record<string, number>>

function lastText(items: readonly TranscriptItem[] | undefined): string {
  if (!items) return ''
  for (let i = items.length - 1; i >= 0 && i >= items.length - 20; i--) {
    const it = items[i]
    if (it.kind === 'text') return it.text
    if (it.kind === 'user') return ''
  }
  return ''
}

/** The reply ends on a question (a trailing emphasis or code mark does not hide it). */
export function endsWithQuestion(text: string): boolean {
  return /\?[\s*_`)"'”’]*$/.test(text.trim())
}

/** Why one agent needs the person, or null. */
export function attentionOf(session: SessionState, a: AgentState, acknowledged: Acknowledged): AttentionReason | null {
  if (a.status === 'waiting_permission') return 'permission'
  const seen = acknowledged[a.id] ?? 0
  if (a.status === 'failed') return (a.endedAt ?? 0) > seen ? 'failed' : null
  if (a.id === session.rootAgentId && a.status === 'completed' && (a.endedAt ?? 0) > seen && endsWithQuestion(lastText(session.items[a.id]))) {
    for (const id of session.agentOrder) if (isActive(session.agents[id].status)) return null
    return 'question'
  }
  return null
}

const cache = new WeakMap<SessionState['agents'], { acknowledged: Acknowledged; items: AttentionItem[] }>()

/** A session's agents that need the person: permission requests (oldest first), then failures, then the question. */
export function sessionAttention(session: SessionState | undefined, acknowledged: Acknowledged): AttentionItem[] {
  if (!session) return []
  const hit = cache.get(session.agents)
  if (hit && hit.acknowledged === acknowledged) return hit.items
  const items: AttentionItem[] = []
  for (const id of session.agentOrder) {
    const a = session.agents[id]
    const reason = attentionOf(session, a, acknowledged)
    if (!reason) continue
    const request = reason === 'permission' ? session.permissionQueue.map((r) => session.permissions[r]).find((p) => p.requestingAgentId === id) : undefined
    items.push({ sessionId: session.id, agentId: id, reason, since: request?.ts ?? a.endedAt ?? a.startedAt })
  }
  const rank: Record<AttentionReason, number> = { permission: 0, failed: 1, question: 2 }
  items.sort((x, y) => rank[x.reason] - rank[y.reason] || x.since - y.since)
  cache.set(session.agents, { acknowledged, items })
  return items
}

/**
 * Everything that needs the person, the open session first, then permission requests waiting in other
 * sessions (a failure elsewhere is that session's news, shown on its row).
 */
export function allAttention(sessions: Record<string, SessionState>, currentId: string | null, acknowledged: Acknowledged): AttentionItem[] {
  const here = currentId ? sessionAttention(sessions[currentId], acknowledged) : []
  const elsewhere = Object.values(sessions)
    .filter((s) => s.id !== currentId)
    .flatMap((s) => sessionAttention(s, acknowledged).filter((i) => i.reason === 'permission'))
    .sort((x, y) => x.since - y.since)
  return [...here, ...elsewhere]
}

/** The item after `last` (by session and agent), wrapping round; the first when `last` is gone. */
export function nextAttention(items: readonly AttentionItem[], last: { sessionId: string; agentId: string } | null): AttentionItem | null {
  if (!items.length) return null
  const i = last ? items.findIndex((x) => x.sessionId === last.sessionId && x.agentId === last.agentId) : -1
  return items[(i + 1) % items.length]
}
