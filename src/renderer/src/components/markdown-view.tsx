// Rendered assistant markdown. Links open outside the app (never navigate the app's own page).
import { memo, type MouseEvent } from 'react'
import { renderMarkdown } from '../lib/markdown'

function onLinkClick(e: MouseEvent<HTMLDivElement>) {
  const a = (e.target as HTMLElement).closest('a')
  if (!a) return
  e.preventDefault()
  const href = a.getAttribute('href') ?? ''
  if (/^https?:/i.test(href)) window.open(href, '_blank', 'noopener,noreferrer')
}

export const MarkdownView = memo(function MarkdownView({ text, streaming = false }: { text: string; streaming?: boolean }) {
  return <div className={`markdown${streaming ? ' streaming' : ''}`} onClick={onLinkClick} dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />
})
