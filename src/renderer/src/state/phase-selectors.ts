// Derived views for coordinator mode and teams: agents grouped by the phase they run in, and a team's
// tasks by column and by member. Pure functions of the state.
import { COORDINATOR_PHASES, type CoordinatorPhase, type TaskStatus, type TeamSnapshot, type TeamTask } from '../../../shared/team'
import type { SessionState } from '../../../shared/view/session-state'

export interface PhaseGroup {
  /** null: agents started before the coordinator named a phase. */
  phase: CoordinatorPhase | null
  ids: string[]
}

/** `ids` grouped by phase, in phase order (agents without a phase first); empty groups are left out. */
export function groupByPhase(session: Pick<SessionState, 'agents'>, ids: readonly string[]): PhaseGroup[] {
  const by = new Map<CoordinatorPhase | null, string[]>()
  for (const id of ids) {
    const phase = session.agents[id]?.phase ?? null
    const list = by.get(phase)
    if (list) list.push(id)
    else by.set(phase, [id])
  }
  return [null, ...COORDINATOR_PHASES].filter((p) => by.has(p)).map((phase) => ({ phase, ids: by.get(phase)! }))
}

export type PhaseProgress = 'done' | 'current' | 'upcoming' | 'skipped'

/**
 * Each phase's state for the phase strip: the current one, those entered before, those passed over without
 * being entered, and the rest. `over`: nothing runs any more, so no phase is current and none is to come.
 */
export function phaseProgress(
  session: Pick<SessionState, 'phases'>,
  { over = false } = {}
): Array<{ phase: CoordinatorPhase; progress: PhaseProgress; note?: string }> {
  const current = session.phases.length ? session.phases[session.phases.length - 1] : null
  const entered = new Set(session.phases.map((p) => p.phase))
  const reached = current ? COORDINATOR_PHASES.indexOf(current.phase) : -1
  return COORDINATOR_PHASES.map((phase, i) => {
    const note = [...session.phases].reverse().find((p) => p.phase === phase)?.note
    let progress: PhaseProgress
    if (current?.phase === phase && !over) progress = 'current'
    else if (entered.has(phase)) progress = 'done'
    else progress = over || i < reached ? 'skipped' : 'upcoming'
    return { phase, progress, ...(note ? { note } : {}) }
  })
}

/** The team's tasks in board columns, each in id order. */
export function taskColumns(team: TeamSnapshot): Record<TaskStatus, TeamTask[]> {
  const cols: Record<TaskStatus, TeamTask[]> = { pending: [], in_progress: [], completed: [] }
  for (const t of team.tasks) cols[t.status].push(t)
  return cols
}

/** Tasks whose blockers are not all completed. */
export function isBlocked(team: TeamSnapshot, task: TeamTask): boolean {
  return task.status === 'pending' && task.blockedBy.some((id) => team.tasks.find((t) => t.id === id)?.status !== 'completed')
}

/** What a member is doing now and has done: its task in progress and how many it completed. */
export function memberWork(team: TeamSnapshot, name: string): { current: TeamTask | undefined; completed: number } {
  return {
    current: team.tasks.find((t) => t.owner === name && t.status === 'in_progress'),
    completed: team.tasks.filter((t) => t.owner === name && t.status === 'completed').length
  }
}
