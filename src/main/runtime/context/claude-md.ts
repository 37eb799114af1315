// CLAUDE.md memory: the instruction files Claude Code reads, found in the same places and order, so a
// user's existing files work unchanged. Later entries are closer to the working directory and so more
// specific; the model is told where each one came from.
import { realpath } from 'node:fs/promises'
import { readConfigFile } from '../store/read-config'
import { join } from 'node:path'
import { extractImports, resolveImport } from './imports'
import { foldersUpTo, findRepoRoot } from './project-root'

export type ClaudeMdScope = 'user' | 'project' | 'local'

export interface ClaudeMdEntry {
  /** Real path of the file. */
  path: string
  scope: ClaudeMdScope
  content: string
  /** Set for a file pulled in by an `@path` import: the file that imported it. */
  importedFrom?: string
}

export interface LoadClaudeMdOptions {
  /**
   * The working directory the files are looked for from. For an agent in a worktree, pass the parent's
   * directory in the original checkout: CLAUDE.local.md is usually git-ignored and so absent from worktrees.
   */
  cwd: string
  /** The user's home folder (holds `.claude/CLAUDE.md`). */
  home: string
  /** How many import hops to follow from a top-level file (Claude Code's limit is 5). */
  maxImportDepth?: number
}

export const DEFAULT_MAX_IMPORT_DEPTH = 5
/** Far more than any prompt could use. */
const MAX_CLAUDE_MD_BYTES = 4 * 1024 * 1024

/**
 * Every CLAUDE.md that applies at `cwd`, in prompt order: the user's `~/.claude/CLAUDE.md`; then, from the
 * repository root (or the filesystem root outside a repository) down to `cwd`, each folder's `CLAUDE.md`,
 * `.claude/CLAUDE.md` and `CLAUDE.local.md`. Each file is followed by the files it imports. A file is
 * included once, however many ways it is reached, so import cycles end.
 */
export async function loadClaudeMd(options: LoadClaudeMdOptions): Promise<ClaudeMdEntry[]> {
  const maxDepth = options.maxImportDepth ?? DEFAULT_MAX_IMPORT_DEPTH
  const seen = new Set<string>()
  const entries: ClaudeMdEntry[] = []

  const add = async (path: string, scope: ClaudeMdScope, depth: number, importedFrom?: string): Promise<void> => {
    let real: string
    let content: string
    try {
      real = await realpath(path)
      if (seen.has(real)) return
      // Only a regular file of sensible size: a CLAUDE.md linked to a pipe or /dev/zero must not hang or fill memory.
      const read = readConfigFile(real, MAX_CLAUDE_MD_BYTES)
      if (!('text' in read)) return
      content = read.text
    } catch {
      return // absent or unreadable: that location simply has no instructions
    }
    seen.add(real)
    entries.push({ path: real, scope, content, ...(importedFrom ? { importedFrom } : {}) })
    if (depth >= maxDepth) return
    for (const target of extractImports(content)) {
      const imported = await resolveImport(target, real, options.home)
      if (imported) await add(imported, scope, depth + 1, real)
    }
  }

  await add(join(options.home, '.claude', 'CLAUDE.md'), 'user', 0)
  const folders = foldersUpTo(options.cwd, await findRepoRoot(options.cwd)).reverse()
  for (const dir of folders) {
    await add(join(dir, 'CLAUDE.md'), 'project', 0)
    await add(join(dir, '.claude', 'CLAUDE.md'), 'project', 0)
    await add(join(dir, 'CLAUDE.local.md'), 'local', 0)
  }
  return entries
}

const SCOPE_NOTE: Record<ClaudeMdScope, string> = {
  user: "the user's own instructions for every project",
  project: 'project instructions, shared with everyone who works on this codebase',
  local: "the user's private instructions for this project, not checked in"
}

/** The CLAUDE.md section of a system prompt; '' when there are no files. */
export function formatClaudeMd(entries: ClaudeMdEntry[]): string {
  const files = entries.filter((e) => e.content.trim() !== '')
  if (!files.length) return ''
  const parts = files.map((e) => {
    const origin = e.importedFrom ? `${SCOPE_NOTE[e.scope]}; imported by ${e.importedFrom}` : SCOPE_NOTE[e.scope]
    return `Contents of ${e.path} (${origin}):\n\n${e.content.trim()}`
  })
  return [
    'The user and the project left instructions in CLAUDE.md files. They come before your default habits: follow them as written. Where two disagree, the later one (closer to the working directory) is more specific.',
    ...parts
  ].join('\n\n')
}
