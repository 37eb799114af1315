// Rendered assistant markdown. Links open outside the app (never navigate the app's own page).
// A streaming text (or one cut to its tail) is rendered block by block: finished blocks keep their DOM,
// so each delta touches only the last block — the difference between 16 streaming panels fitting in a
// frame or not.
import { Lexer, type Token } from 'marked'
import { memo, useState, type MouseEvent } from 'react'
import { renderMarkdown } from '../lib/markdown'
import { splitMarkdownBlocks, tailStart, type MarkdownBlocks } from '../lib/markdown-blocks'
import { finishedBlockDrawable, renderableTokens, TokenBlock } from './markdown-tokens'

function onLinkClick(e: MouseEvent<HTMLDivElement>) {
  const a = (e.target as HTMLElement).closest('a')
  if (!a) return
  e.preventDefault()
  const href = a.getAttribute('href') ?? ''
  if (/^https?:/i.test(href)) window.open(href, '_blank', 'noopener,noreferrer')
}

const Block = memo(function Block({ html }: { html: string }) {
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />
})

/** A finished block, drawn from its tokens or, when they cannot be (see finishedBlockDrawable), as HTML. */
type Finished = { source: string; tokens: Token[]; html?: undefined } | { source: string; html: string; tokens?: undefined }

function finishBlock(source: string): Finished {
  const tokens = Lexer.lex(source, { gfm: true })
  return finishedBlockDrawable(tokens) ? { source, tokens } : { source, html: renderMarkdown(source, { cache: false }) }
}

/** Per view: the last cut of the text and each finished block, reused while the text only grows. */
interface BlockCache {
  split?: MarkdownBlocks
  blocks: Array<Finished | undefined>
}

interface Props {
  text: string
  streaming?: boolean
  /** Show only the trailing blocks that fit in this many characters (a panel's tail). */
  tailChars?: number
}

export const MarkdownView = memo(function MarkdownView({ text, streaming = false, tailChars }: Props) {
  // A cache of pure results keyed by their input, so filling it during render is safe.
  const [cache] = useState<BlockCache>(() => ({ blocks: [] }))
  const className = `markdown${streaming ? ' streaming' : ''}`
  if (!streaming && (tailChars === undefined || text.length <= tailChars)) {
    cache.split = undefined
    return <div className={className} onClick={onLinkClick} dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />
  }
  const split = splitMarkdownBlocks(text, cache.split)
  cache.split = split
  const { blocks } = split
  const start = tailChars === undefined ? 0 : tailStart(blocks, tailChars)
  // The block being written is drawn from its tokens, so a delta edits text in place.
  const live = streaming && split.lastTokens && renderableTokens(split.lastTokens) ? split.lastTokens : null
  const end = live ? blocks.length - 1 : blocks.length
  const shown: Finished[] = []
  for (let i = start; i < end; i++) {
    let entry = cache.blocks[i]
    if (entry?.source !== blocks[i]) cache.blocks[i] = entry = finishBlock(blocks[i])
    shown.push(entry)
  }
  cache.blocks.length = blocks.length
  return (
    <div className={className} onClick={onLinkClick}>
      {start > 0 && (
        <div className="md-elided" title="Earlier text is in the full transcript">
          …
        </div>
      )}
      {/* Keyed by index, so the block being written keeps its elements when it is done. */}
      {shown.map((block, i) => (block.tokens ? <TokenBlock key={start + i} tokens={block.tokens} /> : <Block key={start + i} html={block.html} />))}
      {live && <TokenBlock key={end} tokens={live} />}
    </div>
  )
})
