// Bash pathname expansion, done ahead of time so a permission check sees the files a glob will name
// (`cat sr?/a.txt` reads src/a.txt and srv/a.txt): `*`, `?` and `[…]` per path segment, hidden names only
// for a segment that starts with a dot, no match leaves the word as written (bash's default).
import { isAbsolute, join } from 'node:path'
import { namesIn } from '../../tools/paths'

/** More matches than this and the check gives up rather than stat a whole tree. */
export const GLOB_EXPANSION_LIMIT = 2000

function segmentRegex(segment: string): RegExp {
  let re = ''
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]
    if (c === '\\' && i + 1 < segment.length) re += segment[++i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2)
      if (close === -1) re += '\\['
      else {
        let body = segment.slice(i + 1, close)
        if (body.startsWith('!') || body.startsWith('^')) body = `^${body.slice(1)}`
        re += `[${body.replace(/\\(?!\])/g, '\\\\')}]`
        i = close
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  return new RegExp(`^${re}$`, 's')
}

const hasMeta = (segment: string): boolean => /(^|[^\\])[*?[]/.test(segment)
const unescape = (segment: string): string => segment.replace(/\\(.)/g, '$1')

/** Absolute paths the pattern names now, or null when there are too many to check. Empty: no match. */
export function expandGlob(pattern: string, cwd: string): string[] | null {
  const absolute = isAbsolute(pattern)
  const segments = pattern.split('/').filter((s, i) => s !== '' || i === 0)
  let bases = [absolute ? '/' : cwd]
  for (const segment of absolute ? segments.slice(1) : segments) {
    if (segment === '') continue
    if (!hasMeta(segment)) {
      bases = bases.map((b) => join(b, unescape(segment)))
      continue
    }
    const re = segmentRegex(segment)
    const next: string[] = []
    for (const base of bases) {
      const names = namesIn(base)
      if (!names) continue
      for (const name of names) {
        if (name.startsWith('.') && !segment.startsWith('.')) continue
        if (re.test(name)) next.push(join(base, name))
      }
      if (next.length > GLOB_EXPANSION_LIMIT) return null
    }
    bases = next
    if (!bases.length) return []
  }
  return bases.sort()
}
