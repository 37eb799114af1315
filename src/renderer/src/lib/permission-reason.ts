// A permission request's reason, as the runtime words it ("Bash wants to run: npm test (it uses …)"),
// repeats what the card already shows — the command, the file — before what is news: a part of the command
// that allow rules do not cover, a rule that asks first, a path outside the folder. The card shows the input
// once, in its own box, and only the news from the reason.
import { NO_SANDBOX_LEAD, NO_SANDBOX_TAIL } from '../../../shared/sandbox-words'

const LEAD = /^\S+ wants to \w+:? /

/** A card says in a few words what the session's notice says in full: one sandbox sentence on a screen. */
export const NO_SANDBOX_SHORT = 'asks because the Bash sandbox is unavailable'

/** The reason with the sandbox's full sentence (why it is unavailable, what that means) cut to a few words. */
function shortSandbox(reason: string): string {
  const at = reason.toLowerCase().indexOf(NO_SANDBOX_LEAD.toLowerCase())
  if (at === -1) return reason
  const end = reason.indexOf(NO_SANDBOX_TAIL, at)
  return end === -1 ? reason : `${reason.slice(0, at)}${NO_SANDBOX_SHORT}${reason.slice(end + NO_SANDBOX_TAIL.length)}`
}

/** The reason without the command or path it repeats: what remains, as sentences; '' when nothing does. */
export function reasonBeyondInput(full: string, input: unknown): string {
  const reason = shortSandbox(full)
  const lead = LEAD.exec(reason)
  if (!lead) return reason
  const after = reason.slice(lead[0].length)
  const repeated = longestRepeat(after, input)
  if (repeated === null) return reason
  return sentences(after.slice(repeated))
}

/** How many leading characters of `text` are one of the input's values (a path may be shown relative). */
function longestRepeat(text: string, input: unknown): number | null {
  if (!input || typeof input !== 'object') return null
  let best: number | null = null
  const ends = (n: number) => n === text.length || text[n] === ',' || text[n] === ' '
  for (const value of Object.values(input)) {
    if (typeof value !== 'string' || !value) continue
    // The value itself, or a tail of it after a '/' (a path inside the folder is shown relative to it).
    const parts = value.split('/')
    for (let i = 0; i < parts.length; i++) {
      const tail = parts.slice(i).join('/')
      if (tail && text.startsWith(tail) && ends(tail.length) && (best === null || tail.length > best)) best = tail.length
    }
  }
  return best
}

/** ", outside the working directory (the rule "Bash(git:*)" asks first)" → "Outside the working directory. The rule … asks first." */
function sentences(rest: string): string {
  const pieces: string[] = []
  let depth = 0
  let current = ''
  for (const ch of rest) {
    if (ch === '(' && depth++ === 0) {
      pieces.push(current)
      current = ''
      continue
    }
    if (ch === ')' && depth > 0 && --depth === 0) {
      pieces.push(current)
      current = ''
      continue
    }
    current += ch
  }
  pieces.push(current)
  return pieces
    .map((p) => p.replace(/^[\s,;:]+/, '').trim())
    .filter(Boolean)
    .map((p) => `${p[0].toUpperCase()}${p.slice(1)}${/[.!?]$/.test(p) ? '' : '.'}`)
    .join(' ')
}
