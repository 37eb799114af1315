// The app's answers to the built-ins a person types in the prompt box (`/cost`, `/context`, `/model`, `/help`,
// `/clear`): Claude Code's words where `fanout run -p` has them (commands/builtins.ts, through prompt-plan.ts), and
// the app's own where -p has none — a `/help` that lists what the box takes, a `/clear` that says plainly what it
// does here. Shown as a card of its own in the conversation (a `command_output` event), never sent to the model.
import { BUILTIN_COMMANDS } from '../../../shared/prompt-commands'

/** The card's text for a built-in `name` that planPrompt answered with `text`. */
export function appBuiltinText(name: string, text: string): string {
  if (name === 'help') return HELP
  if (name === 'clear')
    return [
      'Fanout keeps every conversation, so `/clear` empties nothing here: this session and its agents stay as they are.',
      '',
      'To start afresh, start a **New session** (Alt+N, or the sidebar’s New session). `/compact` shrinks this one instead.'
    ].join('\n')
  // -p's lines are for a terminal: kept as lines, each label in bold (the spaces that aligned them would not).
  if (name === 'cost' || name === 'usage') return text.replace(/^([^:\n]+):\s+/gm, '**$1:** ').replace(/\n/g, '  \n')
  if (name === 'context') return text
  return text.replace(/\n/g, '\n\n')
}

const HELP = [
  '## What you can type here',
  '',
  ...BUILTIN_COMMANDS.map((c) => `- \`/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}\` — ${c.description}`),
  '- `/name` — a command file or skill of this folder (type `/` to list them)',
  '- `@path` — puts a file of this folder in the prompt (type `@` to pick one)',
  '- ↑ / ↓ — earlier prompts of this session',
  '',
  'Anything else goes to the main agent as typed.'
].join('\n')
