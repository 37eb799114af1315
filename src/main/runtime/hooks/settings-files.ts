// Claude Code's settings files as JSON objects, lowest precedence first: `~/.claude/settings.json` (user),
// `<project>/.claude/settings.json` (project), `<project>/.claude/settings.local.json` (local) and the managed
// file. Hooks and MCP switches (`disabledMcpjsonServers`) are read from these; a file that cannot be read or
// parsed is reported with its path and skipped, never thrown.
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { MANAGED_SETTINGS_FILE } from '../permissions'

export type SettingsSource = 'user' | 'project' | 'local' | 'managed'

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
    if (seen.has(c.file) || !existsSync(c.file)) continue
    seen.add(c.file)
    let text: string
    try {
      text = readFileSync(c.file, 'utf8')
    } catch (err) {
      problems.push(`${c.file}: could not be read (${err instanceof Error ? err.message : String(err)})`)
      continue
    }
    if (!text.trim()) continue
    try {
      const json: unknown = JSON.parse(text)
      if (json && typeof json === 'object' && !Array.isArray(json)) files.push({ ...c, json: json as Record<string, unknown> })
      else problems.push(`${c.file}: settings must be a JSON object`)
    } catch (err) {
      problems.push(`${c.file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`)
    }
  }
  return { files, problems }
}
