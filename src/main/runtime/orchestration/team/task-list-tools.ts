// The shared task list's tools (Claude Code's names, plus TaskClaim): create, list, read, claim and update
// tasks of the session's team. Every change goes through the team log, so what one member claimed no other
// member can claim, whichever of them asked first in wall-clock terms.
import { z } from 'zod'
import { lazy } from '../../../../shared/lazy'
import { TASK_STATUSES, type TeamSnapshot, type TeamTask } from '../../../../shared/team'
import { defineTool, type Tool, type ToolResult } from '../../tools/define-tool'
import { TASK_CLAIM, TASK_CREATE, TASK_GET, TASK_LIST, TASK_UPDATE } from '../../tools/team-tool-names'
import type { TeamManager } from './team-manager'
import { LEAD } from './team-ops'
import { formatTask, formatTaskList } from './task-format'

// Built when the team's tools are, not at every start (teams are off by default).
const taskId = lazy(() => z.string().trim().min(1, 'give the task id, e.g. "3"').max(20).describe('The task id, e.g. "3" (TaskList shows them)'))
const ids = lazy(() => z.array(z.string().trim().min(1).max(20)).max(50))

/** Runs `fn` for a caller in the active team, or explains why it cannot. */
async function asActor(m: TeamManager, actorOf: () => string | null, fn: (actor: string, team: TeamSnapshot) => Promise<ToolResult>): Promise<ToolResult> {
  await m.board.refresh()
  const team = m.active()
  if (!team)
    return { content: 'There is no active team in this session, so there is no task list. The main agent creates a team with TeamCreate.', isError: true }
  const actor = actorOf()
  if (!actor) return { content: `You are not a member of team ${team.name}.`, isError: true }
  return fn(actor, team)
}

export interface TaskToolsHost {
  manager: TeamManager
  /** The caller's team actor: `lead`, a member's name, or null. */
  actor: () => string | null
  /** TaskCompleted hooks: why the task may not be marked completed yet, or null. */
  beforeComplete?: (task: TeamTask, team: TeamSnapshot, actor: string) => Promise<string | null>
}

export function createTaskListTools(host: TaskToolsHost): Tool[] {
  const m = host.manager
  const as = (fn: (actor: string, team: TeamSnapshot) => Promise<ToolResult>) => asActor(m, host.actor, fn)
  const after = (taskIdOut: string | undefined, verb: string): ToolResult => {
    const team = m.active()!
    const t = team.tasks.find((x) => x.id === taskIdOut)!
    return { content: `${verb} task ${t.id}.\n${formatTask(t, team)}`, details: { task: t } }
  }
  return [
    defineTool({
      name: TASK_CREATE,
      description: "Add a task to the team's shared task list. blockedBy lists ids of tasks that must be completed first.",
      schema: z
        .object({
          subject: z.string().trim().min(1, 'a task needs a subject').max(200).describe('A short imperative title'),
          description: z.string().max(20_000).optional().describe('What done looks like'),
          blockedBy: ids().optional().describe('Ids of tasks that must be completed before this one')
        })
        .strict(),
      readOnly: false,
      concurrencySafe: true,
      execute: (input, ctx) =>
        as(async (actor) => {
          const out = await m.run({
            op: 'task_create',
            actor,
            toolUseId: ctx.toolUseId,
            subject: input.subject,
            description: input.description ?? '',
            blockedBy: input.blockedBy ?? []
          })
          return out.ok ? after(out.taskId, 'Created') : { content: out.error, isError: true }
        })
    }),
    defineTool({
      name: TASK_LIST,
      description: "The team's shared task list: every task with its status, owner and what blocks it.",
      schema: z.object({}).strict(),
      readOnly: true,
      execute: () => as(async (_actor, team) => ({ content: formatTaskList(team), details: { tasks: team.tasks } }))
    }),
    defineTool({
      name: TASK_GET,
      description: 'One task in full: description, dependencies, owner and result.',
      schema: z.object({ taskId: taskId() }).strict(),
      readOnly: true,
      execute: (input) =>
        as(async (_actor, team) => {
          const t = team.tasks.find((x) => x.id === input.taskId)
          return t
            ? { content: formatTask(t, team), details: { task: t } }
            : { content: `There is no task ${input.taskId}. TaskList shows the tasks.`, isError: true }
        })
    }),
    defineTool({
      name: TASK_CLAIM,
      description:
        'Claim a task: it becomes yours and in progress. Without taskId you get the task you are working on, else the first task you may take (pending, unassigned or assigned to you, not blocked). First come, first served: a task someone else claimed cannot be claimed.',
      schema: z.object({ taskId: taskId().optional() }).strict(),
      readOnly: false,
      concurrencySafe: true,
      execute: (input, ctx) =>
        as(async (actor) => {
          const out = await m.run({ op: 'task_claim', actor, toolUseId: ctx.toolUseId, ...(input.taskId ? { taskId: input.taskId } : {}) })
          if (out.ok) return after(out.taskId, 'You claimed')
          // Nothing left to take is an answer (end your turn or wait), not a failed call.
          return { content: out.error, isError: !('code' in out && out.code === 'none_available'), details: { claimed: false } }
        })
    }),
    defineTool({
      name: TASK_UPDATE,
      description: `Update a task: status "completed" (with a short result) when you finish it, "pending" to give it back, "in_progress" to claim it; edit its subject or description; add tasks it waits for. The lead may also assign it (owner: a member name, or null).`,
      schema: z
        .object({
          taskId: taskId(),
          status: z.enum(TASK_STATUSES).optional(),
          result: z.string().max(20_000).optional().describe('What was done (with status completed)'),
          subject: z.string().trim().min(1).max(200).optional(),
          description: z.string().max(20_000).optional(),
          addBlockedBy: ids().optional().describe('Ids of tasks this one must wait for'),
          owner: z.string().trim().min(1).max(64).nullable().optional().describe('Lead only: assign to a member (null to unassign)')
        })
        .strict(),
      readOnly: false,
      concurrencySafe: true,
      execute: (input, ctx) =>
        as(async (actor) => {
          const { taskId: id, ...patch } = input
          if (!Object.values(patch).some((v) => v !== undefined))
            return { content: 'Nothing to update: give a status, result, subject, description, addBlockedBy or owner.', isError: true }
          const task = m.active()?.tasks.find((t) => t.id === id)
          if (task && patch.status === 'completed' && task.status !== 'completed' && host.beforeComplete) {
            const blocked = await host.beforeComplete(task, m.active()!, actor)
            if (blocked) return { content: `Task ${id} was not marked completed: a TaskCompleted hook blocked it:\n${blocked}`, isError: true }
          }
          const out = await m.run({ op: 'task_update', actor, toolUseId: ctx.toolUseId, taskId: id, ...patch })
          return out.ok ? after(out.taskId, actor === LEAD ? 'Updated' : 'You updated') : { content: out.error, isError: true }
        })
    })
  ]
}
