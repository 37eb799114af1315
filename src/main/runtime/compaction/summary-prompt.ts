// What the model is asked when its conversation is compacted, and what it reads afterwards in place of the
// part that was summarised. Our own wording; the shape follows what an agent needs to carry on alone: the task,
// the last request word for word, what was decided and found, the files touched, and the work still open.

/** The first line of every summarisation request (the scripted model server recognises them by it). */
export const SUMMARY_REQUEST_HEADER = 'Context compaction: write a summary of the conversation so far.'

export function summaryRequest(instructions?: string): string {
  const extra = instructions?.trim() ? `\n\nThe person asked for this compaction and added: ${instructions.trim()}` : ''
  return `${SUMMARY_REQUEST_HEADER}

Your conversation has grown close to the limit of your context window. The part above will be replaced by the summary you write now; after it you keep only your most recent turns, and you will carry on the same task with no other memory of what came before. Write it for yourself: exact and complete where it matters, without pleasantries.

Do not call any tools. Reply with the summary only, under these headings:

1. Task: what you were asked to do, with every requirement and constraint that still applies. Quote instructions where their wording matters.
2. Latest request: the most recent request or message you received (from the person, or from the agent that started you), word for word.
3. Decisions and findings: what you decided and why; what you learned (facts, values, numbers, names); what failed and should not be tried again.
4. Files and commands: every file you read, created or changed (exact paths) and what matters about each; commands you ran and their outcome.
5. Work done: what is finished, including which tool calls were made and what they returned, in enough detail that none of them has to be made again.
6. Open work: what remains, in order, and the very next step you were about to take.

Keep identifiers, paths, numbers and error messages exactly as they were.${extra}`
}

/** The text of the message that opens a compacted conversation. */
export function summaryMessage(summary: string, latestRequest?: string): string {
  const request = latestRequest
    ? `\n\nThe most recent request you received, word for word (it is in the summarised part):\n<latest-request>\n${latestRequest}\n</latest-request>`
    : ''
  return `This conversation was compacted: its earlier part no longer fitted in your context window and was replaced by the summary below, which you wrote from it. Your most recent turns, if any were kept, follow this message unchanged. (The full transcript is kept on disk; only your context was shortened.)

<summary>
${summary.trim()}
</summary>${request}

Continue the task from where you left off. Do not redo work or repeat tool calls that the summary records as done; if you need a detail it does not give, look it up again.`
}

/** The summary again, from the message that opens a compacted conversation (null when it is not one). */
export function summaryOf(text: string): string | null {
  if (!text.startsWith('This conversation was compacted:')) return null
  const m = /<summary>\n([\s\S]*?)\n<\/summary>/.exec(text)
  return m ? m[1] : null
}
