// The team's state as the fold of its log. Each operation is checked against the state the operations
// before it left, and either applied or refused with a sentence the acting model can act on. The fold is
// deterministic — no clock, no I/O — so every reader of the same log reaches the same state and the same
// outcome for every operation: that is what makes a claim atomic across agents and processes.
import type { TeamRequest, TeamSnapshot, TeamTask } from '../../../../shared/team'
import { LEAD, type TeamOp } from './team-ops'

export interface TeamState {
  team: TeamSnapshot | null
  nextTaskId: number
  /** Each member's task and the call that started the team, by agent id (from team_create): how to launch it again. */
  launches: Record<string, { prompt: string; toolUseId?: string }>
  /** What each team tool's call came to, by its tool_use id: how a call a crash cut off is answered on resume. */
  calls: Record<string, CallRecord>
  /** The log holds a tool's operation with no call id (written before ids were): a call missing from `calls` may still be in it. */
  untracked: boolean
}

/** A team tool's call as the log records it: what it did (the team it made, the task it touched), or why the fold refused it. */
export type CallRecord =
  | { ok: true; op: 'team_create'; team: string; members: string[]; tasks: number }
  | { ok: true; op: Exclude<TeamOp['op'], 'team_create'>; taskId?: string }
  | { ok: false; op: TeamOp['op']; error: string; code?: 'none_available' }

/** The operations only a tool call makes (the others come from the runtime: member status, requests and answers). */
const CALL_OPS: ReadonlySet<TeamOp['op']> = new Set(['team_create', 'team_delete', 'task_create', 'task_claim', 'task_update'])

/**
 * `none_available`: a claim of "the next task" found nothing to take — an answer, not a failure. `tasks`: the
 * outcome of each task a team_create made with the team, in order.
 */
export type OpOutcome = { ok: true; taskId?: string; requestId?: string; tasks?: OpOutcome[] } | { ok: false; error: string; code?: 'none_available' }

export const emptyTeamState = (): TeamState => ({ team: null, nextTaskId: 1, launches: {}, calls: {}, untracked: false })

const refuse = (error: string): OpOutcome => ({ ok: false, error })

/** Applies one operation to `state` (in place) and says whether it took effect; a tool call's outcome is kept by its id. */
export function applyOp(state: TeamState, op: TeamOp): OpOutcome {
  const out = applyOne(state, op)
  if (op.toolUseId) state.calls[op.toolUseId] = callRecord(op, out)
  else if (CALL_OPS.has(op.op)) state.untracked = true
  return out
}

function callRecord(op: TeamOp, out: OpOutcome): CallRecord {
  if (!out.ok) return { ok: false, op: op.op, error: out.error, ...(out.code ? { code: out.code } : {}) }
  if (op.op === 'team_create')
    return { ok: true, op: op.op, team: op.name, members: op.members.map((m) => m.name), tasks: (out.tasks ?? []).filter((t) => t.ok).length }
  return { ok: true, op: op.op, ...(out.taskId ? { taskId: out.taskId } : {}) }
}

function applyOne(state: TeamState, op: TeamOp): OpOutcome {
  if (op.op === 'team_create') return createTeam(state, op)
  const team = state.team
  if (!team || team.status !== 'active') return refuse('There is no active team in this session. The lead creates one with TeamCreate.')
  if (op.actor !== LEAD && !team.members.some((m) => m.name === op.actor)) return refuse(`'${op.actor}' is not a member of team ${team.name}.`)
  switch (op.op) {
    case 'team_delete': {
      if (op.actor !== LEAD) return refuse('Only the team lead can delete the team.')
      const busy = team.members.filter((m) => m.status === 'working' || m.status === 'starting')
      if (busy.length)
        return refuse(
          `Members are still working: ${busy.map((m) => m.name).join(', ')}. Ask them to shut down (RequestShutdown) and wait for them to finish first.`
        )
      team.status = 'deleted'
      return { ok: true }
    }
    case 'member': {
      const m = team.members.find((x) => x.name === op.name)
      if (!m) return refuse(`No member named '${op.name}'.`)
      // A member that agreed to shut down stays shut down, whatever its run reports afterwards.
      if (m.status === 'shutdown' && op.status !== 'shutdown') return { ok: true }
      m.status = op.status
      if (op.branch) m.branch = op.branch
      return { ok: true }
    }
    case 'task_create':
      return createTask(state, team, op)
    case 'task_claim':
      return claimTask(team, op)
    case 'task_update':
      return updateTask(team, op)
    case 'request':
      return request(team, op)
    case 'respond':
      return respond(team, op)
  }
}

function createTeam(state: TeamState, op: Extract<TeamOp, { op: 'team_create' }>): OpOutcome {
  if (state.team?.status === 'active')
    return refuse(
      `This session already has a team, '${state.team.name}'. A session has one team at a time: work with it, or delete it (TeamDelete) once its members have stopped.`
    )
  const names = new Set<string>()
  for (const m of op.members) {
    if (m.name === LEAD) return refuse(`'${LEAD}' is the team lead's own name; give the member another name.`)
    if (names.has(m.name)) return refuse(`Two members are named '${m.name}'; every member needs its own name.`)
    names.add(m.name)
  }
  state.team = {
    name: op.name,
    description: op.description,
    leadAgentId: op.leadAgentId,
    members: op.members.map(({ prompt: _prompt, ...m }) => ({ ...m, status: 'starting' })),
    tasks: [],
    requests: [],
    status: 'active',
    createdAt: op.ts
  }
  state.nextTaskId = 1
  state.launches = {}
  for (const m of op.members) if (m.prompt !== undefined) state.launches[m.agentId] = { prompt: m.prompt, ...(op.toolUseId ? { toolUseId: op.toolUseId } : {}) }
  const team = state.team
  const tasks = (op.tasks ?? []).map((t) => createTask(state, team, { ...t, op: 'task_create', actor: op.actor, opId: op.opId, ts: op.ts }))
  return { ok: true, ...(op.tasks ? { tasks } : {}) }
}

const findTask = (team: TeamSnapshot, id: string) => team.tasks.find((t) => t.id === id)

/** Ids among `ids` that are not completed tasks. */
function openBlockers(team: TeamSnapshot, ids: readonly string[]): string[] {
  return ids.filter((id) => findTask(team, id)?.status !== 'completed')
}

function missing(team: TeamSnapshot, ids: readonly string[]): string[] {
  return ids.filter((id) => !findTask(team, id))
}

function createTask(state: TeamState, team: TeamSnapshot, op: Extract<TeamOp, { op: 'task_create' }>): OpOutcome {
  if (!op.subject.trim()) return refuse('A task needs a subject.')
  const unknown = missing(team, op.blockedBy)
  if (unknown.length) return refuse(`blockedBy names tasks that do not exist: ${unknown.join(', ')}. Create those first, or list existing ids (TaskList).`)
  const id = String(state.nextTaskId++)
  team.tasks.push({
    id,
    subject: op.subject,
    description: op.description,
    status: 'pending',
    blockedBy: [...new Set(op.blockedBy)],
    createdBy: op.actor,
    createdAt: op.ts,
    updatedAt: op.ts
  })
  return { ok: true, taskId: id }
}

function claimable(team: TeamSnapshot, t: TeamTask, actor: string): string | null {
  if (t.status === 'completed') return `Task ${t.id} is already completed.`
  if (t.status === 'in_progress') return t.owner === actor ? null : `Task ${t.id} was already claimed by ${t.owner}.`
  if (t.owner && t.owner !== actor) return `Task ${t.id} is assigned to ${t.owner}.`
  const blockers = openBlockers(team, t.blockedBy)
  if (blockers.length) return `Task ${t.id} is blocked by unfinished task${blockers.length > 1 ? 's' : ''} ${blockers.join(', ')}.`
  return null
}

function claimTask(team: TeamSnapshot, op: Extract<TeamOp, { op: 'task_claim' }>): OpOutcome {
  const holding = team.tasks.find((t) => t.owner === op.actor && t.status === 'in_progress' && t.id !== op.taskId)
  // Asked for the first task it may take, a worker that holds one gets that one back: after a crash cut off
  // the answer to its claim, this is how it learns what it is working on (refused, it would go idle on it).
  if (holding && op.taskId === undefined) return { ok: true, taskId: holding.id }
  if (holding)
    return refuse(
      `You are working on task ${holding.id} ("${holding.subject}"); complete it (TaskUpdate status: completed) or release it (status: pending) before claiming another.`
    )
  let task: TeamTask | undefined
  if (op.taskId !== undefined) {
    task = findTask(team, op.taskId)
    if (!task) return refuse(`There is no task ${op.taskId}. TaskList shows the tasks.`)
    const why = claimable(team, task, op.actor)
    if (why) return refuse(why)
  } else {
    task = team.tasks.find((t) => claimable(team, t, op.actor) === null && (!t.owner || t.owner === op.actor))
    if (!task) {
      const pending = team.tasks.filter((t) => t.status === 'pending')
      const blocked = pending.filter((t) => openBlockers(team, t.blockedBy).length)
      if (!pending.length) return { ok: false, code: 'none_available', error: 'No task is available: every task is claimed or completed.' }
      return {
        ok: false,
        code: 'none_available',
        error: `No task is available to you: ${blocked.length} pending task${blocked.length === 1 ? ' is' : 's are'} blocked by unfinished work, ${pending.length - blocked.length} assigned to others.`
      }
    }
  }
  task.owner = op.actor
  task.status = 'in_progress'
  task.updatedAt = op.ts
  return { ok: true, taskId: task.id }
}

/** Whether making `id` wait for `blockers` would make a task wait for itself. */
function makesCycle(team: TeamSnapshot, id: string, blockers: readonly string[]): boolean {
  const seen = new Set<string>()
  const stack = [...blockers]
  while (stack.length) {
    const cur = stack.pop()!
    if (cur === id) return true
    if (seen.has(cur)) continue
    seen.add(cur)
    stack.push(...(findTask(team, cur)?.blockedBy ?? []))
  }
  return false
}

function updateTask(team: TeamSnapshot, op: Extract<TeamOp, { op: 'task_update' }>): OpOutcome {
  const task = findTask(team, op.taskId)
  if (!task) return refuse(`There is no task ${op.taskId}. TaskList shows the tasks.`)
  const lead = op.actor === LEAD
  const mine = task.owner === op.actor
  if (op.owner !== undefined) {
    if (!lead) return refuse('Only the team lead assigns tasks; claim one for yourself with TaskClaim.')
    if (op.owner !== null && !team.members.some((m) => m.name === op.owner)) return refuse(`No member named '${op.owner}'.`)
    if (task.status === 'completed') return refuse(`Task ${task.id} is completed; it cannot be reassigned.`)
  }
  if (op.addBlockedBy?.length) {
    const unknown = missing(team, op.addBlockedBy)
    if (unknown.length) return refuse(`addBlockedBy names tasks that do not exist: ${unknown.join(', ')}.`)
    if (makesCycle(team, task.id, op.addBlockedBy))
      return refuse(`Task ${task.id} cannot wait for ${op.addBlockedBy.join(', ')}: that would make it wait for itself.`)
    if (task.status === 'completed') return refuse(`Task ${task.id} is completed; it cannot gain blockers.`)
  }
  if ((op.subject !== undefined || op.description !== undefined) && !lead && !mine && task.createdBy !== op.actor)
    return refuse(`Only the lead, the task's owner or its creator can edit task ${task.id}.`)
  if (op.status === 'in_progress') {
    const out = claimTask(team, { ...op, op: 'task_claim' })
    if (!out.ok) return out
  } else if (op.status === 'completed') {
    if (!lead && !mine)
      return refuse(
        task.owner
          ? `Task ${task.id} belongs to ${task.owner}; only its owner or the lead can complete it.`
          : `Claim task ${task.id} (TaskClaim) before completing it.`
      )
    if (task.status === 'completed') return refuse(`Task ${task.id} is already completed.`)
    task.status = 'completed'
  } else if (op.status === 'pending') {
    if (!lead && !mine) return refuse(`Task ${task.id} is not yours to release.`)
    task.status = 'pending'
    delete task.owner
  }
  if (op.owner !== undefined) {
    if (op.owner === null) delete task.owner
    else task.owner = op.owner
    if (task.status === 'in_progress' && op.owner !== null) task.status = 'pending'
  }
  if (op.subject !== undefined) task.subject = op.subject
  if (op.description !== undefined) task.description = op.description
  if (op.addBlockedBy?.length) task.blockedBy = [...new Set([...task.blockedBy, ...op.addBlockedBy])]
  if (op.result !== undefined) task.result = op.result
  task.updatedAt = op.ts
  return { ok: true, taskId: task.id }
}

function request(team: TeamSnapshot, op: Extract<TeamOp, { op: 'request' }>): OpOutcome {
  if (op.to !== LEAD && !team.members.some((m) => m.name === op.to)) return refuse(`No member named '${op.to}'.`)
  if (op.type === 'shutdown' && op.actor !== LEAD) return refuse('Only the team lead asks members to shut down.')
  if (op.type === 'plan_approval' && op.to !== LEAD) return refuse('Plans go to the team lead for approval.')
  if (team.requests.some((r) => r.id === op.requestId)) return refuse(`Request ${op.requestId} exists already.`)
  const r: TeamRequest = { id: op.requestId, type: op.type, from: op.actor, to: op.to, content: op.content, status: 'pending', ts: op.ts }
  team.requests.push(r)
  return { ok: true, requestId: r.id }
}

function respond(team: TeamSnapshot, op: Extract<TeamOp, { op: 'respond' }>): OpOutcome {
  const r = team.requests.find((x) => x.id === op.requestId)
  if (!r) return refuse(`There is no request ${op.requestId}.`)
  if (r.to !== op.actor) return refuse(`Request ${r.id} was sent to ${r.to}; only ${r.to} can answer it.`)
  if (r.status !== 'pending') return refuse(`Request ${r.id} was already answered (${r.status}).`)
  r.status = op.approve ? 'approved' : 'rejected'
  if (op.response !== undefined) r.response = op.response
  r.respondedAt = op.ts
  if (r.type === 'shutdown' && op.approve) {
    const m = team.members.find((x) => x.name === op.actor)
    if (m) m.status = 'shutdown'
  }
  return { ok: true, requestId: r.id }
}
