// HTML to readable plain text (markdown-flavoured) for WebFetch: headings, list items, links and
// preformatted blocks survive; scripts, styles and markup do not. Regex-based on purpose: the input is
// capped and the output only has to be readable, not a DOM.

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  reg: '®',
  trade: '™',
  rsquo: '’',
  lsquo: '‘',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  times: '×',
  euro: '€',
  pound: '£',
  laquo: '«',
  raquo: '»',
  deg: '°',
  para: '¶',
  sect: '§',
  larr: '←',
  rarr: '→'
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10)
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole
    }
    return NAMED_ENTITIES[code.toLowerCase()] ?? whole
  })
}

const BLOCK =
  /<\/?(p|div|section|article|header|footer|main|nav|aside|ul|ol|table|thead|tbody|tr|blockquote|figure|figcaption|form|fieldset|dl|dt|dd|details|summary|hr|address)\b[^>]*>/gi

export function htmlToText(html: string): { title?: string; text: string } {
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)
  const title = titleMatch ? decodeEntities(titleMatch[1].replace(/\s+/g, ' ').trim()) || undefined : undefined
  let s = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style|noscript|svg|template|iframe|head|object|canvas)\b[\s\S]*?<\/\1\s*>/gi, '')
  const pres: string[] = []
  s = s.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_, body: string) => {
    pres.push(decodeEntities(body.replace(/<[^>]+>/g, '')))
    return `\n\u0000PRE${pres.length - 1}\u0000\n`
  })
  // HTML whitespace: source line breaks are spaces; only markup makes lines.
  s = s
    .replace(/\s+/g, ' ')
    .replace(/<h([1-6])\b[^>]*>/gi, (_, level: string) => `\n\n${'#'.repeat(Number(level))} `)
    .replace(/<\/h[1-6]\s*>/gi, '\n\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<(td|th)\b[^>]*>/gi, ' | ')
    .replace(BLOCK, '\n')
    .replace(/<a\b[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi, (_, d, q, u, inner: string) => {
      const href = decodeEntities(d ?? q ?? u ?? '')
      const label = inner.replace(/<[^>]+>/g, '').trim()
      if (!/^https?:/i.test(href) || !label || decodeEntities(label) === href) return inner
      return `[${label}](${href})`
    })
    .replace(/<code\b[^>]*>([\s\S]*?)<\/code\s*>/gi, '`$1`')
    .replace(/<(strong|b)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, '**$2**')
    .replace(/<[^>]+>/g, '')
  s = decodeEntities(s)
  const text = s
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\u0000PRE(\d+)\u0000/g, (_, i: string) => `\`\`\`\n${pres[Number(i)].replace(/^\n+|\s+$/g, '')}\n\`\`\``)
    .trim()
  return { title, text }
}
