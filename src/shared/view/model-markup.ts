// The tags Fanout wraps model-facing text in (messaging/delivery.ts, agent-message.ts, team/, hooks and the
// loop's reminders), as a person should never see them: a text that still holds one (a tool output that
// quotes a report, a search snippet) reads without the tags, their words kept.

const WRAPPERS = [
  'agent-message',
  'task-notification',
  'task-id',
  'agent-type',
  'status',
  'result',
  'note',
  'name',
  'usage',
  'team-request',
  'team-response',
  'system-reminder'
]

const TAG = new RegExp(String.raw`</?(?:${WRAPPERS.join('|')})(?:\s+[\w-]+="[^"]*")*\s*/?>`, 'g')

/** `text` without Fanout's wrapper tags (their content stays); other text, code's tags included, as it is. */
export function withoutModelMarkup(text: string): string {
  if (!text.includes('<')) return text
  return text
    .replace(TAG, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

const REMINDER_BLOCK = /\n*<system-reminder>\n?([\s\S]*?)\n?<\/system-reminder>/g

/**
 * A tool's output with the reminders Fanout appended for the model (a PostToolUse hook's feedback or added
 * context, hooks/runner.ts) taken out, and their words: the output reads as the tool gave it, the hook's
 * words as a note of their own.
 */
export function splitReminders(text: string): { text: string; reminders: string[] } {
  if (!text.includes('<system-reminder>')) return { text, reminders: [] }
  const reminders: string[] = []
  const rest = text.replace(REMINDER_BLOCK, (_, inner: string) => {
    if (inner.trim()) reminders.push(inner.trim())
    return ''
  })
  return { text: rest.replace(/\s+$/, ''), reminders }
}
