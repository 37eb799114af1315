// Fanout's own notes to the model (delivered from `fanout`, or the prompt of a run resumed after a restart)
// as a person reads them: one short line. The model's version names agents by their hex ids and says how
// reports will reach it (<task-notification>): true and needed for the model, noise on the screen.
import { CUT_OFF_NOTE, RESUME_NOTE_START } from '../run-opening'

/** Whether a user-message text is one of Fanout's notes to the model (never text the person typed). */
export const isFanoutNote = (text: string): boolean => {
  const t = text.trimStart()
  return t.startsWith(RESUME_NOTE_START) || t.startsWith(CUT_OFF_NOTE.start)
}

/** How many `- ` lines the list under `head` has. */
function listed(text: string, head: string): number {
  const at = text.indexOf(head)
  if (at === -1) return 0
  let n = 0
  for (const line of text.slice(at).split('\n').slice(1)) {
    if (!line.startsWith('- ')) break
    n++
  }
  return n
}

/** The note as one line for the screen; a text that is no note of Fanout's comes back as it is. */
export function humanNote(text: string): string {
  if (!isFanoutNote(text)) return text.trim()
  const parts: string[] = []
  if (text.trimStart().startsWith(RESUME_NOTE_START)) parts.push('Fanout restarted after it was closed or crashed; the agent goes on from where it was.')
  if (text.includes(CUT_OFF_NOTE.start)) {
    const counts = [
      [listed(text, CUT_OFF_NOTE.running), 'running again'],
      [listed(text, CUT_OFF_NOTE.finished), 'finished since'],
      [listed(text, CUT_OFF_NOTE.stopped), 'not running']
    ] as const
    const said = counts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`)
    const total = counts.reduce((sum, [n]) => sum + n, 0)
    parts.push(`${total === 1 ? 'A subagent was' : `${total} subagents were`} cut off${said.length ? `: ${said.join(', ')}` : ''}.`)
  }
  return parts.join(' ')
}
