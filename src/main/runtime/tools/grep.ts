// Grep: regex search over file contents with ripgrep's semantics (rg for a large tree, an equivalent
// in-process engine for a small one or when there is no rg: see search-engine.ts). Three output modes, like Claude Code's: files_with_matches (default), content, count.
import { stat } from 'node:fs/promises'
import { z } from 'zod'
import { type InputOf, toolInput } from './define-tool'
import { FileRefusal, kindOf } from '../security/open-beneath'
import type { PathPolicy } from '../security/path-policy'
import { builtinTool } from './builtin-tool'
import { GrepInputError, grepSearch, type GrepFile, type GrepQuery } from './grep-search'
import { searchRoot } from './file-tool'
import { displayPath } from './paths'
import { ripgrepPath } from './ripgrep'
import type { ToolOptions } from './tool-options'

const MAX_LINE_CHARS = 500

const schema = toolInput('Grep', () =>
  z.object({
    pattern: z.string().min(1).describe('The regular expression to search for (ripgrep syntax; escape literal braces, e.g. "interface\\{\\}")'),
    path: z.string().optional().describe('File or directory to search in (default: the working directory)'),
    glob: z.string().optional().describe('Glob to filter files ("*.{ts,tsx}"); several separated by spaces'),
    type: z.string().optional().describe('File type to search (rg --type)'),
    output_mode: z.enum(['content', 'files_with_matches', 'count']).optional().default('files_with_matches'),
    '-i': z.boolean().optional().describe('Case insensitive search'),
    '-n': z.boolean().optional().describe('Show line numbers (content mode; default true)'),
    '-A': z.number().int().min(0).optional().describe('Lines of context after each match (content mode)'),
    '-B': z.number().int().min(0).optional().describe('Lines of context before each match (content mode)'),
    '-C': z.number().int().min(0).optional().describe('Lines of context before and after each match (content mode)'),
    multiline: z.boolean().optional().describe('Let patterns span lines; "." also matches newlines (rg -U --multiline-dotall)'),
    head_limit: z.number().int().min(1).optional().describe('Only the first N output lines (content) or entries (files, count)')
  })
)

type GrepInput = z.infer<InputOf<typeof schema>>

/** Splits "a.ts b.ts" or "*.ts,*.md" into globs, leaving commas inside {…} alone. */
export function splitGlobs(glob: string | undefined): string[] {
  if (!glob) return []
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (const c of glob) {
    if (c === '{') depth++
    if (c === '}') depth = Math.max(0, depth - 1)
    if ((c === ',' && depth === 0) || /\s/.test(c)) {
      if (cur) out.push(cur)
      cur = ''
    } else cur += c
  }
  if (cur) out.push(cur)
  return out
}

function cut(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… [${text.length} chars]` : text
}

function byPath(a: { shown: string }, b: { shown: string }): number {
  return a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0
}

function headLimit(rows: string[], limit: number | undefined, what: string): string {
  if (limit === undefined || rows.length <= limit) return rows.join('\n')
  return `${rows.slice(0, limit).join('\n')}\n\n[Showing the first ${limit} of ${rows.length} ${what} (head_limit).]`
}

/** Formats both engines' results identically: that is what makes them interchangeable. */
export async function formatGrep(files: GrepFile[], input: GrepInput, cwd: string, withContext: boolean): Promise<string> {
  const mode = input.output_mode
  const entries = files.map((f) => ({ ...f, shown: displayPath(cwd, f.path) }))
  if (entries.length === 0) return mode === 'files_with_matches' ? 'No files found' : 'No matches found'
  if (mode === 'files_with_matches') {
    const timed = await Promise.all(entries.map(async (e) => ({ ...e, mtime: (await stat(e.path).catch(() => null))?.mtimeMs ?? 0 })))
    timed.sort((a, b) => b.mtime - a.mtime || byPath(a, b))
    const rows = timed.map((e) => e.shown)
    return `Found ${rows.length} file${rows.length === 1 ? '' : 's'}\n${headLimit(rows, input.head_limit, 'files')}`
  }
  entries.sort(byPath)
  if (mode === 'count') {
    const total = entries.reduce((n, e) => n + e.matchLines, 0)
    const rows = entries.map((e) => `${e.shown}:${e.matchLines}`)
    return `${headLimit(rows, input.head_limit, 'files')}\n\nFound ${total} matching line${total === 1 ? '' : 's'} across ${entries.length} file${entries.length === 1 ? '' : 's'}.`
  }
  const numbers = input['-n'] ?? true
  const rows: string[] = []
  for (const e of entries) {
    const lines = [...e.lines].sort((a, b) => a.n - b.n)
    let prev = -1
    for (const l of lines) {
      if (withContext && rows.length > 0 && l.n !== prev + 1) rows.push('--')
      const sep = l.match ? ':' : '-'
      rows.push(numbers ? `${e.shown}${sep}${l.n}${sep}${cut(l.text)}` : `${e.shown}${sep}${cut(l.text)}`)
      prev = l.n
    }
  }
  return headLimit(rows, input.head_limit, 'lines')
}

export const GREP_TOOL = builtinTool({ name: 'Grep', readOnly: true, concurrencySafe: true, permission: 'read' }, (opts: ToolOptions, paths: PathPolicy) => ({
  description: [
    'Searches file contents with a regular expression (ripgrep syntax), honouring .gitignore.',
    'output_mode: "files_with_matches" (default; newest first), "content" (matching lines, with -n line numbers, -A/-B/-C context), "count".',
    'Filter with glob ("*.ts", "src/**/*.{ts,tsx}") or type ("ts", "py"). Use multiline for patterns that span lines.',
    'Use this instead of running grep or rg through Bash.'
  ].join('\n'),
  schema,
  async execute(input, ctx) {
    const root = paths.absolute(input.path ?? '.')
    // Where the root leads is judged once, and the search reads only beneath that real folder (see grep-search.ts).
    const judged = searchRoot('Grep', paths, opts.cwd, root)
    if (!('rootReal' in judged)) return judged
    const { rootReal } = judged
    const rootInfo = await stat(rootReal).catch(() => null)
    if (!rootInfo) return { content: `Path does not exist: ${displayPath(opts.cwd, root)} (working directory: ${opts.cwd}).`, isError: true }
    // A FIFO, socket or device is no text to search, and reading one can block forever.
    if (!rootInfo.isFile() && !rootInfo.isDirectory())
      return { content: `${displayPath(opts.cwd, root)} is ${kindOf(rootInfo)}, not a regular file or a folder: Grep does not search it.`, isError: true }
    const content = input.output_mode === 'content'
    const query: GrepQuery = {
      pattern: input.pattern,
      root,
      rootReal,
      globs: splitGlobs(input.glob),
      type: input.type,
      ignoreCase: input['-i'] ?? false,
      multiline: input.multiline ?? false,
      before: content ? (input['-B'] ?? input['-C'] ?? 0) : 0,
      after: content ? (input['-A'] ?? input['-C'] ?? 0) : 0,
      filesOnly: input.output_mode === 'files_with_matches',
      signal: ctx.signal
    }
    let outcome
    try {
      outcome = await grepSearch(query, ripgrepPath(opts.ripgrep), opts.inProcessSearchUpTo)
    } catch (err) {
      if (err instanceof GrepInputError || err instanceof FileRefusal) return { content: err.message, isError: true }
      throw err
    }
    // Protected files, and files an in-tree symlink leads to outside, are never shown.
    const visible = paths.searchFilter(root, 'Grep')
    outcome = { ...outcome, files: outcome.files.filter((f) => visible(f.path)) }
    let text = await formatGrep(outcome.files, input, opts.cwd, query.before > 0 || query.after > 0)
    if (outcome.capped) text += '\n\n[Search stopped early: too many results. Narrow the pattern, path, glob or type.]'
    const matchLines = outcome.files.reduce((n, f) => n + f.matchLines, 0)
    // Claude Code's tool_response for Grep (PostToolUse hooks).
    const mode = input.output_mode ?? 'files_with_matches'
    const response = {
      mode,
      numFiles: outcome.files.length,
      filenames: outcome.files.map((f) => f.path),
      ...(mode === 'content' ? { content: text, numLines: text ? text.split('\n').length : 0 } : {}),
      ...(mode === 'count' ? { numMatches: matchLines } : {})
    }
    return {
      content: text,
      details: {
        pattern: input.pattern,
        root,
        mode: input.output_mode,
        files: outcome.files.length,
        matchLines,
        capped: outcome.capped,
        engine: outcome.engine
      },
      response
    }
  }
}))

/** Grep, built for one agent alone (tests; the registry builds them all). */
export const createGrepTool = GREP_TOOL.create
