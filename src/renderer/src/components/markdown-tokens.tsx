// The block still streaming, drawn as React elements straight from marked's tokens. Each delta then
// changes a text node in place, where replacing the block's HTML meant a sanitizer pass, an HTML parse,
// new elements to style and text to shape again, in every streaming panel on every frame. A block that
// is done stays drawn this way (same elements, so its DOM is kept) unless it has a code block to
// highlight: switching it to HTML cost every panel a sanitizer pass and new DOM at each paragraph end. Output is the
// same elements the HTML path gives (so it looks the same); React escapes all text, and links keep only
// the schemes the sanitizer allows. Blocks with anything else (raw HTML, tables, images, entities) go
// through the sanitized HTML path instead: `renderableTokens` says which.
import { Fragment, memo, type ReactNode } from 'react'
import type { Token, Tokens } from 'marked'

const BLOCK = new Set(['paragraph', 'heading', 'hr', 'blockquote', 'list', 'list_item', 'code', 'space', 'text', 'checkbox'])
const INLINE = new Set(['text', 'escape', 'strong', 'em', 'del', 'codespan', 'br', 'link', 'checkbox'])
// Text with an entity (`&amp;`) shows decoded in HTML but literally as a React string.
const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i
const SAFE_HREF = /^(?:https?:|mailto:|#)/i

function allRenderable(tokens: readonly Token[] | undefined, allowed: ReadonlySet<string>): boolean {
  if (!tokens) return true
  for (const t of tokens) {
    if (!allowed.has(t.type)) return false
    if ((t.type === 'text' || t.type === 'escape') && ENTITY.test((t as Tokens.Text).text) && !(t as Tokens.Text).tokens) return false
    if (t.type === 'list') {
      if (!(t as Tokens.List).items.every((item) => allRenderable(item.tokens, BLOCK))) return false
    } else if ('tokens' in t && !allRenderable(t.tokens as Token[], t.type === 'blockquote' ? BLOCK : INLINE)) return false
  }
  return true
}

/** Whether every token of a block can be drawn here (else: the sanitized HTML path). */
export function renderableTokens(tokens: readonly Token[]): boolean {
  return allRenderable(tokens, BLOCK)
}

function hasCode(tokens: readonly Token[] | undefined): boolean {
  if (!tokens) return false
  for (const t of tokens) {
    if (t.type === 'code') return true
    if (t.type === 'list' ? (t as Tokens.List).items.some((item) => hasCode(item.tokens)) : 'tokens' in t && hasCode(t.tokens as Token[])) return true
  }
  return false
}

/**
 * Whether a finished block can stay drawn from its tokens: renderable, and with no code block, which
 * once complete is highlighted (the HTML path does that).
 */
export function finishedBlockDrawable(tokens: readonly Token[]): boolean {
  return renderableTokens(tokens) && !hasCode(tokens)
}

function inline(tokens: readonly Token[] | undefined): ReactNode[] {
  return (tokens ?? []).map((t, i) => {
    switch (t.type) {
      case 'text':
        return (t as Tokens.Text).tokens ? <Fragment key={i}>{inline((t as Tokens.Text).tokens)}</Fragment> : (t as Tokens.Text).text
      case 'escape':
        return (t as Tokens.Escape).text
      case 'strong':
        return <strong key={i}>{inline((t as Tokens.Strong).tokens)}</strong>
      case 'em':
        return <em key={i}>{inline((t as Tokens.Em).tokens)}</em>
      case 'del':
        return <del key={i}>{inline((t as Tokens.Del).tokens)}</del>
      case 'codespan':
        return <code key={i}>{(t as Tokens.Codespan).text}</code>
      case 'br':
        return <br key={i} />
      case 'link': {
        const link = t as Tokens.Link
        const href = SAFE_HREF.test(link.href) ? link.href : undefined
        return (
          <a key={i} href={href} title={link.title ?? undefined}>
            {inline(link.tokens)}
          </a>
        )
      }
      default:
        return null // a checkbox: the sanitizer removes inputs from the HTML path too
    }
  })
}

function block(t: Token, i: number): ReactNode {
  switch (t.type) {
    case 'paragraph':
      return <p key={i}>{inline((t as Tokens.Paragraph).tokens)}</p>
    case 'heading': {
      const h = t as Tokens.Heading
      const Tag = `h${Math.min(6, Math.max(1, h.depth))}` as 'h1'
      return <Tag key={i}>{inline(h.tokens)}</Tag>
    }
    case 'hr':
      return <hr key={i} />
    case 'blockquote':
      return <blockquote key={i}>{(t as Tokens.Blockquote).tokens.map(block)}</blockquote>
    case 'code': {
      // Highlighting waits for the block to be complete (the HTML path): while it streams it is plain.
      const code = t as Tokens.Code
      const lang = (code.lang ?? '').trim().split(/\s+/)[0]
      return (
        <pre key={i} className="code-block">
          {lang && <span className="code-lang">{lang}</span>}
          <code className="hljs">{code.text}</code>
        </pre>
      )
    }
    case 'list': {
      const list = t as Tokens.List
      const items = list.items.map((item, j) => (
        <li key={j}>
          {item.loose ? item.tokens.map(block) : item.tokens.map((c, k) => (c.type === 'text' ? inline((c as Tokens.Text).tokens ?? [c]) : block(c, k)))}
        </li>
      ))
      return list.ordered ? (
        <ol key={i} start={list.start !== 1 && list.start !== '' ? Number(list.start) : undefined}>
          {items}
        </ol>
      ) : (
        <ul key={i}>{items}</ul>
      )
    }
    case 'text':
      return <p key={i}>{inline((t as Tokens.Text).tokens ?? [t])}</p>
    default:
      return null // space
  }
}

/** A block's tokens as elements; call only when `renderableTokens` said yes. Memoized: a finished block keeps its tokens. */
export const TokenBlock = memo(function TokenBlock({ tokens }: { tokens: readonly Token[] }) {
  return <div className="md-block">{tokens.map(block)}</div>
})
