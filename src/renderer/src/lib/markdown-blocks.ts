// Streaming markdown, block by block. A streamed text only grows at its end, so every top-level block
// but the last is final: it is rendered once and its DOM is left alone, and each delta re-lexes and
// re-renders only the last block. Re-rendering the whole text on every delta made 16 streaming panels
// parse, sanitize and lay out their whole text every frame.
import { Lexer, type Token } from 'marked'

export interface MarkdownBlocks {
  /** The text the blocks were cut from (line endings normalized). */
  text: string
  /** Top-level blocks in order; joined they are `text`. Blank lines belong to the block before them. */
  blocks: string[]
  /** The tokens of the last block, when the lexer read it cleanly (a streaming view can draw them). */
  lastTokens?: Token[]
}

const normalize = (text: string) => (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text)

/**
 * Cuts `text` into top-level markdown blocks. Given the previous cut of a text that `text` extends, the
 * blocks before the previous last one are kept as they were and only the rest is lexed again.
 */
export function splitMarkdownBlocks(input: string, previous?: MarkdownBlocks): MarkdownBlocks {
  const text = normalize(input)
  let kept: string[] = []
  let offset = 0
  if (previous && previous.blocks.length > 1) {
    const stable = previous.text.length - previous.blocks[previous.blocks.length - 1].length
    if (text.length >= stable && text.startsWith(previous.text.slice(0, stable))) {
      kept = previous.blocks.slice(0, -1)
      offset = stable
    }
  }
  const rest = text.slice(offset)
  const blocks = kept
  const fresh = blocks.length
  let pos = 0
  let lastTokens: Token[] | undefined
  for (const token of Lexer.lex(rest, { gfm: true })) {
    // A token's raw is normally its exact source. The lexer tidies the end of a list (its trailing
    // spaces become a newline), which a streamed list item has after nearly every delta: when the
    // tidied token is all that is left, it is still the last block, drawn from its tokens (a whole
    // HTML pass per delta otherwise). Anywhere else the rest of the text becomes one block, so the
    // blocks still join to the text.
    if (!rest.startsWith(token.raw, pos)) {
      if (token.raw.trimEnd() !== rest.slice(pos).trimEnd()) break
      token.raw = rest.slice(pos)
    }
    pos += token.raw.length
    // Blank lines stay with the block before them, so a list or quote that continues after a blank
    // line is still the last block, lexed again with what follows.
    if (token.type === 'space' && blocks.length > fresh) {
      blocks[blocks.length - 1] += token.raw
      lastTokens?.push(token)
    } else {
      blocks.push(token.raw)
      lastTokens = [token]
    }
  }
  if (pos < rest.length || !blocks.length) {
    blocks.push(rest.slice(pos))
    lastTokens = undefined
  }
  return { text, blocks, lastTokens }
}

/**
 * The index of the first block to show so that the shown blocks hold at most `budget` characters
 * (always at least the last block): a panel shows the end of a long text without laying out all of it.
 */
export function tailStart(blocks: readonly string[], budget: number): number {
  let used = 0
  for (let i = blocks.length - 1; i >= 0; i--) {
    used += blocks[i].length
    if (used > budget) return Math.min(i + 1, blocks.length - 1)
  }
  return 0
}
