// What Claude Code's settings files say that a headless run decides before it starts: the main agent's `model`
// and the `env` Bash, hooks and MCP servers are given, read from every level the way Claude Code reads them
// (user < project < local < --settings < managed; the more specific wins), with `ANTHROPIC_MODEL` and the
// --model flag above them. The rest of those files (permissions, hooks, effort…) the session reads itself.
import { join } from 'node:path'
import { claudeSettingsFiles, type SettingsLevel } from './claude-settings-files'
import { readConfigFile } from './read-config'

export type { SettingsLevel }

export interface SettingsLayer {
  level: SettingsLevel
  file: string
  value: Record<string, unknown>
}

function readJson(file: string): Record<string, unknown> | null {
  const read = readConfigFile(file)
  if (!('text' in read)) return null
  try {
    const v = JSON.parse(read.text) as unknown
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null // the session's own read of the file says what is wrong with it
  }
}

/** The settings layers, lowest precedence first. */
export function settingsLayers(opts: {
  cwd: string
  home?: string
  flag?: { source: string; value: Record<string, unknown> }
  managedFile?: string | null
}): SettingsLayer[] {
  const layers: SettingsLayer[] = []
  for (const { file, level } of claudeSettingsFiles(opts)) {
    // --settings ranks between the local file and the managed one.
    if (level === 'managed' && opts.flag) layers.push({ level: 'flag', file: opts.flag.source, value: opts.flag.value })
    const value = readJson(file)
    if (value) layers.push({ level, file, value })
  }
  if (opts.flag && !layers.some((l) => l.level === 'flag')) layers.push({ level: 'flag', file: opts.flag.source, value: opts.flag.value })
  return layers
}

/** Levels a repository brings with itself: they count only in a folder the person trusts (docs/trusted-folders.md). */
export const FOLDER_LEVELS: readonly SettingsLevel[] = ['project', 'local']

/**
 * The settings' `env`, merged (the more specific level wins). Entries from the folder's own files are left out
 * unless `folderTrusted`: a repository's settings must not choose the PATH or LD_PRELOAD of the person's own
 * hooks and MCP servers before the person said yes to the folder.
 */
export function settingsEnv(layers: readonly SettingsLayer[], folderTrusted: boolean): { env: Record<string, string>; withheld: string[] } {
  const env: Record<string, string> = {}
  const withheld: string[] = []
  for (const layer of layers) {
    const e = layer.value.env
    if (!e || typeof e !== 'object' || Array.isArray(e)) continue
    for (const [name, value] of Object.entries(e as Record<string, unknown>)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')) continue
      if (FOLDER_LEVELS.includes(layer.level) && !folderTrusted) {
        withheld.push(name)
        continue
      }
      env[name] = String(value)
    }
  }
  return { env, withheld: [...new Set(withheld)] }
}

/**
 * The main agent's model as Claude Code chooses it: --model, else ANTHROPIC_MODEL (the process's, or a
 * settings `env` entry), else the most specific settings file's `model`, else Fanout's own default.
 */
export function chooseModel(opts: { flag?: string; env: Record<string, string | undefined>; layers: readonly SettingsLayer[]; fallback?: string }): {
  model?: string
  from: string
} {
  if (opts.flag) return { model: opts.flag, from: '--model' }
  const fromEnv = opts.env.ANTHROPIC_MODEL?.trim()
  if (fromEnv) return { model: fromEnv, from: 'ANTHROPIC_MODEL' }
  for (const layer of [...opts.layers].reverse()) {
    const m = layer.value.model
    if (typeof m === 'string' && m.trim()) return { model: m.trim(), from: layer.file }
  }
  return opts.fallback ? { model: opts.fallback, from: "Fanout's defaultModel setting" } : { from: 'default' }
}

/** The model Claude Code 2.1.328 sends when nothing chooses one (claude-opus-5-5; test/differential/command-line.test.ts). */
export const CLAUDE_CODE_DEFAULT_MODEL = 'opus'

/**
 * Fanout's `defaultModel` when the person wrote one in Fanout's settings.json, else Claude Code's default: a
 * script moved from `claude -p` gets the model it got there, and a Fanout setting still counts.
 */
export function fallbackModel(dataDir: string): string {
  const written = readJson(join(dataDir, 'settings.json'))?.defaultModel
  return typeof written === 'string' && written.trim() ? written.trim() : CLAUDE_CODE_DEFAULT_MODEL
}

/** The most specific `permissions.defaultMode` of --settings (the files' own the session reads, with trust). */
export function flagDefaultMode(layers: readonly SettingsLayer[]): string | undefined {
  const flag = layers.find((l) => l.level === 'flag')
  const p = flag?.value.permissions as { defaultMode?: unknown } | undefined
  return typeof p?.defaultMode === 'string' ? p.defaultMode : undefined
}

/** --settings' permission rules (allow, deny, ask) and additional directories, as the command line's own. */
export function flagPermissions(layers: readonly SettingsLayer[]): { allow: string[]; deny: string[]; ask: string[]; dirs: string[] } {
  const p = (layers.find((l) => l.level === 'flag')?.value.permissions ?? {}) as Record<string, unknown>
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
  return { allow: list(p.allow), deny: list(p.deny), ask: list(p.ask), dirs: list(p.additionalDirectories) }
}
