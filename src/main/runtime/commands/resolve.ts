// What a prompt that starts with `/` is, decided as Claude Code decides it: `/name args` names a command file
// or skill (expanded: expand.ts), else a built-in (builtins.ts), else it is ordinary text for the model (an
// unknown `/foo` reaches the model as typed). `/compact` is the session's own (compact-agent.ts).
import type { CommandDefinition } from './command-file'
import { isBuiltin } from './builtins'

export type Resolution = { kind: 'command'; command: CommandDefinition; args: string } | { kind: 'builtin'; name: string; args: string } | { kind: 'text' }

/** `/name rest` → name and rest (the rest as typed, its surrounding space dropped); null for no command shape. */
export function parseSlash(prompt: string): { name: string; args: string } | null {
  // Only at the very start: "  /x" is text for the model, as in Claude Code.
  const m = /^\/([A-Za-z0-9][\w.:-]*)(?:\s+([\s\S]*))?$/.exec(prompt)
  if (!m) return null
  return { name: m[1], args: (m[2] ?? '').trim() }
}

export function resolvePrompt(prompt: string, commands: readonly CommandDefinition[]): Resolution {
  const slash = parseSlash(prompt)
  if (!slash) return { kind: 'text' }
  const command = commands.find((c) => c.name === slash.name)
  if (command) return { kind: 'command', command, args: slash.args }
  if (isBuiltin(slash.name)) return { kind: 'builtin', name: slash.name, args: slash.args }
  return { kind: 'text' }
}
