// Instructions an agent is given as it works, not at the start, as Claude Code gives them: the first time
// it reads or edits a file in a subfolder of its working directory, that folder's CLAUDE.md files and rules
// (and those of the folders between); and the first time it touches a file that a rule's `paths:` globs
// name, that rule. Each file is given once per agent, as a reminder after the tool result.
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import { alwaysLoaded, ClaudeMdReader, type ClaudeMdEntry } from './claude-md'
import { ruleMatches } from './rules'

/** The tools whose `file_path` counts as the agent working on that file (Grep and Glob do not). */
export const FILE_TOOLS: ReadonlySet<string> = new Set(['Read', 'Edit', 'Write', 'MultiEdit'])

export interface NestedInstructionsOptions {
  /** The agent's working directory (its worktree, for an agent in one). */
  cwd: string
  home: string
  /** The project root of `cwd`: nested files whose real path leads outside it are never given. */
  root: string
  /** The session's instruction files, already gated by the folder's approvals (conditional rules included). */
  loaded: readonly ClaudeMdEntry[]
  /** The project root those were read from, when not `root` (an agent in a worktree of it). */
  loadedRoot?: string
}

/** Whether `path` lies strictly below `folder` (a name such as `..notes` is inside). */
const inside = (folder: string, path: string): boolean => {
  const rel = relative(folder, path)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

export class NestedInstructions {
  private readonly given = new Set<string>()
  private readonly visited = new Set<string>()
  private readonly conditional: ClaudeMdEntry[] = []

  constructor(private readonly opts: NestedInstructionsOptions) {
    const start = alwaysLoaded(opts.loaded)
    for (const e of start) this.given.add(e.path)
    this.conditional.push(...opts.loaded.filter((e) => !this.given.has(e.path)))
  }

  /**
   * The reminders a turn's file tool calls bring, in call order; [] when nothing new applies. A call that
   * failed counts too, as in Claude Code: reading a file that is not there still shows the folder's rules.
   */
  async afterTools(calls: ReadonlyArray<{ name: string; input: unknown; isError: boolean }>): Promise<string[]> {
    const out: string[] = []
    for (const c of calls) {
      if (!FILE_TOOLS.has(c.name)) continue
      const path = (c.input as { file_path?: unknown } | null)?.file_path
      if (typeof path !== 'string' || !path) continue
      for (const e of await this.forFile(resolve(this.opts.cwd, path))) out.push(`Contents of ${e.path}:\n\n${e.content.trim()}`)
    }
    return out
  }

  /** The instruction files first given for work on `file` (absolute). */
  async forFile(file: string): Promise<ClaudeMdEntry[]> {
    const found: ClaudeMdEntry[] = []
    const { cwd, root } = this.opts
    if (inside(cwd, file)) {
      // Folders below the working directory down to the file's own, outermost first.
      const folders: string[] = []
      for (let dir = dirname(file); dir !== cwd && inside(cwd, dir); dir = dirname(dir)) folders.unshift(dir)
      for (const dir of folders) {
        if (this.visited.has(dir)) continue
        this.visited.add(dir)
        const reader = new ClaudeMdReader(this.opts.home)
        await reader.folder(dir)
        const dropped = new Set<string>()
        for (const e of reader.entries) {
          // A repository's nested file (or what it imports) that leads out of the project is never sent:
          // unlike the files at the start, these are not in what the person approves for the folder.
          if ((e.importedFrom && dropped.has(e.importedFrom)) || !inside(root, e.path)) {
            dropped.add(e.path)
            continue
          }
          if (e.globs || (e.importedFrom && this.conditional.some((r) => r.path === e.importedFrom))) this.conditional.push(e)
          else found.push(e)
        }
      }
    }
    for (const e of found) this.given.add(e.path)
    // Rules whose globs name the file, each with what it imports.
    for (const rule of this.conditional) {
      if (!rule.globs || this.given.has(rule.path)) continue
      if (!ruleMatches(rule.globs, this.globBase(rule), file)) continue
      const withImports = [rule, ...this.importsOf(rule.path)]
      for (const e of withImports) {
        if (this.given.has(e.path)) continue
        this.given.add(e.path)
        found.push(e)
      }
    }
    return found.filter((e) => e.content.trim() !== '')
  }

  private importsOf(path: string): ClaudeMdEntry[] {
    const direct = this.conditional.filter((e) => e.importedFrom === path)
    return direct.flatMap((e) => [e, ...this.importsOf(e.path)])
  }

  /** The folder a rule's globs are relative to: the project root for the user's rules and the project's own. */
  private globBase(rule: ClaudeMdEntry): string {
    const { root, loadedRoot } = this.opts
    if (!rule.globBase) return root
    if (loadedRoot && rule.globBase === loadedRoot) return root
    return rule.globBase
  }
}
