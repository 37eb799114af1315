// Glob patterns with gitignore / ripgrep semantics, compiled to RegExp. One matcher serves the Glob tool, the
// Grep `glob` filter, .gitignore files in the JS fallback, and Read(...)/Edit(...) permission rules, so every
// path agrees on what a pattern means:
//   - a pattern without a slash (`*.ts`, `.env`) matches a name at any depth;
//   - a pattern with a slash (`src/*.ts`, `/build`) is anchored to its root;
//   - `**` spans directories, `*` and `?` stay inside one segment, `[a-z]`, `{ts,tsx}`, `\` escapes;
//   - a trailing `/` matches directories only; a leading `!` negates (callers decide what negation means).

export interface CompiledGlob {
  source: string
  regex: RegExp
  negated: boolean
  dirOnly: boolean
  anchored: boolean
}

export class GlobSyntaxError extends Error {}

const REGEX_SPECIAL = /[.+^${}()|[\]\\*?]/

function escapeChar(c: string): string {
  return REGEX_SPECIAL.test(c) || c === '/' ? `\\${c}` : c
}

/** Translates the glob body (no `!`, no anchoring decisions) to a RegExp source. */
function translate(p: string): string {
  let re = ''
  let braces = 0
  for (let i = 0; i < p.length; ) {
    const c = p[i]
    if (c === '*') {
      if (p[i + 1] === '*') {
        const atSegmentStart = i === 0 || p[i - 1] === '/'
        const j = i + 2
        if (atSegmentStart && j === p.length) {
          re += '.*'
          i = j
          continue
        }
        if (atSegmentStart && p[j] === '/') {
          re += '(?:.*/)?'
          i = j + 1
          continue
        }
        re += '[^/]*'
        i = j
        continue
      }
      re += '[^/]*'
      i++
    } else if (c === '?') {
      re += '[^/]'
      i++
    } else if (c === '[') {
      let j = i + 1
      if (p[j] === '!' || p[j] === '^') j++
      if (p[j] === ']') j++
      while (j < p.length && p[j] !== ']') j++
      if (j >= p.length) {
        re += '\\['
        i++
        continue
      }
      let body = p.slice(i + 1, j)
      const negate = body.startsWith('!') || body.startsWith('^')
      if (negate) body = body.slice(1)
      body = body.replace(/\\/g, '\\\\').replace(/^\]/, '\\]')
      re += negate ? `[^/${body}]` : `[${body}]`
      i = j + 1
    } else if (c === '{') {
      braces++
      re += '(?:'
      i++
    } else if (c === ',' && braces > 0) {
      re += '|'
      i++
    } else if (c === '}' && braces > 0) {
      braces--
      re += ')'
      i++
    } else if (c === '\\' && i + 1 < p.length) {
      re += escapeChar(p[i + 1])
      i += 2
    } else {
      re += escapeChar(c)
      i++
    }
  }
  if (braces > 0) throw new GlobSyntaxError(`unclosed '{' in glob pattern '${p}'`)
  return re
}

export function compileGlob(pattern: string, opts: { caseInsensitive?: boolean } = {}): CompiledGlob {
  let p = pattern
  const negated = p.startsWith('!')
  if (negated) p = p.slice(1)
  if (p.startsWith('./')) p = p.slice(2)
  const dirOnly = p.length > 1 && p.endsWith('/')
  if (dirOnly) p = p.slice(0, -1)
  const anchored = p.includes('/')
  if (p.startsWith('/')) p = p.slice(1)
  if (p === '') throw new GlobSyntaxError(`empty glob pattern '${pattern}'`)
  const body = translate(p)
  const prefix = anchored ? '^' : '^(?:.*/)?'
  return { source: pattern, regex: new RegExp(`${prefix}${body}$`, opts.caseInsensitive ? 'i' : ''), negated, dirOnly, anchored }
}

/** Matches a root-relative, forward-slash path (no leading `./`). Negation is ignored here: callers apply it. */
export function matchGlob(glob: CompiledGlob, relPath: string, isDir = false): boolean {
  if (glob.dirOnly && !isDir) return false
  return glob.regex.test(relPath)
}

export function hasGlobChars(segment: string): boolean {
  return /[*?[{\\]/.test(segment)
}

/**
 * Splits `src/lib/**\/*.ts` into the static directory to start from (`src/lib`) and the rest, kept anchored
 * (`/**\/*.ts`), so a search walks only the part of the tree the pattern can match. A pattern whose first
 * segment already has glob characters, or that has no slash, keeps base ''.
 */
export function splitGlobBase(pattern: string): { base: string; rest: string } {
  let p = pattern.startsWith('./') ? pattern.slice(2) : pattern
  const absolute = p.startsWith('/')
  if (absolute) p = p.slice(1)
  const segments = p.split('/')
  if (segments.length < 2 && !absolute) return { base: '', rest: pattern }
  let i = 0
  while (i < segments.length - 1 && !hasGlobChars(segments[i]) && segments[i] !== '') i++
  const base = segments.slice(0, i).join('/')
  const rest = segments.slice(i).join('/')
  return { base: absolute ? `/${base}` : base, rest: `/${rest}` }
}
