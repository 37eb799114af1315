// Rule files: every `*.md` under a `.claude/rules/` folder (subfolders too), the user's in
// `~/.claude/rules/` and each project folder's own. A rule without `paths:` in its frontmatter is an
// instruction like CLAUDE.md and is loaded with it; a rule with `paths:` globs applies only to matching
// files and is given to the agent the first time it reads or edits one (nested-instructions.ts).
import { lstat, readdir } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import { matchesGlob, pathGlobs } from './path-glob'
import { parseFrontmatter } from './skill-frontmatter'

export const RULES_FOLDER = join('.claude', 'rules')
/** Folder levels below `.claude/rules` looked into; rules are a handful of files, not a tree to crawl. */
const MAX_RULE_DEPTH = 8
/** Files taken, and entries looked at, per rules folder: a repository's huge tree must not stall a session. */
const MAX_RULE_FILES = 500
const MAX_RULE_ENTRIES = 5000

/** The `*.md` files under `dir`, sorted by path, without following links to folders (a loop, or a way out). */
export async function ruleFiles(dir: string): Promise<string[]> {
  const found: string[] = []
  let looked = 0
  const walk = async (folder: string, depth: number): Promise<void> => {
    let names: string[]
    try {
      names = (await readdir(folder)).sort()
    } catch {
      return
    }
    for (const name of names) {
      if (found.length >= MAX_RULE_FILES || ++looked > MAX_RULE_ENTRIES) return
      const path = join(folder, name)
      const info = await lstat(path).catch(() => null)
      if (!info) continue
      if (info.isDirectory()) {
        if (depth < MAX_RULE_DEPTH) await walk(path, depth + 1)
      } else if (name.endsWith('.md') && (info.isFile() || info.isSymbolicLink())) found.push(path)
    }
  }
  await walk(dir, 0)
  return found
}

/** A rule file's globs and its text without the frontmatter. */
export function parseRule(text: string): { globs: string[]; body: string } {
  const fm = parseFrontmatter(text)
  return { globs: pathGlobs(fm.data.paths), body: fm.body }
}

/** Whether a file (absolute) is one of the paths a rule's globs name, relative to `base`. */
export function ruleMatches(globs: readonly string[], base: string, file: string): boolean {
  const rel = relative(base, file)
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false
  const slashed = rel.split(sep).join('/')
  return globs.some((g) => matchesGlob(slashed, g))
}
