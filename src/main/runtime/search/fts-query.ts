// What a person types, as an FTS5 query. Words are cut as the index cuts them (unicode61 with `_` kept
// inside words), each one quoted so that no character of the input is read as FTS5 syntax, and each may
// be the start of a longer word ("ENOEN" finds "ENOENT"). Every word must be in the document. Words in
// double quotes must follow each other in that order. Pure: no input can make a query fail.

/** Letters, digits, marks and `_`: a word to the index (tokenchars '_' in search-db.ts). */
const WORD = /[\p{L}\p{N}\p{M}_]+/gu

export function words(text: string): string[] {
  return (text.normalize('NFKC').match(WORD) ?? []).map((w) => w.toLowerCase())
}

const quote = (w: string) => `"${w.replace(/"/g, '""')}"`

/** The FTS5 MATCH expression for `text`, or null when it holds no word at all. */
export function ftsQuery(text: string): string | null {
  const parts: string[] = []
  // Quoted runs become phrases; the rest are single words.
  const re = /"([^"]*)"|([^"]+)/g
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const ws = words(m[1] ?? m[2] ?? '')
    if (!ws.length) continue
    if (m[1] !== undefined) parts.push(ws.map(quote).join(' + '))
    else for (const w of ws) parts.push(`${quote(w)}*`)
  }
  return parts.length ? parts.join(' AND ') : null
}
