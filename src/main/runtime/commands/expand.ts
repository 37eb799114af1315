// A typed `/name args` made into what the model is sent, the way Claude Code 2.1 sends it: a text block
// `<command-message>name</command-message>\n<command-name>/name</command-name>\n<command-args>args</command-args>\n`
// and then the prompt: the file's `!` blocks replaced by their output (run first, on the file's own text, so
// typed arguments never become a command), then the arguments filled in (a `!` in them escaped). A skill's prompt starts with
// "Base directory for this skill: DIR". Files named `@path` in the prompt are read through the Read tool's
// path and permission check and go before it, as Claude Code's attachments do. A `!` block that is refused or
// fails answers the run itself, without a model call, in Claude Code's words.
import type { ContentBlock } from '../../../shared/events'
import { escapeBang, substituteArguments } from './arguments'
import type { CommandDefinition } from './command-file'
import { findShellBlocks } from './shell-blocks'
import { fileMentions, fileMentionTexts } from '../context/file-mentions'

/** What expanding a command may do, each through the session's own path (the main agent's Bash and Read). */
export interface CommandEffects {
  /** Runs one shell command as the main agent's Bash tool would: permission decision, then its sandbox. */
  shell(command: string): Promise<{ ok: true; stdout: string } | { ok: false; denied: string } | { ok: false; failed: string }>
  /** Reads one file as the main agent's Read tool would; null when refused or missing (it is then not attached). */
  read(path: string): Promise<{ path: string; content: string } | null>
}

export type Expansion =
  | {
      kind: 'prompt'
      command: CommandDefinition
      /** The user message's content: attachments, the command block, the prompt. */
      blocks: ContentBlock[]
      /** The prompt alone (after the command block), e.g. for a label. */
      prompt: string
    }
  /** Answered without the model: the result text (a refused or failed `!` block). */
  | { kind: 'answer'; text: string; localCommand: string }

/** The command block Claude Code puts before a command's prompt. */
export function commandBlock(name: string, args: string): string {
  return `<command-message>${name}</command-message>\n<command-name>/${name}</command-name>\n${args ? `<command-args>${args}</command-args>\n` : ''}`
}

export async function expandCommand(command: CommandDefinition, args: string, effects: CommandEffects): Promise<Expansion> {
  // The body as written (Claude Code keeps its line ends, CRLF too).
  let text = command.skillDir ? `Base directory for this skill: ${command.skillDir}\n\n${command.body}` : command.body
  // Each block's output replaces exactly its own text, from the last to the first so positions hold.
  const blocks = findShellBlocks(text)
  const outputs: string[] = []
  for (const b of blocks) {
    const ran = await effects.shell(b.command)
    if (!ran.ok)
      return 'denied' in ran
        ? { kind: 'answer', text: `Shell command permission check failed for pattern "${b.raw}": ${ran.denied}`, localCommand: 'custom' }
        : { kind: 'answer', text: `Shell command failed for pattern "${b.raw}": ${ran.failed}`, localCommand: 'custom' }
    outputs.push(ran.stdout.trim())
  }
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]
    // As in Claude Code, the output is then part of the text the arguments are filled into.
    text = text.slice(0, b.at) + outputs[i] + text.slice(b.at + b.raw.length)
  }
  const prompt = substituteArguments(text, escapeBang(args), { names: command.argumentNames, appendIfUnused: true })
  const attachments: ContentBlock[] = []
  for (const mention of fileMentions(prompt)) {
    const file = await effects.read(mention)
    if (!file) continue
    const [called, result] = fileMentionTexts(file.path, file.content)
    attachments.push(
      { type: 'text', text: `<system-reminder>\n${called}\n</system-reminder>` },
      { type: 'text', text: `<system-reminder>\n${result}\n</system-reminder>` }
    )
  }
  return {
    kind: 'prompt',
    command,
    prompt,
    blocks: [...attachments, { type: 'text', text: commandBlock(command.name, args) }, { type: 'text', text: prompt }]
  }
}
