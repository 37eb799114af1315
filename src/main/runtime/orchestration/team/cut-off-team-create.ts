// How a TeamCreate call that a crash cut off (it was running; its result was never recorded) is answered on
// resume, told by the team log. TeamCreate records the team, its members and its first tasks in one line of
// the log, with the call's id, so the log says exactly whether the team was made: "it may have done part of
// its work" would leave the lead to guess, and a lead that guessed wrong either waits on a team that does not
// exist or is refused a second one. A kill between the log's creation and its first write leaves the file
// empty: no record, so no team, however the file looks.
import type { TeamCreateRecord } from './team-fold'

const STOPPED = 'Fanout stopped (it was closed or crashed)'
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export function cutOffTeamCreate(record: TeamCreateRecord | undefined): { content: string; isError: boolean } {
  if (!record)
    return {
      content: `TeamCreate did not finish: ${STOPPED} before the team was recorded, so there is no team and none of its members started. Call TeamCreate again if the team is still needed.`,
      isError: true
    }
  if (!record.ok) return { content: `TeamCreate was refused before ${STOPPED}: ${record.error}`, isError: true }
  return {
    content: `TeamCreate had finished when ${STOPPED}: team "${record.team}" was created with ${plural(record.members.length, 'member')} (${record.members.join(', ')}) and ${plural(record.tasks, 'task')}. Only this call's result was lost; do not create the team again. Members cut off before they reported go on when the interrupted agents are resumed, and each reports to you as a <task-notification>.`,
    isError: false
  }
}
