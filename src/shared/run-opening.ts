// What opened an agent's run, read from its prompt: a person's task, or a message that continues the
// agent's task (a delivery from its inbox, or Fanout's note after a restart). A run a message opened keeps
// the description and prompt the agent was started with, in the UI's fold and in the session index alike:
// otherwise every agent resumed after a crash was renamed after the note.
import { openedByInbox } from './view/inbox-message'

/** What a run resumed after a restart is told (the runtime's RESUME_AFTER_RESTART_NOTE starts with it). */
export const RESUME_NOTE_START = 'Fanout stopped (it was closed or crashed) while you were working, and has now restarted.'

export const RESUME_AFTER_RESTART_NOTE = `${RESUME_NOTE_START} Your conversation so far is above; a tool call that was running when it stopped is marked as interrupted. Continue the task from where you left off.`

/** Whether a run with this prompt continues the agent's task rather than giving it a new one. */
export const continuesTask = (prompt: string): boolean => openedByInbox(prompt) || prompt.trimStart().startsWith(RESUME_NOTE_START)

/** The note's part about subagents a crash cut off (orchestration/runs/resume.ts cutOffNote): its opening and the heads of its lists. */
export const CUT_OFF_NOTE = {
  start: 'Fanout stopped (it was closed or crashed) and has restarted since these subagents were started; they were cut off.',
  running: 'Restarted and running again in the background',
  finished: 'Restarted and finished since',
  stopped: 'Not running, so no report will come from them'
} as const
