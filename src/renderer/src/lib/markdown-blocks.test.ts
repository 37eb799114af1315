import { describe, expect, it } from 'vitest'
import { splitMarkdownBlocks, tailStart, type MarkdownBlocks } from './markdown-blocks'

const REPORT = [
  '## Findings\n\n',
  'The lexer drops **positions**; errors cannot say where they happened.\n\n',
  '1. `lex()` never reports a line.\n2. Splitting on whitespace loses columns.\n\n',
  '- a loose list\n\n  continued after a blank line\n- second item\n\n',
  '> a quote\nwith a lazy line\n\n',
  '```ts\nexport function lex(src: string) {\n\n  return src.split(/\\s+/)\n}\n```\n\n',
  '| file | issue |\n|---|---|\n| lexer.ts | no positions |\n\n',
  'Heading by underline\n===\n\n',
  'Last paragraph, still streaming'
].join('')

/** Streams `text` in chunks, each split given the previous one, as a panel does. */
function stream(text: string, chunk: number): MarkdownBlocks[] {
  const out: MarkdownBlocks[] = []
  let prev: MarkdownBlocks | undefined
  for (let end = chunk; end < text.length + chunk; end += chunk) {
    prev = splitMarkdownBlocks(text.slice(0, end), prev)
    out.push(prev)
  }
  return out
}

describe('splitMarkdownBlocks', () => {
  it('cuts top-level blocks that join back into the text, blank lines staying with the block before', () => {
    const { blocks } = splitMarkdownBlocks('# Title\n\nFirst paragraph.\n\n- one\n- two\n\nEnd')
    expect(blocks).toEqual(['# Title\n\n', 'First paragraph.\n\n', '- one\n- two\n\n', 'End'])
  })

  it('streamed a few characters at a time, gives at every step the blocks of lexing the whole text afresh', () => {
    for (const chunk of [1, 3, 17]) {
      for (const step of stream(REPORT, chunk)) {
        expect(step.blocks.join('')).toBe(step.text)
        expect(step.blocks).toEqual(splitMarkdownBlocks(step.text).blocks)
      }
    }
  })

  it('keeps finished blocks as they were, so their rendering can be reused', () => {
    const first = splitMarkdownBlocks('Done paragraph.\n\nStreaming par')
    const next = splitMarkdownBlocks('Done paragraph.\n\nStreaming paragraph', first)
    expect(next.blocks[0]).toBe(first.blocks[0])
    expect(next.blocks[1]).toBe('Streaming paragraph')
  })

  it('draws a list item still being written, ending in a space, from its tokens', () => {
    const split = splitMarkdownBlocks('Intro.\n\n- first item ‹5› ')
    expect(split.blocks).toEqual(['Intro.\n\n', '- first item ‹5› '])
    expect(split.lastTokens?.map((t) => t.type)).toEqual(['list'])
  })

  it('starts over when the text is not a continuation of the previous one', () => {
    const first = splitMarkdownBlocks('Alpha.\n\nBeta')
    expect(splitMarkdownBlocks('Gamma.\n\nDelta', first).blocks).toEqual(['Gamma.\n\n', 'Delta'])
  })

  it('reads Windows line endings as plain newlines', () => {
    expect(splitMarkdownBlocks('One\r\n\r\nTwo').blocks).toEqual(['One\n\n', 'Two'])
  })

  it('gives one empty block for empty text', () => {
    expect(splitMarkdownBlocks('').blocks).toEqual([''])
  })
})

describe('tailStart', () => {
  const blocks = ['a'.repeat(500), 'b'.repeat(300), 'c'.repeat(200), 'd'.repeat(100)]

  it('shows the trailing blocks that fit the budget', () => {
    expect(tailStart(blocks, 320)).toBe(2)
    expect(tailStart(blocks, 600)).toBe(1)
    expect(tailStart(blocks, 5000)).toBe(0)
  })

  it('always shows the last block, even when it alone is over budget', () => {
    expect(tailStart(blocks, 50)).toBe(3)
  })
})
