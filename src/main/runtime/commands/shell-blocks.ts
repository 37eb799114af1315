// The shell commands a command file asks to run before its prompt is sent: `` !`cmd` `` (after a line start
// or a space) and fenced ```! blocks, found as Claude Code finds them (a `!` inside an ordinary code span is
// text). Only the file's own text is searched, before any argument is filled in: what a person or a script
// types after the command name never becomes a command.

export interface ShellBlock {
  /** The text it replaces, as written. */
  raw: string
  command: string
  at: number
}

const FENCED = /```!\s*\n?([\s\S]*?)\n?```/g
const INLINE = /(?<=^|\s)!`([^`]+)`/gm

/** Blanks the inside of code spans not opened by `!` (or a fence), so a `!` quoted in them is not a block. */
function maskCodeSpans(text: string): string {
  return text.replace(/`[^`\n]+`/g, (span, at: number) => {
    const before = text[at - 1]
    return before === '!' || before === '`' ? span : `\`${' '.repeat(span.length - 2)}\``
  })
}

export function findShellBlocks(text: string): ShellBlock[] {
  const found: ShellBlock[] = []
  const masked = text.includes('!`') ? maskCodeSpans(text) : ''
  const matches = [...text.matchAll(FENCED), ...(masked ? [...masked.matchAll(INLINE)] : [])]
  const fenced: Array<[number, number]> = []
  for (const m of matches) {
    const at = m.index ?? 0
    // A `!` block written inside a fenced one is part of that one's command.
    if (fenced.some(([from, to]) => at > from && at < to)) continue
    if (m[0].startsWith('```')) fenced.push([at, at + m[0].length])
    const raw = text.slice(at, at + m[0].length)
    const command = (raw.startsWith('```') ? (m[1] ?? '') : raw.slice(2, -1)).trim().replaceAll('\r\n', '\n')
    if (command) found.push({ raw, command, at })
  }
  return found.sort((a, b) => a.at - b.at)
}
