// CLAUDE.md memory: the instruction files Claude Code reads, found in the same places and order, so a
// user's existing files work unchanged. Later entries are closer to the working directory and so more
// specific; the model is told where each one came from. Rule files (`.claude/rules/*.md`) load beside the
// CLAUDE.md of their folder; those with `paths:` globs are kept aside for the files they name.
import { realpath } from 'node:fs/promises'
import { readConfigFile } from '../store/read-config'
import { join } from 'node:path'
import { extractImports, resolveImport } from './imports'
import { foldersUpTo, findRepoRoot } from './project-root'
import { parseRule, ruleFiles, RULES_FOLDER } from './rules'

export type ClaudeMdScope = 'user' | 'project' | 'local'

export interface ClaudeMdEntry {
  /** Real path of the file. */
  path: string
  scope: ClaudeMdScope
  content: string
  /** Set for a file pulled in by an `@path` import: the file that imported it. */
  importedFrom?: string
  /**
   * The folder whose own file this is, when that is not the project (a CLAUDE.md in a folder above the
   * repository root, and what it imports): its real path is judged against this folder, not the project.
   */
  base?: string
  /** A rule with `paths:` globs: it applies only to files matching one, relative to `globBase`. */
  globs?: string[]
  /** The folder a rule's globs are relative to (the one holding its `.claude/rules`); the project root when absent. */
  globBase?: string
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

/** Reads instruction files into a list, each once however many ways it is reached (so import cycles end). */
export class ClaudeMdReader {
  readonly entries: ClaudeMdEntry[] = []
  private readonly seen = new Set<string>()

  constructor(
    private readonly home: string,
    private readonly maxDepth = DEFAULT_MAX_IMPORT_DEPTH
  ) {}

  /** A folder's own files, in Claude Code's order: CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, its rules. */
  async folder(dir: string, base?: string): Promise<void> {
    const extra = base ? { base } : {}
    await this.file(join(dir, 'CLAUDE.md'), 'project', extra)
    await this.file(join(dir, '.claude', 'CLAUDE.md'), 'project', extra)
    await this.file(join(dir, 'CLAUDE.local.md'), 'local', extra)
    await this.rules(join(dir, RULES_FOLDER), 'project', { ...extra, globBase: dir })
  }

  async rules(dir: string, scope: ClaudeMdScope, extra: Partial<ClaudeMdEntry> = {}): Promise<void> {
    for (const path of await ruleFiles(dir)) await this.file(path, scope, extra, 0, true)
  }

  async file(path: string, scope: ClaudeMdScope, extra: Partial<ClaudeMdEntry> = {}, depth = 0, rule = false): Promise<void> {
    let real: string
    let content: string
    try {
      real = await realpath(path)
      if (this.seen.has(real)) return
      // Only a regular file of sensible size: a CLAUDE.md linked to a pipe or /dev/zero must not hang or fill memory.
      const read = readConfigFile(real, MAX_CLAUDE_MD_BYTES)
      if (!('text' in read)) return
      content = read.text
    } catch {
      return // absent or unreadable: that location simply has no instructions
    }
    this.seen.add(real)
    const { globBase, ...inherited } = extra
    let globs: string[] = []
    if (rule) ({ globs, body: content } = parseRule(content))
    this.entries.push({ path: real, scope, content, ...inherited, ...(globs.length ? { globs, ...(globBase ? { globBase } : {}) } : {}) })
    if (depth >= this.maxDepth) return
    for (const target of extractImports(content)) {
      const imported = await resolveImport(target, real, this.home)
      // What a rule with globs imports comes with it, when its files are touched (alwaysLoaded leaves both out).
      if (imported) await this.file(imported, scope, { ...inherited, importedFrom: real }, depth + 1)
    }
  }
}

/**
 * Every instruction file that applies at `cwd`, in prompt order: the user's `~/.claude/CLAUDE.md` and
 * `~/.claude/rules/`; then, from the filesystem root down to `cwd`, each folder's `CLAUDE.md`,
 * `.claude/CLAUDE.md`, `CLAUDE.local.md` and `.claude/rules/`. Each file is followed by the files it
 * imports. Folders above the repository root are the person's own (a workspace folder holding several
 * checkouts), so their files are judged against their own folder, not the project.
 */
export async function loadClaudeMd(options: LoadClaudeMdOptions): Promise<ClaudeMdEntry[]> {
  const reader = new ClaudeMdReader(options.home, options.maxImportDepth)
  await reader.file(join(options.home, '.claude', 'CLAUDE.md'), 'user')
  await reader.rules(join(options.home, RULES_FOLDER), 'user')
  const root = await findRepoRoot(options.cwd)
  const inProject = new Set(foldersUpTo(options.cwd, root))
  for (const dir of foldersUpTo(options.cwd, null).reverse()) await reader.folder(dir, inProject.has(dir) ? undefined : dir)
  return reader.entries
}

/** Files loaded from the start: all but rules with `paths:` globs (and what those import). */
export function alwaysLoaded(entries: readonly ClaudeMdEntry[]): ClaudeMdEntry[] {
  const conditional = new Set<string>()
  return entries.filter((e) => {
    if (e.globs || (e.importedFrom && conditional.has(e.importedFrom))) {
      conditional.add(e.path)
      return false
    }
    return true
  })
}

const SCOPE_NOTE: Record<ClaudeMdScope, string> = {
  user: "the user's own instructions for every project",
  project: 'project instructions, shared with everyone who works on this codebase',
  local: "the user's private instructions for this project, not checked in"
}

/** The CLAUDE.md section of a system prompt; '' when there are no files. */
export function formatClaudeMd(entries: ClaudeMdEntry[]): string {
  const files = alwaysLoaded(entries).filter((e) => e.content.trim() !== '')
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
