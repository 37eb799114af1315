// What the prompt box completes at the caret: a `/command` (only at the very start of the prompt, as Claude
// Code) or an `@` mention (a file, or an agent as `@agent-name`) after a space or at the start; ranking by a
// fuzzy subsequence match that prefers the start of a name, of a path segment, and runs of letters.

export interface Trigger {
  kind: 'command' | 'mention'
  /** What was typed after `/` or `@` (a leading quote left out). */
  query: string
  /** The span the chosen item replaces: from the `/` or `@` to the end of the word the caret is in. */
  start: number
  end: number
}

export function triggerAt(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret)
  const rest = /^[^\s]*/.exec(text.slice(caret))![0]
  const command = /^\/([^\s/]*)$/.exec(before)
  if (command) return { kind: 'command', query: command[1], start: 0, end: caret + rest.length }
  const mention = /(?:^|\s)@("[^"\n]*|[^\s"]*)$/.exec(before)
  if (mention) {
    const typed = mention[1]
    return { kind: 'mention', query: typed.replace(/^"/, ''), start: caret - typed.length - 1, end: caret + rest.length }
  }
  return null
}

/** The text with `insert` (and a space) in the trigger's place, and where the caret goes. */
export function complete(text: string, t: Trigger, insert: string): { text: string; caret: number } {
  const after = text.slice(t.end)
  const spaced = after.startsWith(' ') ? insert : `${insert} `
  return { text: text.slice(0, t.start) + spaced + after, caret: t.start + spaced.length }
}

/** `@path`, quoted when the path has a space. */
export const mentionText = (path: string): string => (/\s/.test(path) ? `@"${path}"` : `@${path}`)

const BOUNDARY = /[/._\-\s:]/

/** Higher is better; null: the query's letters are not all in the candidate, in order. */
export function fuzzyScore(query: string, candidate: string): number | null {
  if (!query) return 0
  const q = query.toLowerCase()
  const c = candidate.toLowerCase()
  let score = 0
  let at = 0
  let run = 0
  for (const ch of q) {
    const found = c.indexOf(ch, at)
    if (found === -1) return null
    run = found === at ? run + 1 : 0
    score += 1 + run * 2 + (found === 0 || BOUNDARY.test(c[found - 1]) ? 3 : 0) - Math.min(3, (found - at) * 0.1)
    at = found + 1
  }
  // The name itself (a path's last segment) matching beats a folder's name matching.
  const base = c.slice(c.lastIndexOf('/') + 1)
  if (base.includes(q)) score += 10 + (base.startsWith(q) ? 10 : 0)
  else if (c.includes(q)) score += 5
  return score - c.length * 0.01
}

/** The best `limit` of `items` for `query`, best first (ties keep the items' order). */
export function rank<T>(items: readonly T[], query: string, key: (item: T) => string, limit: number): T[] {
  if (!query) return items.slice(0, limit)
  const scored: Array<{ item: T; score: number; i: number }> = []
  items.forEach((item, i) => {
    const score = fuzzyScore(query, key(item))
    if (score !== null) scored.push({ item, score, i })
  })
  scored.sort((a, b) => b.score - a.score || a.i - b.i)
  return scored.slice(0, limit).map((s) => s.item)
}
