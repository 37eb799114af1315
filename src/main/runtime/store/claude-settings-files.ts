// Which files are Claude Code's settings, in one list: `~/.claude/settings.json` (user),
// `<project>/.claude/settings.json` (project), `<project>/.claude/settings.local.json` (local) and the managed
// file, lowest precedence first (Claude Code puts `--settings` between local and managed; its readers add it).
// Every reader of these files — permission rules and the sandbox's keys (permissions/settings.ts), hooks and
// MCP switches (hooks/settings-files.ts), the model and env a run starts with (store/claude-settings.ts), a
// worktree's base ref (worktrees/base-ref.ts) — takes the list from here.
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

export const MANAGED_SETTINGS_FILE = '/etc/claude-code/managed-settings.json'

/** `flag`: Claude Code's `--settings` (a file or a JSON string the person gave on the command line). */
export type SettingsLevel = 'user' | 'project' | 'local' | 'flag' | 'managed'

export interface ClaudeSettingsFile {
  file: string
  level: Exclude<SettingsLevel, 'flag'>
  /** The folder its relative paths are read against: the home folder, the project, the managed file's folder. */
  root: string
}

export interface ClaudeSettingsFilesOptions {
  cwd: string
  /** Default: the person's home folder. */
  home?: string
  /** null skips it; default MANAGED_SETTINGS_FILE. */
  managedFile?: string | null
}

/** The settings files, lowest precedence first; working in the home folder, its settings.json is listed once, as the user's. */
export function claudeSettingsFiles(o: ClaudeSettingsFilesOptions): ClaudeSettingsFile[] {
  const home = o.home ?? homedir()
  const cwd = resolve(o.cwd)
  const managed = o.managedFile === undefined ? MANAGED_SETTINGS_FILE : o.managedFile
  const all: ClaudeSettingsFile[] = [
    { file: join(home, '.claude', 'settings.json'), level: 'user', root: home },
    { file: join(cwd, '.claude', 'settings.json'), level: 'project', root: cwd },
    { file: join(cwd, '.claude', 'settings.local.json'), level: 'local', root: cwd },
    ...(managed ? [{ file: managed, level: 'managed' as const, root: dirname(managed) }] : [])
  ]
  return all.filter((f, i) => all.findIndex((g) => g.file === f.file) === i)
}
