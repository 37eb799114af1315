// Claude Code's settings files as JSON objects, lowest precedence first: `~/.claude/settings.json` (user),
// `<project>/.claude/settings.json` (project), `<project>/.claude/settings.local.json` (local) and the managed
// file. Hooks and MCP switches (`disabledMcpjsonServers`) are read from these; a file that cannot be read or
// parsed is reported with its path and skipped, never thrown.
import { join, resolve } from 'node:path'
import { MANAGED_SETTINGS_FILE } from '../permissions'
import { readConfigJson } from '../store/read-config'

/** `flag`: Claude Code's `--settings` (a file or a JSON string the person gave on the command line). */
export type SettingsSource = 'user' | 'project' | 'local' | 'flag' | 'managed'

export interface SettingsFile {
  file: string
  source: SettingsSource
  json: Record<string, unknown>
}

export interface ReadSettingsOptions {
  cwd: string
  home: string
  /** null skips it; default /etc/claude-code/managed-settings.json. */
  managedFile?: string | null
  /** --settings, read by the command line: between the local file and the managed one, as Claude Code ranks it. */
  flag?: { file: string; json: Record<string, unknown> }
}

export function readSettingsFiles(opts: ReadSettingsOptions): { files: SettingsFile[]; problems: string[] } {
  const cwd = resolve(opts.cwd)
  const managed = opts.managedFile === undefined ? MANAGED_SETTINGS_FILE : opts.managedFile
  const candidates: Array<{ file: string; source: SettingsSource }> = [
    { file: join(opts.home, '.claude', 'settings.json'), source: 'user' },
    { file: join(cwd, '.claude', 'settings.json'), source: 'project' },
    { file: join(cwd, '.claude', 'settings.local.json'), source: 'local' },
    ...(managed ? [{ file: managed, source: 'managed' as const }] : [])
  ]
  const files: SettingsFile[] = []
  const problems: string[] = []
  const seen = new Set<string>()
  for (const c of candidates) {
    // Working in the home folder: the user and project settings are one file, read once.
    if (seen.has(c.file)) continue
    seen.add(c.file)
    const read = readConfigJson(c.file)
    if ('json' in read) files.push({ ...c, json: read.json })
    else if ('error' in read) problems.push(`${c.file} ${read.error}`)
  }
  if (opts.flag) {
    const managedAt = files.findIndex((f) => f.source === 'managed')
    files.splice(managedAt < 0 ? files.length : managedAt, 0, { ...opts.flag, source: 'flag' })
  }
  return { files, problems }
}
