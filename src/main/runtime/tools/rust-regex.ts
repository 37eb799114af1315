// ripgrep's regex syntax (Rust's `regex` crate) read as a JavaScript RegExp with the same meaning, so that an
// in-process search answers exactly as rg would. The differences that change results are translated:
//  - Unicode by default: \w \d \s \b are Unicode classes in Rust, ASCII in JavaScript;
//  - `.` excludes only \n in Rust, also \r, U+2028 and U+2029 in JavaScript (and everything with dotall);
//  - line anchors in multiline mode are \n-only in Rust, JavaScript's `m` flag also breaks lines at \r;
//  - escaping any punctuation is allowed in Rust, not in a JavaScript `u` regex; `(?P<name>…)` is Rust's.
// Where a pattern relies on syntax whose meaning differs and has no faithful translation — look-around and
// backreferences (rg refuses them), inline flags, POSIX and nested classes, set operations in classes —
// the answer is null, and the search is left to rg (or to the plain reading, when there is no rg).

const WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}'
const BOUNDARY = `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`
const NOT_BOUNDARY = `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`

const hex = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`
const isAlnum = (c: string) => /^[A-Za-z0-9]$/.test(c)

/** One escape (`p[i]` is the backslash): the JavaScript source and the next index, or null. */
function escape(p: string, i: number, inClass: boolean): [string, number] | null {
  const c = p[i + 1]
  if (c === undefined) return null
  switch (c) {
    case 'd':
      return ['\\p{Nd}', i + 2]
    case 'D':
      return ['\\P{Nd}', i + 2]
    case 's':
      return ['\\p{White_Space}', i + 2]
    case 'S':
      return ['\\P{White_Space}', i + 2]
    case 'w':
      return [inClass ? WORD : `[${WORD}]`, i + 2]
    case 'W':
      return inClass ? null : [`[^${WORD}]`, i + 2]
    case 'b':
      return inClass ? null : [BOUNDARY, i + 2]
    case 'B':
      return inClass ? null : [NOT_BOUNDARY, i + 2]
    case 'A':
      return inClass ? null : ['(?<![\\s\\S])', i + 2]
    case 'z':
      return inClass ? null : ['(?![\\s\\S])', i + 2]
    case 'n':
    case 't':
    case 'r':
    case 'f':
    case 'v':
      return [`\\${c}`, i + 2]
    case 'x': {
      const braced = /^\{([0-9A-Fa-f]{1,8})\}/.exec(p.slice(i + 2))
      if (braced) return [`\\u{${braced[1]}}`, i + 2 + braced[0].length]
      const two = /^[0-9A-Fa-f]{2}/.exec(p.slice(i + 2))
      return two ? [`\\x${two[0]}`, i + 4] : null
    }
    case 'p':
    case 'P': {
      const braced = /^\{([A-Za-z_=]+)\}/.exec(p.slice(i + 2))
      if (braced) return [`\\${c}{${braced[1]}}`, i + 2 + braced[0].length]
      const one = p[i + 2]
      return one && /[A-Za-z]/.test(one) ? [`\\${c}{${one}}`, i + 3] : null
    }
    default:
      // Backreferences (\1, \k<name>) and other letters: no faithful reading.
      if (isAlnum(c)) return null
      return [hex(c), i + 2]
  }
}

/** The JavaScript source for a Rust pattern, or null where only rg is sure to read it right. */
export function rustRegexSource(p: string, opts: { dotAll: boolean; multiLine: boolean }): string | null {
  let out = ''
  let inClass = false
  for (let i = 0; i < p.length; ) {
    const c = p[i]
    if (c === '\\') {
      const e = escape(p, i, inClass)
      if (!e) return null
      out += e[0]
      i = e[1]
      continue
    }
    if (inClass) {
      if (c === '[') return null // a nested or POSIX class ([[:alpha:]]) means something else in JavaScript
      if ((c === '&' || c === '-' || c === '~') && p[i + 1] === c) return null // class set operations
      if (c === ']') inClass = false
      out += c
      i++
      continue
    }
    if (c === '[') {
      inClass = true
      out += '['
      i++
      if (p[i] === '^') {
        out += '^'
        i++
      }
      // A `]` first in a class is a literal in Rust; `[]` is an empty class in JavaScript.
      if (p[i] === ']') {
        out += '\\]'
        i++
      }
      continue
    }
    if (c === '(' && p[i + 1] === '?') {
      const rest = p.slice(i + 2)
      if (rest.startsWith(':')) {
        out += '(?:'
        i += 3
      } else if (/^P?<[A-Za-z_][A-Za-z0-9_]*>/.test(rest)) {
        const named = /^P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest)!
        out += `(?<${named[1]}>`
        i += 2 + named[0].length
      } else return null // look-around, inline flags
      continue
    }
    if (c === '.') out += opts.dotAll ? '[^]' : '[^\\n]'
    else if (c === '^') out += opts.multiLine ? '(?<![^\\n])' : '^'
    else if (c === '$') out += opts.multiLine ? '(?![^\\n])' : '$'
    else out += c
    i++
  }
  return inClass ? null : out
}

/** A RegExp that matches as rg would, or null (see above). `g` is set in multiline mode, for exec loops. */
export function rustRegex(pattern: string, opts: { ignoreCase: boolean; multiline: boolean }): RegExp | null {
  const source = rustRegexSource(pattern, { dotAll: opts.multiline, multiLine: opts.multiline })
  if (source === null) return null
  try {
    return new RegExp(source, `u${opts.multiline ? 'g' : ''}${opts.ignoreCase ? 'i' : ''}`)
  } catch {
    return null
  }
}
