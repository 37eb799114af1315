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

/** The warm-up as small steps, each a piece of the sample as a stream would have it. */
function* warmUpSteps(): Generator<void> {
  let split: MarkdownBlocks | undefined
  for (let end = 8; end <= SAMPLE.length; end += 8) {
    split = splitMarkdownBlocks(SAMPLE.slice(0, end), split)
    yield
  }
  for (const block of split?.blocks ?? []) {
    finishedBlockDrawable(Lexer.lex(block, { gfm: true }))
    yield
  }
}

export function warmUpMarkdown(): void {
  for (const _ of warmUpSteps());
}

/** Runs the warm-up when the page is idle, a step or a few per idle period, so it is never a long task itself. */
export function warmUpMarkdownWhenIdle(): void {
  if (typeof requestIdleCallback !== 'function') return void setTimeout(warmUpMarkdown, 500)
  const steps = warmUpSteps()
  const run = (deadline: IdleDeadline) => {
    do if (steps.next().done) return
    while (deadline.timeRemaining() > 5)
    requestIdleCallback(run)
  }
  requestIdleCallback(run)
}
