// `@path` in a person's prompt, as Claude Code reads it: the file's content goes to the model with the prompt,
// as the Read tool would have returned it, in two reminders after the prompt ("Called the Read tool with the
// following input: …", "Result of calling the Read tool: …"). `@"a path with spaces"` is quoted; `@agent-name`
// names an agent, not a file (the model is told the person wants that agent, in Claude Code's words); a mention that reads nothing (no such file, a directory, a protected path) adds
// nothing, as in Claude Code. The reading itself is the caller's, through the agent's own Read tool, so a
// mention is judged by the one path check every read is.

/** The most files one prompt includes; further mentions are left as text. */
export const MAX_FILE_MENTIONS = 20

const MENTION = /(^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g
/** What ends a sentence after a mention and is rarely the end of a file name. */
const TRAILING = /[,;:!?)\]}]+$|\.$/

export function fileMentions(prompt: string): string[] {
  const out: string[] = []
  for (const m of prompt.matchAll(MENTION)) {
    const path = m[2] ?? m[3].replace(TRAILING, '')
    if (!path || (m[3] !== undefined && path.startsWith('agent-'))) continue
    if (!out.includes(path)) out.push(path)
    if (out.length === MAX_FILE_MENTIONS) break
  }
  return out
}

/** The two texts Claude Code adds for a mentioned file (each goes in its own reminder). */
export function fileMentionTexts(absPath: string, readResult: string): [string, string] {
  return [`Called the Read tool with the following input: ${JSON.stringify({ file_path: absPath })}`, `Result of calling the Read tool:\n${readResult}`]
}

const AGENT_MENTION = /(^|\s)@agent-([\w:.@-]*[\w])/g

/** The agent types a prompt names as `@agent-type`, in order, once each. */
export function agentMentions(prompt: string): string[] {
  const out: string[] = []
  for (const m of prompt.matchAll(AGENT_MENTION)) if (!out.includes(m[2])) out.push(m[2])
  return out
}

/** Claude Code's reminder for an agent the person mentioned. */
export const agentMentionText = (agentType: string): string =>
  `The user has expressed a desire to invoke the agent "${agentType}". Please invoke the agent appropriately, passing in the required context to it.`
