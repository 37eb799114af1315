// The first markdown a page lexes runs marked's rules cold: their regular expressions are compiled on
// first use and the lexer is not yet optimized. When 16 panels start streaming in the same frame, that
// frame took 30-70 ms of lexing a few words each. Once the app is idle after start-up, a short sample
// goes the way a streaming panel's text goes, so the first real stream finds the lexer warm.
import { Lexer } from 'marked'
import { finishedBlockDrawable } from '../components/markdown-tokens'
import { splitMarkdownBlocks, type MarkdownBlocks } from './markdown-blocks'

const SAMPLE = [
  '## Findings\n\n',
  'The lexer keeps **positions** and `lex()` reports each line; see [the docs](https://example.com).\n\n',
  '- one item\n- two with *emphasis*\n\n',
  '> a quote\n\n',
  '1. first\n2. second\n\n',
  'Last paragraph, still streaming ‹12› and more words'
].join('')

export function warmUpMarkdown(): void {
  let split: MarkdownBlocks | undefined
  for (let end = 8; end <= SAMPLE.length; end += 8) split = splitMarkdownBlocks(SAMPLE.slice(0, end), split)
  for (const block of split?.blocks ?? []) finishedBlockDrawable(Lexer.lex(block, { gfm: true }))
}

/** Runs the warm-up when the page is idle (soon after start-up). */
export function warmUpMarkdownWhenIdle(): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => warmUpMarkdown(), { timeout: 3000 })
  else setTimeout(warmUpMarkdown, 500)
}
