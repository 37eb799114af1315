import { Lexer, marked } from 'marked'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { finishedBlockDrawable, renderableTokens, TokenBlock } from './markdown-tokens'

const lex = (md: string) => Lexer.lex(md, { gfm: true })
const drawn = (md: string) => renderToStaticMarkup(<TokenBlock tokens={lex(md)} />)
/** Same markup modulo serialization: newlines between tags and how quotes are escaped. */
const normal = (html: string) =>
  html
    .replace(/>\n+/g, '>')
    .replace(/\n+</g, '<')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/<(br|hr)\/>/g, '<$1>')
    .trim()

describe('TokenBlock: a streaming block drawn from tokens', () => {
  const SAME_AS_HTML = [
    'The lexer drops **positions**, _columns_ and ~~lines~~; see `lex()` and [the docs](https://example.com/docs "Docs").',
    '## Findings so far',
    '- one\n- two with `code`\n- three',
    '3. third\n4. fourth',
    '- loose item\n\n- second loose item',
    '> quoted **text**\n> more',
    'a line  \nbroken by two spaces, then www.example.com',
    '- outer\n  - inner\n  - inner two',
    '---',
    'Escapes: \\*not em\\* and 5 < 6 & "quotes"'
  ]

  it.each(SAME_AS_HTML)('draws the same elements as the HTML path: %s', (md) => {
    expect(renderableTokens(lex(md))).toBe(true)
    expect(normal(drawn(md))).toBe(normal(`<div class="md-block">${marked.parse(md, { async: false, gfm: true }) as string}</div>`))
  })

  it('shows a code block as plain text while it streams, with its language label', () => {
    expect(drawn('```ts\nconst a = 1 < 2\n')).toBe(
      '<div class="md-block"><pre class="code-block"><span class="code-lang">ts</span><code class="hljs">const a = 1 &lt; 2</code></pre></div>'
    )
  })

  it('keeps a link only for the schemes the sanitizer allows', () => {
    expect(drawn('[run me](javascript:alert(1))')).toBe('<div class="md-block"><p><a>run me</a></p></div>')
    expect(drawn('[mail](mailto:a@b.c)')).toContain('href="mailto:a@b.c"')
  })

  it('leaves raw HTML, tables, images and entities to the sanitized HTML path', () => {
    for (const md of ['<b>bold</b> text', '| a | b |\n|---|---|\n| 1 | 2 |', '![alt](https://x/y.png)', 'fish &amp; chips', '<div>\nblock html\n</div>']) {
      expect(renderableTokens(lex(md))).toBe(false)
    }
  })

  it('keeps a finished block drawn from tokens, unless it holds a code block to highlight', () => {
    expect(finishedBlockDrawable(lex('A finished paragraph with **bold** and `code`.\n\n'))).toBe(true)
    expect(finishedBlockDrawable(lex('- item\n- item two\n\n'))).toBe(true)
    for (const md of ['```ts\nconst a = 1\n```\n', '- item\n\n  ```sh\n  npm test\n  ```\n', '> quoted\n>\n>     indented code\n']) {
      expect(renderableTokens(lex(md))).toBe(true)
      expect(finishedBlockDrawable(lex(md))).toBe(false)
    }
  })
})
