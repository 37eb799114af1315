// One-line previews of markdown (an agent's result on its card, a finished row): the words without the
// markers, so `**Report:** see \`lex()\`` reads "Report: see lex()". Pure and cheap: it runs per render.

const FENCE = /^\s*(```|~~~)/
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/
const LONE_BULLET = /^[-*+]$/
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/

/** Inline markdown of one line as plain text. */
function plainInline(line: string): string {
  // Each pass runs only where its marker is in the line: most of a streaming paragraph has none, and a tile
  // asks for its text at every delta of 64 agents.
  // Escaped characters (\*) and code spans are text as written, not markup: set aside, put back last.
  const kept: string[] = []
  const keep = (text: string) => `\uE000${kept.push(text) - 1}\uE001`
  let out = line
  const has = (c: string) => out.includes(c)
  if (has('\\')) out = out.replace(/\\([\\`*_{}[\]()#+\-.!|~>])/g, (_, c: string) => keep(c))
  // In code, a backslash is just a backslash: undo the escapes set aside inside it.
  if (has('`'))
    out = out.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, __, text: string) =>
      keep(text.trim().replace(/\uE000(\d+)\uE001/g, (_m, i: string) => `\\${kept[Number(i)]}`))
    )
  // Images and links keep their words: ![alt](src) -> alt, [text](url) -> text, <https://x> -> https://x.
  if (has('](')) out = out.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
  if (has('][')) out = out.replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
  if (has('<')) out = out.replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
  // Emphasis markers: ** __ * _ ~~, the underscore forms only at word edges (snake_case stays).
  if (has('**') || has('__')) out = out.replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
  if (has('*')) out = out.replace(/\*(?=\S)([^*]*?\S)\*/g, '$1')
  if (has('_')) out = out.replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?![\w])/g, '$1$2')
  if (has('~~')) out = out.replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
  // Inline HTML tags go; their text stays.
  if (has('<')) out = out.replace(/<\/?[a-z][^>]*>/gi, '')
  return kept.length ? out.replace(/\uE000(\d+)\uE001/g, (_, i: string) => kept[Number(i)]) : out
}

/** A markdown line's words, or null for a line that is only layout (fence, rule, table separator, blank). */
function plainLine(raw: string): string | null {
  if (!raw.trim() || FENCE.test(raw) || RULE.test(raw) || TABLE_SEPARATOR.test(raw)) return null
  let line = raw.trim()
  // A bullet alone: its item's words are still to come (a streaming list), nothing to show yet. (A number alone,
  // "42.", may be all a result says: kept.)
  if (LONE_BULLET.test(line)) return null
  let heading = false
  // Block markers, each looked for only where the line starts with one.
  if (line.startsWith('>')) line = line.replace(/^(>\s?)+/, '')
  if (line.startsWith('#'))
    line = line.replace(/^#{1,6}\s+/, () => {
      heading = true
      return ''
    })
  if (heading) line = line.replace(/\s+#+\s*$/, '')
  if (/^[-*+\d]/.test(line)) line = line.replace(/^[-*+]\s+(\[[ xX]\]\s+)?/, '• ').replace(/^(\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, '$1 ')
  if (line.startsWith('|'))
    line = line
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim())
      .join(' · ')
  line = plainInline(line).trim()
  if (!line) return null
  // A heading introduces what follows on the same line.
  return heading && !/[.:!?]$/.test(line) ? `${line}:` : line
}

/** `markdown` as one line of plain text, at most `max` characters (an ellipsis marks a cut). */
export function plainPreview(markdown: string, max: number): string {
  const words: string[] = []
  let length = 0
  for (const raw of markdown.split('\n')) {
    const line = plainLine(raw)
    if (line === null) continue
    words.push(line)
    length += line.length + 1
    if (length > max) break // enough for the preview; the rest is never shown
  }
  const text = words.join(' ').replace(/\s+/g, ' ').trim()
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text
}

/** How much of the markdown's end plainTail reads for `max` characters of plain text. */
export const tailWindow = (max: number): number => max * 3

/**
 * The end of `markdown` as plain text, at most `max` characters (an ellipsis marks where it was cut): what an
 * agent is writing now, for a tile. Only the last lines are read, however long the text.
 */
export function plainTail(markdown: string, max: number): string {
  const from = Math.max(0, markdown.length - tailWindow(max))
  return plainTailOf(from ? markdown.slice(from) : markdown, from > 0, max)
}

/** The lines of `markdown` as plain words on one line. */
function plainLines(markdown: string): string {
  const lines: string[] = []
  const raws = markdown.split('\n')
  // Text still streaming may end inside a code span: its opening backtick is markup whose close is yet to come.
  const lastRaw = raws[raws.length - 1]
  if (!FENCE.test(lastRaw) && (lastRaw.match(/`/g)?.length ?? 0) % 2 === 1) raws[raws.length - 1] = lastRaw.replace(/`(?=[^`]*$)/, '')
  for (const raw of raws) {
    const line = plainLine(raw)
    if (line !== null) lines.push(line)
  }
  return lines.join(' ').replace(/\s+/g, ' ').trim()
}

/**
 * plainTail from the markdown's last `tailWindow(max)` characters alone (all of it when shorter, `cut`
 * false): a tile keeps that window as deltas come, and never reads the whole text — a text built delta by
 * delta is a rope that any read copies whole, 30 KB and more per tile per frame in a long answer.
 */
export function plainTailOf(window: string, cut: boolean, max: number): string {
  // A cut window starts mid-line: its first line is left out, as it may have lost its markers; unless nothing
  // follows it (its paragraph has just ended, or a list item has just begun), when its end is all there is.
  const start = cut ? window.indexOf('\n') + 1 : 0
  let text = start ? plainLines(window.slice(start)) : ''
  if (!text) text = plainLines(window)
  if (text.length <= max && !cut) return text
  const tail = text.slice(-max + 1)
  const space = tail.indexOf(' ')
  return `…${space > 0 && space < 24 ? tail.slice(space + 1) : tail}`
}
