// The `paths:` globs of a rule file (`.claude/rules/*.md`), matched the way Claude Code matches them:
// `**` spans folders, `*` and `?` stay within one name, `{a,b}` is either, and a pattern without a
// slash still means a path from the rule's base folder ("*.json" is a file at the top, not anywhere).
// Our own small matcher: the patterns are few and short, and Node's path.matchesGlob is still experimental.

function escape(ch: string): string {
  return /[.+^$()|[\]\\/]/.test(ch) ? `\\${ch}` : ch
}

/** The regular expression source of one glob, anchored at both ends. */
function globSource(glob: string): string {
  let out = ''
  let depth = 0
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        const before = i === 0 || glob[i - 1] === '/'
        i++
        // `**/` matches no folder or any number of them; a trailing `**` matches everything below.
        if (before && glob[i + 1] === '/') {
          out += '(?:[^/]*/)*'
          i++
        } else out += '.*'
      } else out += '[^/]*'
    } else if (ch === '?') out += '[^/]'
    else if (ch === '{') {
      depth++
      out += '(?:'
    } else if (ch === '}' && depth > 0) {
      depth--
      out += ')'
    } else if (ch === ',' && depth > 0) out += '|'
    else out += escape(ch)
  }
  return out + ')'.repeat(depth)
}

const cache = new Map<string, RegExp>()

/** Whether `relPath` (slash-separated, relative to the rule's base folder) matches `glob`. */
export function matchesGlob(relPath: string, glob: string): boolean {
  const pattern = glob.trim().replace(/^\.\//, '')
  if (!pattern) return false
  let re = cache.get(pattern)
  if (!re) cache.set(pattern, (re = new RegExp(`^${globSource(pattern)}$`)))
  return re.test(relPath)
}

/**
 * The globs a rule's `paths:` names: a YAML list, or one string whose comma-separated parts (outside
 * braces) are each a glob. Empty when the rule applies everywhere.
 */
export function pathGlobs(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? [value] : []
  const out: string[] = []
  for (const item of items) {
    if (typeof item !== 'string') continue
    let depth = 0
    let part = ''
    for (const ch of item) {
      if (ch === '{') depth++
      if (ch === '}') depth = Math.max(0, depth - 1)
      if (ch === ',' && depth === 0) {
        out.push(part)
        part = ''
      } else part += ch
    }
    out.push(part)
  }
  return out.map((g) => g.trim().replace(/^["']|["']$/g, '')).filter((g) => g !== '')
}
