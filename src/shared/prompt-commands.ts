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
  { name: 'compact', description: "Compact the main agent's conversation: a summary replaces it", argumentHint: '[what to keep]', source: 'builtin' }
]
