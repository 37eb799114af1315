// sed scripts, read-only when they only print: an allowlist of sed commands. `w`/`W` (write a file), `r`/`R`
// (read another file), `e` (run a command), the `e` and `w` flags of `s`, and anything this reader does not
// understand make the script not read-only. Addresses (numbers, `$`, /regex/, `first~step`, ranges) are
// skipped over; what matters is the command letter after them.

const PRINT_ONLY = new Set(['p', 'P', '=', 'l', 'q', 'Q', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'z', 'F', '{', '}', '!'])
const S_FLAGS = /^[gpiImM0-9]*$/

/** Skips a regex delimited by `delim` starting after the delimiter; returns the index after the closing one, or -1. */
function skipDelimited(s: string, i: number, delim: string): number {
  for (; i < s.length; i++) {
    if (s[i] === '\\') i++
    else if (s[i] === delim) return i + 1
    else if (s[i] === '\n') return -1
  }
  return -1
}

function skipAddress(s: string, i: number): number {
  const one = (j: number): number => {
    if (s[j] === '$') return j + 1
    if (/\d/.test(s[j] ?? '')) {
      while (/[\d~]/.test(s[j] ?? '')) j++
      return j
    }
    if (s[j] === '/') return skipDelimited(s, j + 1, '/')
    if (s[j] === '\\' && s[j + 1]) return skipDelimited(s, j + 2, s[j + 1])
    return j
  }
  let j = one(i)
  if (j === -1) return -1
  if (s[j] === ',') {
    j++
    if (s[j] === '+' || s[j] === '~') j++
    j = one(j)
  }
  if (j !== -1 && (s[j] === 'I' || s[j] === 'M') && j > i) j++
  return j
}

export function checkSedScript(script: string): string | null {
  let i = 0
  const s = script
  while (i < s.length) {
    while (i < s.length && /[\s;]/.test(s[i])) i++
    if (i >= s.length) break
    if (s[i] === '#') {
      while (i < s.length && s[i] !== '\n') i++
      continue
    }
    i = skipAddress(s, i)
    if (i === -1) return 'a sed address this check cannot read'
    while (s[i] === ' ' || s[i] === '!') i++
    const c = s[i]
    if (c === undefined) return 'a sed address without a command'
    if (c === ':' || c === 'b' || c === 't' || c === 'T') {
      while (i < s.length && s[i] !== ';' && s[i] !== '\n') i++
      continue
    }
    if (c === 's' || c === 'y') {
      const delim = s[i + 1]
      if (!delim || delim === '\n' || delim === '\\') return 'a sed s command this check cannot read'
      let j = skipDelimited(s, i + 2, delim)
      if (j !== -1) j = skipDelimited(s, j, delim)
      if (j === -1) return 'a sed s command this check cannot read'
      let k = j
      while (k < s.length && !/[\s;}]/.test(s[k])) k++
      const flags = s.slice(j, k)
      if (c === 's' && !S_FLAGS.test(flags)) return `the sed s flag "${flags}" (e runs a command, w writes a file)`
      if (c === 'y' && flags) return 'a sed y command this check cannot read'
      i = k
      continue
    }
    if (!PRINT_ONLY.has(c)) return `the sed command "${c}" (w writes a file, r reads one, e runs a command)`
    i++
    if (c === 'q' || c === 'Q' || c === 'l') while (/\d/.test(s[i] ?? '')) i++
  }
  return null
}
