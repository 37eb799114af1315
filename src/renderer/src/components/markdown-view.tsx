// Rendered assistant markdown. Links open outside the app (never navigate the app's own page).
// A streaming text (or one cut to its tail) is rendered block by block: finished blocks keep their DOM,
// so each delta touches only the last block — the difference between 16 streaming panels fitting in a
// frame or not.
import { memo, useState, type MouseEvent } from 'react'
import { renderMarkdown } from '../lib/markdown'
import { splitMarkdownBlocks, tailStart, type MarkdownBlocks } from '../lib/markdown-blocks'
import { renderableTokens, TokenBlock } from './markdown-tokens'

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

/** Per view: the last cut of the text and each block's HTML, reused while the text only grows. */
interface BlockCache {
  split?: MarkdownBlocks
  html: Array<{ source: string; html: string } | undefined>
}

interface Props {
  text: string
  streaming?: boolean
  /** Show only the trailing blocks that fit in this many characters (a panel's tail). */
  tailChars?: number
}

export const MarkdownView = memo(function MarkdownView({ text, streaming = false, tailChars }: Props) {
  // A cache of pure results keyed by their input, so filling it during render is safe.
  const [cache] = useState<BlockCache>(() => ({ html: [] }))
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
  const shown: string[] = []
  for (let i = start; i < end; i++) {
    let entry = cache.html[i]
    if (entry?.source !== blocks[i]) {
      entry = { source: blocks[i], html: renderMarkdown(blocks[i], { cache: false }) }
      cache.html[i] = entry
    }
    shown.push(entry.html)
  }
  cache.html.length = blocks.length
  return (
    <div className={className} onClick={onLinkClick}>
      {start > 0 && (
        <div className="md-elided" title="Earlier text is in the full transcript">
          …
        </div>
      )}
      {shown.map((html, i) => (
        <Block key={start + i} html={html} />
      ))}
      {live && <TokenBlock key={`live-${end}`} tokens={live} />}
    </div>
  )
})
