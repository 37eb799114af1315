// Hooks for tests: each one is `node hook.mjs LOG BEHAVIOUR.json` (a real command through the shell), and the
// log tells the test which events ran, with which input, in which folder.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const HOOK_SCRIPT = fileURLToPath(new URL('./hook.mjs', import.meta.url))

export interface HookBehaviour {
  stdout?: string | Record<string, unknown>
  stderr?: string
  exit?: number
  sleepMs?: number
  /** Used instead while the input's stop_hook_active is false. */
  unlessActive?: Omit<HookBehaviour, 'unlessActive'>
  /** Behave as described for this many calls, then as `then`. */
  times?: number
  then?: Omit<HookBehaviour, 'times' | 'then'>
}

export interface HookLogLine {
  input: Record<string, any>
  cwd: string
  projectDir: string
}

let count = 0

/** A hook command that logs to `log` and then behaves as described; files go in `dir`. */
export function hookCommand(dir: string, log: string, behaviour: HookBehaviour = {}): string {
  const file = join(dir, `hook-behaviour-${++count}.json`)
  writeFileSync(file, JSON.stringify(behaviour))
  return `node ${JSON.stringify(HOOK_SCRIPT)} ${JSON.stringify(log)} ${JSON.stringify(file)}`
}

export function readHookLog(log: string): HookLogLine[] {
  if (!existsSync(log)) return []
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as HookLogLine)
}

/** `{hooks: {...}}` for a settings file: one matcher group per entry. */
export function hooksSettings(entries: Array<{ event: string; matcher?: string; command: string; timeout?: number }>): { hooks: Record<string, unknown[]> } {
  const hooks: Record<string, unknown[]> = {}
  for (const e of entries)
    (hooks[e.event] ??= []).push({
      ...(e.matcher !== undefined ? { matcher: e.matcher } : {}),
      hooks: [{ type: 'command', command: e.command, ...(e.timeout !== undefined ? { timeout: e.timeout } : {}) }]
    })
  return { hooks }
}
