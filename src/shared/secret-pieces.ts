// Where a registered secret shows in a text after a command reshaped it: reversed (`rev`), case-changed or
// rot13 (`tr`), hex (`xxd`, `xxd -p`, `od -x`, `hexdump -C`, `\x73`, `0x73`, `%73`), octal or decimal bytes
// (`od -b`, `od -tu1`), base64 or base32, one character per line or with separators between characters
// (`fold -w1`, `sed 's/./& /g'`, a JSON array of characters), or cut into pieces (`cut -c1-20`, `head -c`,
// `awk substr`, `split`), with ANSI colours, line numbers and dump offsets around it.
//
// How: the text is read in four views, each a run of one alphabet with every character's place in the
// text: letters and digits (lowercased, %XX decoded), hex digits, the hex columns of a dump's lines (its
// printable column left out), decimal digits; line numbers and dump offsets at the start of a line are left
// out of all of them, ANSI escapes too. Each secret is written in every
// encoding above, in the alphabet of its view, and any run of PIECE characters it shares with a view marks
// that stretch of the text. Once a secret is seen in a text, shorter runs (EDGE) of it are marked too, so the
// ends of a dump's lines (a few bytes of the secret beside a line break) go with the rest.
// What this cannot see: pieces shorter than PIECE characters handed out one per command (`cut -c1-4`, then
// `cut -c5-8`…), and encodings it does not know (a cipher, a custom alphabet). Pure, no Node.

/** Characters (of a view's alphabet) a run must share with a secret to be taken for a piece of it. */
const PIECE = { text: 8, hex: 16, dump: 16, digits: 24 } as const
/** Shorter runs taken once the secret is known to be in the text (the edges of a split). */
const EDGE = { text: 4, hex: 6, dump: 6, digits: 9 } as const
/** Secrets with fewer letters and digits than this are matched whole only (redact.ts): pieces would be too short to tell. */
export const MIN_PIECES_SECRET = 12

type ViewName = keyof typeof PIECE
const VIEWS: readonly ViewName[] = ['text', 'hex', 'dump', 'digits']

interface View {
  s: string
  /** The text index of each character of `s`. */
  at: number[]
}

const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/y
// A line number (cat -n, nl, grep -n) or a dump offset (od, xxd, hexdump) that starts a line.
// (A number followed by a space is left alone: `od -An -tx1` starts its lines with a byte, not an offset.)
const LINE_PREFIX = /[ \t]*(?:[0-9a-fA-F]{6,}(?::|(?=[\t ]))|\d+(?=[:\t]))[:]?/y

function views(text: string): Record<ViewName, View> {
  const out: Record<ViewName, View> = { text: { s: '', at: [] }, hex: { s: '', at: [] }, dump: { s: '', at: [] }, digits: { s: '', at: [] } }
  const push = (v: View, c: string, i: number) => {
    v.s += c
    v.at.push(i)
  }
  // '|' is in no secret's form, so a run of a view never matches across it.
  const breakRun = (v: View, i: number) => {
    if (v.s.length && v.s[v.s.length - 1] !== '|') push(v, '|', i)
  }
  let lineStart = true
  for (let i = 0; i < text.length; i++) {
    if (lineStart) {
      lineStart = false
      LINE_PREFIX.lastIndex = i
      const m = LINE_PREFIX.exec(text)
      if (m && m[0].length) i += m[0].length
      dumpLine(text, i, out.dump)
      if (m && m[0].length) {
        i--
        continue
      }
    }
    let c = text[i]
    if (c === '\n' || c === '\r') {
      lineStart = true
      continue
    }
    if (c === '\x1b') {
      ANSI.lastIndex = i
      const m = ANSI.exec(text)
      if (m) {
        i += m[0].length - 1
        continue
      }
    }
    // `%2D` in a URL-encoded copy is the character it encodes (the hex view reads its digits as they are).
    if (c === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      const decoded = String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 3), 16)).toLowerCase()
      if (/[a-z0-9]/.test(decoded)) push(out.text, decoded, i)
      for (const k of [i + 1, i + 2]) {
        const d = text[k].toLowerCase()
        push(out.hex, d, k)
        if (d >= '0' && d <= '9') push(out.digits, d, k)
      }
      i += 2
      continue
    }
    // `0x73` (a C array of bytes): the 0x is no digit of the value.
    if (c === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X') && /[0-9a-fA-F]/.test(text[i + 2] ?? '')) {
      i++
      continue
    }
    c = c.toLowerCase()
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) push(out.text, c, i)
    if ((c >= 'a' && c <= 'f') || (c >= '0' && c <= '9')) push(out.hex, c, i)
    // A letter no hex digit is ends a run of the hex view (a dump never has one between its bytes; `\x73` has an x
    // that is no byte's), and any letter ends a run of the digits view: `w30 w31 w32` is words, not the bytes 0 1 2.
    else if (c >= 'g' && c <= 'z' && !(c === 'x' && text[i - 1] === '\\')) breakRun(out.hex, i)
    if (c >= '0' && c <= '9') push(out.digits, c, i)
    else if (c >= 'a' && c <= 'z') breakRun(out.digits, i)
  }
  return out
}

const HEX_TOKEN = /[ \t]*([0-9a-fA-F]+)(?=[ \t\r\n]|$)/y

/**
 * A dump's line (xxd, hexdump -C, od -x, any width): its leading tokens of hex digits, up to the first token
 * that is not one (the printable column), so the bytes of consecutive lines join however few each holds.
 */
function dumpLine(text: string, from: number, dump: View): void {
  HEX_TOKEN.lastIndex = from
  for (let m = HEX_TOKEN.exec(text); m; m = HEX_TOKEN.exec(text)) {
    const start = HEX_TOKEN.lastIndex - m[1].length
    for (let k = 0; k < m[1].length; k++) {
      dump.s += m[1][k].toLowerCase()
      dump.at.push(start + k)
    }
  }
}

const bytesOf = (s: string): number[] => [...new TextEncoder().encode(s)]
const alnum = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '')
const hex2 = (b: number): string => b.toString(16).padStart(2, '0')
const rot13 = (s: string): string => s.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + 97))

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** base-2^bits of `bytes` preceded by `pad` unknown bytes: only the symbols no unknown byte touches. */
function baseN(bytes: number[], pad: number, bits: number, alphabet: string): string {
  const all = [...new Array<number>(pad).fill(0), ...bytes]
  let out = ''
  let acc = 0
  let n = 0
  let bit = 0
  const first = pad * 8
  const last = all.length * 8
  for (const b of all) {
    acc = (acc << 8) | b
    n += 8
    while (n >= bits) {
      n -= bits
      // The symbol covers bits [bit, bit+bits): stable only if they lie within the value's bytes.
      if (bit >= first && bit + bits <= last) out += alphabet[(acc >> n) & ((1 << bits) - 1)]
      else if (bit >= first) out += ' '
      bit += bits
    }
    acc &= (1 << n) - 1
  }
  return out
}

/** Bytes in words of `size`, little-endian (od -x, hexdump), the value starting `offset` bytes into a word. */
function swapped(bytes: number[], size: number, offset: number): string[] {
  const all: Array<number | null> = [...new Array<null>(offset).fill(null), ...bytes]
  while (all.length % size) all.push(null)
  let out = ''
  for (let w = 0; w < all.length; w += size) for (let k = size - 1; k >= 0; k--) out += all[w + k] === null ? ' ' : hex2(all[w + k] as number)
  return out.split(' ').filter(Boolean)
}

/** Every encoding of the secret, per view: segments of that view's alphabet (an unknown symbol splits them). */
function formsOf(secret: string): Record<ViewName, string[]> {
  const text: string[] = []
  const hex: string[] = []
  const digits: string[] = []
  for (const v of [secret, [...secret].reverse().join('')]) {
    const bytes = bytesOf(v)
    text.push(alnum(v), alnum(rot13(v)))
    for (let pad = 0; pad < 3; pad++) text.push(...baseN(bytes, pad, 6, B64).split(' ').map(alnum))
    for (let pad = 0; pad < 5; pad++) text.push(...baseN(bytes, pad, 5, B32).split(' ').map(alnum))
    hex.push(bytes.map(hex2).join(''))
    for (const size of [2, 4, 8]) for (let offset = 0; offset < size; offset++) hex.push(...swapped(bytes, size, offset))
    digits.push(bytes.map((b) => b.toString(8).padStart(3, '0')).join(''), bytes.map((b) => String(b)).join(''))
  }
  return { text: text.filter(Boolean), hex, dump: hex, digits }
}

/** Prefixes every key of a kind starts with (Anthropic, GitHub, GitLab, Slack, AWS key ids, npm, Stripe). */
const PUBLIC_PREFIX = /^(?:sk-ant-[a-z]+\d*-|github_pat_|gh[oprsu]_|glpat-|xox[abpr]-|AKIA|ASIA|npm_|[sprk]k_(?:live|test)_|sk-)/

/**
 * Only values shaped like a key or token are looked for in pieces: a credential-named variable can hold a
 * path or a word (`PASSWORD_STORE_DIR=/home/me/.password-store`), and hiding every 8 letters of that would
 * hide every path under the home folder. Such a value is still hidden whole (redact.ts).
 */
function tokenLike(v: string): boolean {
  if (/\s|:\/\//.test(v) || /^[/~.]/.test(v)) return false
  const a = alnum(v)
  return a.length >= MIN_PIECES_SECRET && /[0-9]/.test(a) && /[a-z]/.test(a) && new Set(a).size >= 10
}

function grams(segments: readonly string[], k: number, into: Set<string>): void {
  for (const s of segments) for (let i = 0; i + k <= s.length; i++) into.add(s.slice(i, i + k))
}

interface Known {
  forms: Record<ViewName, string[]>
  /** Built when the secret is first seen in a text. */
  edges?: Record<ViewName, Set<string>>
}

/** The registered secrets' pieces, and where they show in a text. */
export class SecretPieces {
  private readonly known: Known[] = []
  private readonly index: Record<ViewName, Map<string, number>> = { text: new Map(), hex: new Map(), dump: new Map(), digits: new Map() }

  add(secret: string): void {
    // Pieces are looked for in the part of the secret that is its own: a key's public prefix (`sk-ant-api03-`)
    // is in every key and in code that handles keys, which must stay readable. Once the secret is seen, its
    // edges are looked for in the whole of it, prefix included.
    const own = secret.replace(PUBLIC_PREFIX, '')
    if (!tokenLike(own)) return
    const id = this.known.length
    const forms = formsOf(own)
    this.known.push({ forms: formsOf(secret) })
    for (const view of VIEWS) {
      const set = new Set<string>()
      grams(forms[view], PIECE[view], set)
      for (const g of set) if (!this.index[view].has(g)) this.index[view].set(g, id)
    }
  }

  clear(): void {
    this.known.length = 0
    for (const view of VIEWS) this.index[view].clear()
  }

  get size(): number {
    return this.known.length
  }

  /** Stretches [start, end) of `text` that carry a piece of a secret, sorted and merged; empty when none. */
  spans(text: string): Array<[number, number]> {
    if (!this.known.length || text.length < EDGE.text) return []
    const v = views(text)
    const marks: Array<[number, number]> = []
    const seen = new Set<number>()
    for (const view of VIEWS) {
      const { s, at } = v[view]
      const k = PIECE[view]
      const index = this.index[view]
      for (let i = 0; i + k <= s.length; i++) {
        const id = index.get(s.slice(i, i + k))
        if (id === undefined) continue
        seen.add(id)
        marks.push([at[i], at[i + k - 1] + 1])
      }
    }
    for (const id of seen) {
      const known = this.known[id]
      known.edges ??= Object.fromEntries(VIEWS.map((view) => [view, new Set<string>()])) as Record<ViewName, Set<string>>
      for (const view of VIEWS) {
        const edges = known.edges[view]
        if (!edges.size) grams(known.forms[view], EDGE[view], edges)
        const { s, at } = v[view]
        const k = EDGE[view]
        for (let i = 0; i + k <= s.length; i++) if (edges.has(s.slice(i, i + k))) marks.push([at[i], at[i + k - 1] + 1])
      }
    }
    return merge(marks)
  }
}

function merge(marks: Array<[number, number]>): Array<[number, number]> {
  if (!marks.length) return marks
  marks.sort((a, b) => a[0] - b[0])
  const out: Array<[number, number]> = [marks[0]]
  for (const [a, b] of marks.slice(1)) {
    const last = out[out.length - 1]
    if (a <= last[1]) last[1] = Math.max(last[1], b)
    else out.push([a, b])
  }
  return out
}
