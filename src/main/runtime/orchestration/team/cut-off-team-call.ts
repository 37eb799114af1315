// How a team tool's call that a crash cut off (it was running; its result was never recorded) is answered on
// resume, told by the team log. TeamCreate, TeamDelete, TaskCreate, TaskClaim and TaskUpdate each do their work
// in one line of the log, which carries the call's id, so the log says exactly whether the call took effect:
// "it may have done part of its work" would leave the model to guess, and a guess is a team waited on that does
// not exist, a task created twice or never, a claim made again. A kill between the log's creation and its
// first write leaves the file empty: no record, so nothing done, however the file looks.
import type { TeamSnapshot } from '../../../../shared/team'
import { TASK_CLAIM, TASK_CREATE, TASK_UPDATE, TEAM_CREATE, TEAM_DELETE } from '../../tools/team-tool-names'
import { formatTask } from './task-format'
import type { CallRecord } from './team-fold'

/** The team tools whose calls the log records by id. */
export const LOGGED_TEAM_TOOLS: ReadonlySet<string> = new Set([TEAM_CREATE, TEAM_DELETE, TASK_CREATE, TASK_CLAIM, TASK_UPDATE])

const STOPPED = 'Fanout stopped (it was closed or crashed)'
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** What a call that took effect did, in the words the tool itself answers with; a task as the team now stands. */
function done(record: Extract<CallRecord, { ok: true }>, team: TeamSnapshot | null): string {
  if (record.op === 'team_create')
    return `Team "${record.team}" was created with ${plural(record.members.length, 'member')} (${record.members.join(', ')}) and ${plural(record.tasks, 'task')}.`
  if (record.op === 'team_delete') return 'The team is deleted.'
  const verb = record.op === 'task_create' ? 'Created' : record.op === 'task_claim' ? 'You claimed' : 'Updated'
  const task = team?.tasks.find((t) => t.id === record.taskId)
  return `${verb} task ${record.taskId ?? '?'}.${task && team ? `\n${formatTask(task, team)}` : ''}`
}

/**
 * The answer for `tool`'s cut-off call: `record` as the log keeps it, `null` when the log surely has none, or
 * undefined when it cannot tell (an older log): then there is no answer here and the call gets the general one.
 */
export function cutOffTeamCall(
  tool: string,
  record: CallRecord | null | undefined,
  team: TeamSnapshot | null
): { content: string; isError: boolean } | undefined {
  if (record === undefined) return undefined
  if (record === null)
    return {
      content:
        tool === TEAM_CREATE
          ? `TeamCreate did not finish: ${STOPPED} before the team was recorded, so there is no team and none of its members started. Call TeamCreate again if the team is still needed.`
          : `${tool} did not finish: ${STOPPED} before it was recorded in the team's log, so the team and its task list have none of it. Run it again if it is still needed.`,
      isError: true
    }
  if (!record.ok)
    return record.code === 'none_available'
      ? { content: `${tool} had finished when ${STOPPED}: ${record.error}`, isError: false }
      : { content: `${tool} had finished when ${STOPPED}, and was refused: ${record.error}`, isError: true }
  const again = record.op === 'team_create' ? 'do not create the team again' : 'do not run it again'
  const members =
    record.op === 'team_create'
      ? '\nMembers cut off before they reported go on when the interrupted agents are resumed, and each reports to you as a <task-notification>.'
      : ''
  return { content: `${tool} had finished when ${STOPPED}; only its result was lost: ${again}.\n${done(record, team)}${members}`, isError: false }
}
