// Claude Code's settings files as JSON objects, lowest precedence first: `~/.claude/settings.json` (user),
// `<project>/.claude/settings.json` (project), `<project>/.claude/settings.local.json` (local) and the managed
// file. Hooks and MCP switches (`disabledMcpjsonServers`) are read from these; a file that cannot be read or
// parsed is reported with its path and skipped, never thrown.
import { claudeSettingsFiles, type SettingsLevel } from '../store/claude-settings-files'
import { readConfigJson } from '../store/read-config'

/** `flag`: Claude Code's `--settings` (a file or a JSON string the person gave on the command line). */
export type SettingsSource = SettingsLevel

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
  const files: SettingsFile[] = []
  const problems: string[] = []
  for (const { file, level } of claudeSettingsFiles(opts)) {
    const read = readConfigJson(file)
    if ('json' in read) files.push({ file, source: level, json: read.json })
    else if ('error' in read) problems.push(`${file} ${read.error}`)
  }
  if (opts.flag) {
    const managedAt = files.findIndex((f) => f.source === 'managed')
    files.splice(managedAt < 0 ? files.length : managedAt, 0, { ...opts.flag, source: 'flag' })
  }
  return { files, problems }
}
