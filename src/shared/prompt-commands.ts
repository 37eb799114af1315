// What the prompt box's `/` menu lists: one command with what it does and what it takes. The list comes from
// the host (`folder.commands`): the commands the app itself handles and the folder's skills. A fuller list
// (command files, plugins) feeds the same shape.
import { z } from 'zod'

export const COMMAND_SOURCES = ['builtin', 'project', 'user', 'plugin'] as const
export type CommandSource = (typeof COMMAND_SOURCES)[number]

export interface CommandInfo {
  /** Without the slash: `compact`, `review-pr`, `plugin:name`. */
  name: string
  description: string
  /** What follows the name, as its file's `argument-hint` says (`[what to keep]`). */
  argumentHint?: string
  source: CommandSource
}

export const CommandInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  argumentHint: z.string().optional(),
  source: z.enum(COMMAND_SOURCES)
}) satisfies z.ZodType<CommandInfo>

/** The commands Fanout's prompt box acts on itself, rather than sending them to the model. */
export const BUILTIN_COMMANDS: readonly CommandInfo[] = [
  { name: 'compact', description: "Compact the main agent's conversation: a summary replaces it", argumentHint: '[what to keep]', source: 'builtin' },
  { name: 'cost', description: "The session's cost, tokens and time so far", source: 'builtin' },
  { name: 'context', description: "What fills the main agent's context window", source: 'builtin' },
  { name: 'model', description: 'The model the main agent runs on', source: 'builtin' },
  { name: 'help', description: 'What you can type here', source: 'builtin' },
  { name: 'clear', description: 'Says how to start a new conversation (this one is kept)', source: 'builtin' }
]

/**
 * Answered in the app without a model call (host/app-builtins.ts), also while the main agent works; a folder's
 * command file of the same name runs instead, as in Claude Code (commands/resolve.ts).
 */
const ANSWERED_HERE = new Set(['cost', 'usage', 'context', 'model', 'help', 'clear'])

/** The built-in a typed prompt is (`/cost`, `/model opus`), or null. */
export function answeredBuiltin(text: string): string | null {
  // Only at the very start, as commands/resolve.ts reads it: "  /cost" is text for the model.
  const m = /^\/([A-Za-z0-9][\w.:-]*)(?:\s[\s\S]*)?$/.exec(text.trimEnd())
  return m && ANSWERED_HERE.has(m[1]) ? m[1] : null
}
