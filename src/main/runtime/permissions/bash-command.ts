// Enough shell parsing to apply permission rules safely. An allow rule like Bash(git:*) must not approve
// `git status && rm -rf ~`, so compound commands are split and every part must be allowed; anything we do not
// fully understand (substitutions, redirection into files, subshells, heredocs) makes allow rules step aside
// (the user is asked), while deny rules are still checked against every command we can find inside.

export interface ParsedCommand {
  /** Top-level simple commands, harmless redirections (2>&1, >/dev/null) removed. */
  segments: string[]
  /** Commands found inside $(…), `…`, <(…) or `bash -c '…'`/`eval` strings: checked against deny rules. */
  nested: string[]
  /** Why allow rules cannot vouch for this command; empty when it is fully understood. */
  unsure: string[]
}

const SAFE_REDIRECT_TARGET = /^(&\d+|&-|\/dev\/null)$/

/** Reads a `$(`…`)` body starting after the opening paren; returns the body and the index after `)`. */
function readParenBody(s: string, start: number): { body: string; end: number } {
  let depth = 1
  let quote: string | null = null
  for (let i = start; i < s.length; i++) {
    const c = s[i]
    if (quote) {
      if (c === '\\' && quote === '"') i++
      else if (c === quote) quote = null
      continue
    }
    if (c === '\\') i++
    else if (c === "'" || c === '"') quote = c
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return { body: s.slice(start, i), end: i + 1 }
  }
  return { body: s.slice(start), end: s.length }
}

function unquote(word: string): string {
  if (word.length >= 2 && (word[0] === "'" || word[0] === '"') && word[word.length - 1] === word[0]) return word.slice(1, -1)
  return word
}

export function parseBashCommand(command: string): ParsedCommand {
  const segments: string[] = []
  const nested: string[] = []
  const unsure = new Set<string>()
  let cur = ''
  let quote: "'" | '"' | null = null
  const endSegment = (): void => {
    const s = cur.trim()
    if (s) segments.push(s)
    cur = ''
  }
  const addNested = (body: string): void => {
    const inner = parseBashCommand(body)
    nested.push(...inner.segments, ...inner.nested)
  }
  for (let i = 0; i < command.length; i++) {
    const c = command[i]
    const next = command[i + 1]
    if (quote === "'") {
      cur += c
      if (c === "'") quote = null
      continue
    }
    if (c === '\\') {
      cur += c + (next ?? '')
      i++
      continue
    }
    if ((c === '$' && next === '(') || c === '`') {
      unsure.add('command substitution')
      if (c === '`') {
        const close = command.indexOf('`', i + 1)
        const end = close === -1 ? command.length : close
        addNested(command.slice(i + 1, end))
        cur += command.slice(i, end + 1)
        i = end
      } else {
        const { body, end } = readParenBody(command, i + 2)
        addNested(body)
        cur += command.slice(i, end)
        i = end - 1
      }
      continue
    }
    if (quote === '"') {
      cur += c
      if (c === '"') quote = null
      continue
    }
    if (c === "'" || c === '"') {
      quote = c
      cur += c
      continue
    }
    if ((c === '<' || c === '>') && next === '(') {
      unsure.add('process substitution')
      const { body, end } = readParenBody(command, i + 2)
      addNested(body)
      cur += command.slice(i, end)
      i = end - 1
      continue
    }
    if (c === '(' || c === ')' || (c === '{' && /^\s*$/.test(cur) && /\s/.test(next ?? ''))) {
      unsure.add('subshell or command group')
      if (c === '(' || c === '{') endSegment()
      continue
    }
    if (c === '>' || c === '<' || (c === '&' && next === '>')) {
      // Redirection: [n]>file, >>file, &>file, n>&m, <file, <<heredoc, <<<string.
      let j = i
      let op = ''
      while (j < command.length && /[<>&|]/.test(command[j]) && op.length < 3) op += command[j++]
      if (op.startsWith('<<')) unsure.add('heredoc or here-string')
      while (command[j] === ' ' || command[j] === '\t') j++
      let k = j
      while (k < command.length && !/[\s;&|<>()]/.test(command[k])) k++
      if (op.endsWith('&') && /\d|-/.test(command[k] ?? '')) k++ // n>&m, >&-
      const target = op.endsWith('&') && !op.startsWith('&') ? `&${command.slice(j, k)}` : command.slice(j, k)
      const fdPrefix = /\d+$/.exec(cur)?.[0] ?? ''
      if (SAFE_REDIRECT_TARGET.test(target) || target === '&') {
        cur = cur.slice(0, cur.length - fdPrefix.length)
      } else {
        if (!op.startsWith('<<')) unsure.add(op.includes('<') ? `input redirection from ${target || 'a file'}` : `output redirection to ${target || 'a file'}`)
        cur += command.slice(i, k)
      }
      i = k - 1
      continue
    }
    if (c === ';' || c === '\n' || c === '|' || c === '&') {
      endSegment()
      if ((c === '&' && next === '&') || (c === '|' && (next === '|' || next === '&'))) i++
      continue
    }
    cur += c
  }
  if (quote) unsure.add('unterminated quote')
  endSegment()
  for (const seg of segments) {
    const inner = /^(?:\S*\/)?(?:bash|sh|zsh|dash)\s+(?:-\w*c\w*)\s+(.+)$/s.exec(seg) ?? /^eval\s+(.+)$/s.exec(seg)
    if (inner) {
      unsure.add('a command string run by a shell')
      addNested(unquote(inner[1].trim()))
    }
  }
  return { segments, nested, unsure: [...unsure] }
}

const WRAPPERS = /^(?:sudo(?:\s+-\S+)*|command|builtin|exec|nohup|time|nice(?:\s+-n\s*-?\d+|\s+-\d+)?|timeout(?:\s+-\S+)*\s+\S+|env(?:\s+-\S+)*|xargs(?:\s+-\S+)*)\s+/
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+/

/** A segment plus the forms it takes without env assignments and wrappers (`sudo rm` is still `rm`). */
export function commandVariants(segment: string): string[] {
  const out = [segment]
  let s = segment
  for (let guard = 0; guard < 10; guard++) {
    const stripped = s.replace(ENV_ASSIGNMENT, '').replace(WRAPPERS, '')
    if (stripped === s) break
    s = stripped
    out.push(s)
  }
  return out
}

/**
 * Claude Code's Bash rule content: `npm run test:*` (prefix, whole words), `git * main` (wildcards), or an exact
 * command. A single trailing ` *` also matches the bare command (`ls *` matches `ls`).
 */
export function matchBashPattern(pattern: string, command: string): boolean {
  const cmd = command.trim()
  if (pattern.endsWith(':*')) {
    const prefix = pattern.slice(0, -2).trim()
    return cmd === prefix || cmd.startsWith(`${prefix} `)
  }
  if (!pattern.includes('*')) return cmd === pattern.trim()
  const stars = pattern.split('*').length - 1
  let body = pattern
    .trim()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  if (stars === 1 && body.endsWith(' .*')) body = `${body.slice(0, -3)}(?: .*)?`
  return new RegExp(`^${body}$`, 's').test(cmd)
}

/** Shell-style words of a simple command (quotes removed); null if it uses expansions we will not guess at. */
export function shellWords(segment: string): string[] | null {
  if (/[$`]/.test(segment.replace(/'[^']*'/g, ''))) return null
  const words: string[] = []
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|((?:[^\s'"\\]|\\.)+)/g
  let word = ''
  let last = -1
  for (let m = re.exec(segment); m; m = re.exec(segment)) {
    const piece = m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3].replace(/\\(.)/g, '$1'))
    if (m.index === last) word += piece
    else {
      if (last !== -1) words.push(word)
      word = piece
    }
    last = re.lastIndex
  }
  if (last !== -1) words.push(word)
  return words
}
