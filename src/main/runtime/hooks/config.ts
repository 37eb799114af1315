// Hooks as Claude Code configures them, in settings files and in an agent definition's `hooks` frontmatter:
//
//   "hooks": { "PreToolUse": [ { "matcher": "Bash|Write", "hooks": [ { "type": "command", "command": "...", "timeout": 30 } ] } ] }
//
// Fanout runs the events of HOOK_EVENTS (docs/mcp-hooks-effort.md says when each fires and what its input
// holds, as Claude Code sends it). In a definition, `Stop` means that agent's own SubagentStop, as in Claude
// Code. Claude Code's other events are accepted and never fire (Fanout has no such moment); hook types other
// than `command` are reported. A broken entry costs only that entry, with a sentence saying where and why.
import { errorMessage } from '../../../shared/error-message'

export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Notification',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'TeammateIdle',
  'TaskCompleted',
  'WorktreeCreate',
  'WorktreeRemove',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'UserPromptSubmit',
  'SessionEnd',
  'PermissionRequest'
] as const
export type HookEvent = (typeof HOOK_EVENTS)[number]

/** Events Claude Code 2.1.328 has that Fanout never fires: accepted in files without complaint. */
export const IGNORED_HOOK_EVENTS: ReadonlySet<string> = new Set([
  'PostToolBatch',
  'UserPromptExpansion',
  'StopFailure',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionDenied',
  'Setup',
  'TaskCreated',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay'
])

/** Tools whose older names hook matchers may still use: Claude Code runs a `Task` matcher on the Agent tool. */
export const TOOL_NAME_ALIASES: Readonly<Record<string, readonly string[]>> = { Agent: ['Task'] }

export const DEFAULT_HOOK_TIMEOUT_SEC = 60

export interface HookCommand {
  command: string
  timeoutSec: number
  /** The file or agent it came from, for error messages. */
  source: string
}

export interface HookMatcher {
  /** Undefined, '' or '*': everything. */
  matcher?: string
  hooks: HookCommand[]
}

export type HookTable = Record<HookEvent, HookMatcher[]>

export const emptyHookTable = (): HookTable => Object.fromEntries(HOOK_EVENTS.map((e) => [e, []])) as unknown as HookTable

export function mergeHookTables(...tables: HookTable[]): HookTable {
  const out = emptyHookTable()
  for (const t of tables) for (const e of HOOK_EVENTS) out[e].push(...t[e])
  return out
}

/**
 * Claude Code's matcher: empty or `*` matches all; letters, digits, `_` and `|` are exact names (`Edit|Write`);
 * anything else is a regular expression (`mcp__github__.*`, `Notebook.*`). `aliases` are other names of the same
 * thing (`Task` for the Agent tool): a matcher that matches any of them matches.
 */
export function matcherMatches(matcher: string | undefined, value: string, aliases: readonly string[] = []): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true
  const names = [value, ...aliases]
  if (/^[A-Za-z0-9_|-]+$/.test(matcher)) {
    const listed = matcher.split('|')
    return names.some((n) => listed.includes(n))
  }
  try {
    const re = new RegExp(matcher)
    return names.some((n) => re.test(n))
  } catch {
    return false
  }
}

/** Reads a `hooks` value. `inDefinition`: an agent's frontmatter, where `Stop` is its SubagentStop. */
export function parseHooks(value: unknown, source: string, inDefinition = false): { table: HookTable; problems: string[] } {
  const table = emptyHookTable()
  const problems: string[] = []
  if (value === undefined || value === null) return { table, problems }
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${source}: "hooks" must be a mapping of hook events (${HOOK_EVENTS.join(', ')}) to lists of matchers`)
    return { table, problems }
  }
  for (const [rawEvent, matchers] of Object.entries(value as Record<string, unknown>)) {
    const event = (inDefinition && rawEvent === 'Stop' ? 'SubagentStop' : rawEvent) as HookEvent
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      if (!IGNORED_HOOK_EVENTS.has(rawEvent)) problems.push(`${source}: unknown hook event "${rawEvent}"; Fanout runs ${HOOK_EVENTS.join(', ')}`)
      continue
    }
    if (!Array.isArray(matchers)) {
      problems.push(`${source}: hooks.${rawEvent} must be a list like [{"matcher": "Bash", "hooks": [{"type": "command", "command": "..."}]}]`)
      continue
    }
    matchers.forEach((m, i) => {
      const where = `${source}: hooks.${rawEvent}[${i}]`
      if (!m || typeof m !== 'object' || Array.isArray(m)) return problems.push(`${where} must be an object with "matcher" and "hooks"`)
      const entry = m as Record<string, unknown>
      if (entry.matcher !== undefined && typeof entry.matcher !== 'string') return problems.push(`${where}.matcher must be a string`)
      if (typeof entry.matcher === 'string' && !/^[A-Za-z0-9_|*-]*$/.test(entry.matcher)) {
        try {
          new RegExp(entry.matcher)
        } catch (err) {
          return problems.push(`${where}.matcher is not a valid regular expression (${errorMessage(err)}); these hooks never run`)
        }
      }
      if (!Array.isArray(entry.hooks)) return problems.push(`${where}.hooks must be a list of {"type": "command", "command": "..."}`)
      const hooks: HookCommand[] = []
      entry.hooks.forEach((h, j) => {
        const at = `${where}.hooks[${j}]`
        if (!h || typeof h !== 'object') return problems.push(`${at} must be an object`)
        const hook = h as Record<string, unknown>
        if (hook.type !== 'command') return problems.push(`${at}: hook type ${JSON.stringify(hook.type)} is not supported by Fanout; only "command" hooks run`)
        if (typeof hook.command !== 'string' || !hook.command.trim()) return problems.push(`${at}.command must be a non-empty shell command`)
        let timeoutSec = DEFAULT_HOOK_TIMEOUT_SEC
        if (hook.timeout !== undefined) {
          if (typeof hook.timeout === 'number' && hook.timeout > 0) timeoutSec = hook.timeout
          else problems.push(`${at}.timeout must be a number of seconds above 0; using ${DEFAULT_HOOK_TIMEOUT_SEC}`)
        }
        hooks.push({ command: hook.command, timeoutSec, source })
      })
      if (hooks.length) table[event].push({ ...(typeof entry.matcher === 'string' ? { matcher: entry.matcher } : {}), hooks })
    })
  }
  return { table, problems }
}

/**
 * (`flag` is --settings: the person's own words on the command line, as strong as their user settings.)
 * Who may switch whose hooks off with `"disableAllHooks": true`: a file turns off the hooks of its own level
 * and those below it, never those above. Managed settings outrank the person's own (user) settings, which
 * outrank the folder's (project and local, and a file of unknown source). So a repository, trusted or not,
 * can silence only its own hooks: the person's guard hooks keep running, and the folder is told so.
 */
const HOOK_AUTHORITY: Record<string, number> = { managed: 3, user: 2, flag: 2, project: 1, local: 1 }
const authority = (source: string | undefined): number => HOOK_AUTHORITY[source ?? ''] ?? 1

/** The hooks of every settings file, lowest precedence first, less those a `disableAllHooks` of equal or higher authority turns off. */
export function hooksFromSettings(files: ReadonlyArray<{ file: string; source?: string; json: Record<string, unknown> }>): {
  table: HookTable
  problems: string[]
} {
  const off = Math.max(0, ...files.filter((f) => f.json.disableAllHooks === true).map((f) => authority(f.source)))
  const kept = files.filter((f) => authority(f.source) > off)
  const parsed = kept.map((f) => parseHooks(f.json.hooks, f.file))
  const problems = parsed.flatMap((p) => p.problems)
  const folderOff = files.find((f) => f.json.disableAllHooks === true && authority(f.source) === 1)
  if (folderOff && off === 1 && parsed.some((p) => Object.values(p.table).some((m) => m.length)))
    problems.push(
      `${folderOff.file}: "disableAllHooks": true turns off this folder's own hooks only; your hooks (user and managed settings) still run. Only your user settings (~/.claude/settings.json) can turn those off.`
    )
  return { table: mergeHookTables(...parsed.map((p) => p.table)), problems }
}
