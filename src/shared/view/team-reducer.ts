// The coordinator's phases and the agent team, folded from `phase`, `team` and `message_received` events.
// Pure, like the rest of the reducer: live batches and the replay of a reopened session agree.
import type { MessageReceivedEvent, PhaseEvent, TeamEvent } from '../events'
import type { CoordinatorPhase, TeamSnapshot } from '../team'
import { inboxPreview, parseInbox } from './inbox-message'
import type { SessionDraft } from './session-draft'
import type { SessionState, TeamMessage } from './session-state'

/** How many team messages the board keeps (the newest). */
export const TEAM_MESSAGE_LIMIT = 300

export function applyPhase(d: SessionDraft, e: PhaseEvent): void {
  d.set('phases', [...d.state.phases, { phase: e.phase, ...(e.note ? { note: e.note } : {}), ts: e.ts }])
}

export function currentPhase(s: Pick<SessionState, 'phases'>): CoordinatorPhase | null {
  return s.phases.length ? s.phases[s.phases.length - 1].phase : null
}

/** The phase a subagent starting now belongs to (none outside coordinator mode). */
export function phaseForStart(d: SessionDraft, parentId: string | null): CoordinatorPhase | undefined {
  if (parentId === null) return undefined
  return currentPhase(d.state) ?? undefined
}

export function applyTeam(d: SessionDraft, e: TeamEvent): void {
  d.set('team', e.team)
}

function nameOf(team: TeamSnapshot, agentId: string): string | null {
  if (agentId === team.leadAgentId) return 'lead'
  return team.members.find((m) => m.agentId === agentId)?.name ?? null
}

/** A message between members of the team (or the lead) joins the board's list; others are not team talk. */
export function teamMessage(d: SessionDraft, e: MessageReceivedEvent): void {
  const team = d.state.team
  if (!team) return
  const to = nameOf(team, e.agentId)
  const from = nameOf(team, e.from)
  if (!to || !from) return
  const list = d.state.teamMessages
  const message = parseInbox(e.text, e.from)
  // A report's summary only repeats what the preview says.
  const summary = e.summary && message.type !== 'report' ? e.summary : undefined
  const msg: TeamMessage = { key: `m${d.state.eventCount}`, ts: e.ts, from, to, ...(summary ? { summary } : {}), text: inboxPreview(message) }
  d.set('teamMessages', list.length >= TEAM_MESSAGE_LIMIT ? [...list.slice(list.length - TEAM_MESSAGE_LIMIT + 1), msg] : [...list, msg])
}
