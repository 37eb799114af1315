// What reaches an agent's inbox, as the UI shows it. The runtime wraps each delivery in an envelope the
// model reads (src/main/runtime/orchestration/messaging/delivery.ts, team/team-manager.ts): `<agent-message>` for a
// SendMessage (from the person or an agent), `<task-notification>` for the report of a run nobody awaited,
// and inside a message `<team-request>` / `<team-response>`. Parsed here into who sent what, so no
// protocol markup, agent id or usage line reaches the screen.
import type { AgentStatus } from '../events'

export type InboxMessage =
  /** Typed by the person (SendMessage from `user`). */
  | { type: 'person'; text: string }
  /** From another agent; `fromName` is the envelope's sender label (a name, or an id). */
  | { type: 'agent'; fromName: string; summary?: string; text: string }
  /** A subagent's run ended and nobody awaited it: its report. `text` is the agent's own words only. */
  | { type: 'report'; agentId: string; agentType: string; name?: string; status: ReportStatus; text: string; note?: string }
  /** Anything else (Fanout's own notes, such as the restart note). */
  | { type: 'note'; text: string }

export type ReportStatus = Extract<AgentStatus, 'completed' | 'failed' | 'stopped' | 'max_turns'>

const unescapeAttr = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of tag.matchAll(/([\w-]+)="([^"]*)"/g)) out[m[1]] = unescapeAttr(m[2])
  return out
}

/** The text between `<tag>` and its last `</tag>`, trimmed of the newlines the envelope adds; null when absent. */
function element(text: string, tag: string): string | null {
  const open = text.indexOf(`<${tag}>`)
  if (open === -1) return null
  const from = open + tag.length + 2
  const close = text.lastIndexOf(`</${tag}>`)
  return close < from ? null : text.slice(from, close).replace(/^\n/, '').replace(/\n$/, '')
}

// Attribute values are escaped but may hold `>`: an attribute runs from quote to quote.
const ATTRS = String.raw`((?:\s+[\w-]+="[^"]*")*)\s*`
const AGENT_MESSAGE = new RegExp(String.raw`^\s*<agent-message${ATTRS}>\n?([\s\S]*?)\n?<\/agent-message>\s*$`)
const TEAM_ENVELOPE = new RegExp(String.raw`^\s*<(team-request|team-response)${ATTRS}>\n?([\s\S]*?)\n?<\/\1>`)

/** Whether a user-message block is one of the runtime's envelopes (never text the person typed). */
export function isEnvelope(text: string): boolean {
  return AGENT_MESSAGE.test(text) || /^\s*<task-notification>[\s\S]*<\/task-notification>\s*$/.test(text)
}

/** A run's prompt made of its inbox (a wake-up by a report or message): not a task to name the agent by. */
export const openedByInbox = (prompt: string): boolean => /^\s*<(task-notification|agent-message)[\s>]/.test(prompt)

/** A delivered text as the UI shows it. `from` is the sender as the event names it: an agent id, `user` or `fanout`. */
export function parseInbox(text: string, from: string): InboxMessage {
  const report = parseReport(text)
  if (report) return report
  const m = AGENT_MESSAGE.exec(text)
  if (!m) return from === 'user' ? { type: 'person', text } : { type: 'note', text: text.trim() }
  const a = attrs(m[1] ?? '')
  const body = m[2]
  if (a.from === 'user' || (from === 'user' && !a.from)) return { type: 'person', text: body }
  return { type: 'agent', fromName: a.from || from, ...(a.summary ? { summary: a.summary } : {}), text: teamText(body) }
}

const REPORT_STATUSES: ReadonlySet<string> = new Set<ReportStatus>(['completed', 'failed', 'stopped', 'max_turns'])

function parseReport(text: string): InboxMessage | null {
  const t = text.trim()
  if (!t.startsWith('<task-notification>') || !t.endsWith('</task-notification>')) return null
  const status = element(t, 'status') ?? ''
  const name = element(t, 'name')
  const note = element(t, 'note')
  return {
    type: 'report',
    agentId: element(t, 'task-id') ?? '',
    agentType: element(t, 'agent-type') ?? 'agent',
    ...(name ? { name } : {}),
    status: (REPORT_STATUSES.has(status) ? status : 'completed') as ReportStatus,
    text: reportBody(element(t, 'result') ?? ''),
    ...(note ? { note } : {})
  }
}

/**
 * The agent's own words of a report (orchestration/runs/report.ts): the lines after them — how to continue it,
 * where its worktree is, the usage line — are for the model.
 */
export function reportBody(result: string): string {
  const meta = result.search(/\n*^agentId: \S+/m)
  return (meta === -1 ? result.replace(/<usage>[\s\S]*?<\/usage>/g, '') : result.slice(0, meta)).trim()
}

const REQUEST_LABEL: Record<string, string> = { shutdown: 'Asks you to shut down', plan_approval: 'Plan for approval' }

/** A team request or answer in words; the instructions to the model after it are left out. */
function teamText(body: string): string {
  const m = TEAM_ENVELOPE.exec(body)
  if (!m) return body
  const a = attrs(m[2] ?? '')
  const content = m[3].trim()
  let head: string
  if (m[1] === 'team-request') head = REQUEST_LABEL[a.type] ?? 'Request'
  else if (a.type === 'shutdown') head = a.approved === 'true' ? 'Agreed to shut down' : 'Declined to shut down'
  else head = a.approved === 'true' ? 'Plan approved' : 'Plan rejected'
  return content ? `${head}: ${content}` : head
}

const ENDED: Record<ReportStatus, string> = { completed: 'finished', failed: 'failed', stopped: 'was stopped', max_turns: 'hit its turn limit' }

/** "finished", "failed"… : how a report says its run ended. */
export const reportVerb = (status: ReportStatus): string => ENDED[status]

/** One line for lists (the team board): the message's words, a report as how it ended and its first line. */
export function inboxPreview(message: InboxMessage, limit = 280): string {
  let body: string
  if (message.type === 'report') {
    const first = message.text.split('\n').find((l) => l.trim()) ?? ''
    const verb = reportVerb(message.status)
    body = `${verb[0].toUpperCase()}${verb.slice(1)}${first ? ` — ${first}` : ''}`
  } else body = message.text
  const flat = body
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat
}
