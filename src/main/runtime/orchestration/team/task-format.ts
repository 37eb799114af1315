// A team's tasks in words: the task list and one task in full, as the task tools answer (and as a cut-off
// call's answer repeats them). Pure: no team manager, so whatever answers for the team can say it.
import type { TeamSnapshot, TeamTask } from '../../../../shared/team'

function line(t: TeamTask, team: TeamSnapshot): string {
  const open = t.blockedBy.filter((id) => team.tasks.find((x) => x.id === id)?.status !== 'completed')
  return `#${t.id} [${t.status}] ${t.subject}${t.owner ? ` — ${t.owner}` : ''}${open.length ? ` (blocked by ${open.join(', ')})` : ''}`
}

export function formatTaskList(team: TeamSnapshot): string {
  if (!team.tasks.length) return `Team ${team.name} has no tasks yet.`
  const count = (s: TeamTask['status']) => team.tasks.filter((t) => t.status === s).length
  return `Team ${team.name}: ${team.tasks.length} tasks (${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending)\n${team.tasks.map((t) => line(t, team)).join('\n')}`
}

export function formatTask(t: TeamTask, team: TeamSnapshot): string {
  const blocks = team.tasks.filter((x) => x.blockedBy.includes(t.id)).map((x) => x.id)
  return [
    line(t, team),
    t.description && `Description: ${t.description}`,
    t.blockedBy.length ? `Waits for: ${t.blockedBy.join(', ')}` : '',
    blocks.length ? `Blocks: ${blocks.join(', ')}` : '',
    `Created by ${t.createdBy}`,
    t.result ? `Result: ${t.result}` : ''
  ]
    .filter(Boolean)
    .join('\n')
}
