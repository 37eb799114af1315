// Claude Code's own approvals of a folder's .mcp.json servers, honoured as Claude Code honours them:
// `enableAllProjectMcpServers: true` or the server's name in `enabledMcpjsonServers`, in the user's
// settings (~/.claude/settings.json), the managed settings, `~/.claude.json` for this folder, or the
// folder's `.claude/settings.local.json` (where Claude Code writes the answer of its own dialog) — but that
// last file only when it is the person's: a regular file that git does not track, in a folder whose Claude
// Code trust dialog the person accepted (`hasTrustDialogAccepted` in ~/.claude.json, which no repository
// can write; an archive that carries its own .git could otherwise plant an "untracked" file). A repository
// cannot approve its own servers: its committed `.claude/settings.json` never counts, nor a committed or
// linked settings.local.json. (Switching a server off, `disabledMcpjsonServers`, counts from any file: see
// mcp/load-config.ts.)
import { lstatSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { SettingsFile } from '../hooks/settings-files'
import { readConfigBytes, readConfigFile } from '../store/read-config'

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [])

export interface ClaudeApprovalOptions {
  cwd: string
  home: string
  settingsFiles: readonly SettingsFile[]
  /** `~/.claude.json`'s entry for this folder (`projects[cwd]`), if any. */
  claudeProject?: Record<string, unknown> | null
}

/** Whether Claude Code's settings approve the .mcp.json server of this name, and from which file. */
export function claudeMcpApprovals(opts: ClaudeApprovalOptions): (name: string) => string | null {
  const sources: Array<{ file: string; json: Record<string, unknown> }> = []
  for (const f of opts.settingsFiles) {
    if (f.source === 'user' || f.source === 'managed') sources.push(f)
    else if (f.source === 'local' && opts.claudeProject?.hasTrustDialogAccepted === true && isPersonalLocalFile(f.file, opts.cwd)) sources.push(f)
  }
  if (opts.claudeProject) sources.push({ file: join(opts.home, '.claude.json'), json: opts.claudeProject })
  return (name) => {
    for (const s of sources) if (s.json.enableAllProjectMcpServers === true || stringList(s.json.enabledMcpjsonServers).includes(name)) return s.file
    return null
  }
}

/** `.claude/settings.local.json` is the person's own when it is a regular file inside the folder that git does not track. */
export function isPersonalLocalFile(file: string, cwd: string): boolean {
  try {
    if (!lstatSync(file).isFile()) return false
    const real = realpathSync(file)
    const inside = relative(realpathSync(cwd), real)
    if (inside.startsWith('..') || isAbsolute(inside)) return false
    return gitTracks(real) === false
  } catch {
    return false
  }
}

/**
 * Whether git's index lists the file: true, false, or null when that cannot be told (no repository — as in
 * Claude Code, a file outside any repository is not taken as the person's — an index format this does not
 * read). Reads `.git/index` itself rather than running git in a folder that is not trusted yet.
 */
export function gitTracks(file: string): boolean | null {
  let dir = dirname(file)
  for (;;) {
    const dotGit = join(dir, '.git')
    let gitDir: string | null = null
    try {
      const st = lstatSync(dotGit)
      if (st.isDirectory()) gitDir = dotGit
      else if (st.isFile()) {
        const read = readConfigFile(dotGit, 64 * 1024)
        const m = 'text' in read ? /^gitdir:\s*(.+?)\s*$/m.exec(read.text) : null
        gitDir = m ? resolve(dir, m[1]) : null
      }
    } catch {
      // no .git here: look further up
    }
    if (gitDir) return indexLists(join(gitDir, 'index'), relative(dir, file).split(sep).join('/'))
    const up = dirname(dir)
    if (up === dir) return null
    dir = up
  }
}

function indexLists(indexFile: string, path: string): boolean | null {
  const read = readConfigBytes(indexFile, 512 * 1024 * 1024)
  if ('missing' in read) return false // a new repository with nothing added yet
  if ('error' in read) return null
  const bytes = read.bytes
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'DIRC') return null
  const version = bytes.readUInt32BE(4)
  // Version 4 compresses paths against the previous entry: not searchable as plain bytes.
  if (version !== 2 && version !== 3) return null
  const needle = Buffer.from(`${path}\0`, 'utf8')
  // A path inside a folder also ends with this text ("x/.claude/…"): only a whole entry path counts, one
  // that does not continue a longer path (the byte before it is the end of the entry's fixed part, not a slash).
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) if (at > 0 && bytes[at - 1] !== 0x2f) return true
  return false
}
