// Glob: files matching a pattern, newest first (what was touched recently is usually what matters).
// Patterns read like .gitignore / ripgrep globs; ignored files (.gitignore) are left out unless the pattern's
// fixed prefix points into them (e.g. `node_modules/pkg/**`).
import { statSync, type Stats } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { z } from 'zod'
import { toolInput } from './define-tool'
import type { PathPolicy } from '../security/path-policy'
import { builtinTool } from './builtin-tool'
import { placeholdersUnder } from '../security/placeholders'
import { compileGlob, GlobSyntaxError, matchGlob, splitGlobBase } from './glob-pattern'
import { listFiles } from './list-files'
import { searchRoot } from './file-tool'
import { displayPath } from './paths'
import { ripgrepPath } from './ripgrep'
import type { ToolOptions } from './tool-options'

export const GLOB_MAX_RESULTS = 100

const schema = toolInput('Glob', () =>
  z.object({
    pattern: z.string().min(1).describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/**/*.{ts,tsx}"'),
    path: z.string().optional().describe('The directory to search in (default: the working directory). Omit it rather than passing "undefined" or "null"')
  })
)

/** Files stat'ed between two turns of the event loop while sorting. */
const STAT_BATCH = 512

/** A stat that answers null for a path that is missing or cannot be read, instead of throwing. */
function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}

/**
 * What sibling Globs found about the listing they share (list-files.ts: searches that overlap join one listing
 * and see the tree as it does): a file's mtime, stat'ed once for all of them, not once per agent, and the Bash
 * sandbox's placeholders under a root (read from every process's mount journal), asked once too.
 */
interface ListingFacts {
  mtimes: Map<string, number>
  placeholders: Map<string, Set<string>>
}
const listingFacts = new WeakMap<readonly string[], ListingFacts>()

function factsOf(listing: readonly string[]): ListingFacts {
  let facts = listingFacts.get(listing)
  if (!facts) listingFacts.set(listing, (facts = { mtimes: new Map(), placeholders: new Map() }))
  return facts
}

/** Unreadable or vanished: sorts last. */
const mtimeOf = (path: string): number => statOrNull(path)?.mtimeMs ?? 0

/**
 * mtime-desc, then path, for a stable order among files written in the same millisecond. The stats are
 * synchronous (here and for the search folder), in batches with a yield between: a stat is a few
 * microseconds, while a promise per file queues on libuv's four threads and costs tens of main-thread
 * work — and a fan-out runs many Globs at once.
 */
export async function sortByMtime(root: string, rels: string[], known?: Map<string, number>): Promise<string[]> {
  const withTime: { rel: string; mtime: number }[] = []
  for (let i = 0; i < rels.length; i++) {
    if (i > 0 && i % STAT_BATCH === 0) await new Promise<void>((r) => setImmediate(r))
    const rel = rels[i]
    let mtime = known?.get(rel)
    if (mtime === undefined) {
      mtime = mtimeOf(join(root, rel))
      known?.set(rel, mtime)
    }
    withTime.push({ rel, mtime })
  }
  withTime.sort((a, b) => b.mtime - a.mtime || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
  return withTime.map((x) => x.rel)
}

export const GLOB_TOOL = builtinTool({ name: 'Glob', readOnly: true, concurrencySafe: true, permission: 'read' }, (opts: ToolOptions, paths: PathPolicy) => ({
  description: [
    'Fast file pattern matching. Returns matching file paths, most recently modified first.',
    'Patterns: "**/*.ts" (any depth), "src/**/*.{ts,tsx}", "*.md" (a pattern without "/" matches names at any depth), "src/*.ts" (anchored).',
    `Files ignored by .gitignore are skipped. At most ${GLOB_MAX_RESULTS} results; narrow the pattern or path if truncated.`
  ].join('\n'),
  schema,
  async execute(input, ctx) {
    const started = Date.now()
    const searchDir = paths.absolute(input.path ?? '.')
    const info = statOrNull(searchDir)
    if (!info) return { content: `Directory does not exist: ${displayPath(opts.cwd, searchDir)} (working directory: ${opts.cwd}).`, isError: true }
    if (!info.isDirectory())
      return { content: `path must be a directory, but ${displayPath(opts.cwd, searchDir)} is a file. Use Read for a single file.`, isError: true }
    let pattern = input.pattern.trim()
    if (pattern.startsWith('~/')) pattern = paths.absolute(pattern)
    const { base, rest } = splitGlobBase(pattern)
    const root = isAbsolute(pattern) ? resolve(base) : resolve(searchDir, base)
    let glob
    try {
      glob = compileGlob(rest)
    } catch (err) {
      if (err instanceof GlobSyntaxError) return { content: `Invalid glob pattern "${input.pattern}": ${err.message}.`, isError: true }
      throw err
    }
    // Where the root leads is judged once; the listing is of that real folder.
    const judged = searchRoot('Glob', paths, opts.cwd, root)
    if (!('rootReal' in judged)) return judged
    const { rootReal } = judged
    const rootInfo = statOrNull(rootReal)
    const rg = ripgrepPath(opts.ripgrep)
    // A root that is not there is searched by neither engine; report the one a search would have started with.
    const listed = rootInfo?.isDirectory()
      ? await listFiles(rootReal, rg, ctx.signal, opts.inProcessSearchUpTo)
      : { files: [], engine: rg && opts.inProcessSearchUpTo === 0 ? ('rg' as const) : ('js' as const) }
    const all = listed.files
    // Protected files, files an in-tree symlink leads to outside, and the Bash sandbox's placeholders (empty
    // files that exist only while a command runs, always the newest) are not listed. Both engines list without
    // following links beneath rootReal, so where each file leads is known without asking the disk per file.
    const visible = paths.searchFilter(root, 'Glob', { listedIn: rootReal })
    const facts = factsOf(all)
    let placeholders = facts.placeholders.get(root)
    if (!placeholders) facts.placeholders.set(root, (placeholders = new Set(placeholdersUnder(root))))
    // Stat'ed in the real folder the listing is of (the names are its): no link on the way is followed again.
    const matched = await sortByMtime(
      rootReal,
      all.filter((rel) => {
        if (!matchGlob(glob, rel)) return false
        const abs = join(root, rel)
        return !placeholders.has(abs) && visible(abs)
      }),
      facts.mtimes
    )
    const shown = matched.slice(0, GLOB_MAX_RESULTS).map((rel) => displayPath(opts.cwd, join(root, rel)))
    const details = { pattern: input.pattern, root, total: matched.length, truncated: matched.length > GLOB_MAX_RESULTS, engine: listed.engine }
    // Claude Code's tool_response for Glob (PostToolUse hooks).
    const response = {
      filenames: matched.slice(0, GLOB_MAX_RESULTS).map((rel) => join(root, rel)),
      durationMs: Date.now() - started,
      numFiles: matched.length,
      truncated: details.truncated
    }
    if (matched.length === 0) return { content: `No files found matching "${input.pattern}" in ${displayPath(opts.cwd, root)}.`, details, response }
    const note =
      matched.length > GLOB_MAX_RESULTS
        ? `\n(Results are truncated: showing ${GLOB_MAX_RESULTS} of ${matched.length}. Use a more specific pattern or path.)`
        : ''
    return { content: shown.join('\n') + note, details, response }
  }
}))

/** Glob, built for one agent alone (tests; the registry builds them all). */
export const createGlobTool = GLOB_TOOL.create
