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
// ends of a dump's lines (a few bytes of the secret beside a line break) go with the rest. Runs are found by a
// rolling hash over each view (class Grams): linear in the text, no substring made unless a hash matched.
// What this cannot see: pieces shorter than PIECE characters handed out one per command (`cut -c1-4`, then
// `cut -c5-8`…), and encodings it does not know (a cipher, a custom alphabet). Pure, no Node.

import { BAR, Grams } from './secret-grams'

/** Characters (of a view's alphabet) a run must share with a secret to be taken for a piece of it. */
const PIECE = { text: 8, hex: 16, dump: 16, digits: 24 } as const
/** Shorter runs taken once the secret is known to be in the text (the edges of a split). */
const EDGE = { text: 4, hex: 6, dump: 6, digits: 9 } as const
/** Secrets with fewer letters and digits than this are matched whole only (redact.ts): pieces would be too short to tell. */
export const MIN_PIECES_SECRET = 12

type ViewName = keyof typeof PIECE
const VIEWS: readonly ViewName[] = ['text', 'hex', 'dump', 'digits']

/**
 * A view of the text: characters of one alphabet as char codes, with each one's place in the text. Typed arrays
 * reused from call to call (spans() runs on every event, often on 100 KB of a tool's output): no string is
 * built and none sliced unless a gram's hash matches.
 */
class View {
  codes = new Uint16Array(1024)
  at = new Int32Array(1024)
  n = 0
  /** The longest run (no BAR in it): a gram of k characters can match only where one is k long. */
  longest = 0
  private run = 0

  reset(capacity: number): void {
    this.n = 0
    this.longest = 0
    this.run = 0
    if (this.codes.length >= capacity) return
    const size = Math.max(capacity, this.codes.length * 2)
    this.codes = new Uint16Array(size)
    this.at = new Int32Array(size)
  }

  push(code: number, i: number): void {
    if (this.n === this.codes.length) this.grow()
    this.codes[this.n] = code
    this.at[this.n++] = i
    this.run = code === BAR ? 0 : this.run + 1
    if (this.run > this.longest) this.longest = this.run
  }

  // '|' is in no secret's form, so a run of a view never matches across it.
  breakRun(i: number): void {
    if (this.n && this.codes[this.n - 1] !== BAR) this.push(BAR, i)
  }

  private grow(): void {
    const codes = new Uint16Array(this.codes.length * 2)
    const at = new Int32Array(this.codes.length * 2)
    codes.set(this.codes)
    at.set(this.at)
    this.codes = codes
    this.at = at
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39
const isLower = (c: number) => c >= 0x61 && c <= 0x7a
const isHexCode = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
/** The character lowercased, as one code (a non-ASCII letter whose lowercase is an ASCII one counts as it). */
function lower(text: string, i: number): number {
  const c = text.charCodeAt(i)
  if (c >= 0x41 && c <= 0x5a) return c + 32
  if (c < 0x80) return c
  const l = text[i].toLowerCase().charCodeAt(0)
  return l < 0x80 ? l : c
}

const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/y
// A line number (cat -n, nl, grep -n) or a dump offset (od, xxd, hexdump) that starts a line.
// (A number followed by a space is left alone: `od -An -tx1` starts its lines with a byte, not an offset.)
const LINE_PREFIX = /[ \t]*(?:[0-9a-fA-F]{6,}(?::|(?=[\t ]))|\d+(?=[:\t]))[:]?/y

const newViews = (): Record<ViewName, View> => ({ text: new View(), hex: new View(), dump: new View(), digits: new View() })
const scratch = newViews()
/** Texts longer than this get views of their own, let go after: the reused ones never grow past it. */
const SCRATCH_MAX = 1 << 18

function views(text: string): Record<ViewName, View> {
  const out = text.length > SCRATCH_MAX ? newViews() : scratch
  for (const view of VIEWS) out[view].reset(text.length + 1)
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
    const raw = text.charCodeAt(i)
    if (raw === 0x0a || raw === 0x0d) {
      lineStart = true
      continue
    }
    if (raw === 0x1b) {
      ANSI.lastIndex = i
      const m = ANSI.exec(text)
      if (m) {
        i += m[0].length - 1
        continue
      }
    }
    // `%2D` in a URL-encoded copy is the character it encodes (the hex view reads its digits as they are).
    if (raw === 0x25 && isHexCode(text.charCodeAt(i + 1)) && isHexCode(text.charCodeAt(i + 2))) {
      const byte = Number.parseInt(text.slice(i + 1, i + 3), 16)
      const decoded = byte >= 0x41 && byte <= 0x5a ? byte + 32 : byte
      if (isLower(decoded) || isDigit(decoded)) out.text.push(decoded, i)
      for (const k of [i + 1, i + 2]) {
        const d = lower(text, k)
        out.hex.push(d, k)
        if (isDigit(d)) out.digits.push(d, k)
      }
      i += 2
      continue
    }
    // `0x73` (a C array of bytes): the 0x is no digit of the value.
    if (raw === 0x30 && (text.charCodeAt(i + 1) | 0x20) === 0x78 && isHexCode(text.charCodeAt(i + 2))) {
      i++
      continue
    }
    const c = lower(text, i)
    if (isLower(c) || isDigit(c)) out.text.push(c, i)
    if (isDigit(c) || (c >= 0x61 && c <= 0x66)) out.hex.push(c, i)
    // A letter no hex digit is ends a run of the hex view (a dump never has one between its bytes; `\x73` has an x
    // that is no byte's), and any letter ends a run of the digits view: `w30 w31 w32` is words, not the bytes 0 1 2.
    else if (c >= 0x67 && c <= 0x7a && !(c === 0x78 && text.charCodeAt(i - 1) === 0x5c)) out.hex.breakRun(i)
    if (isDigit(c)) out.digits.push(c, i)
    else if (isLower(c)) out.digits.breakRun(i)
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
    for (let k = 0; k < m[1].length; k++) dump.push(lower(text, start + k), start + k)
  }
}

// Made once per secret and view, in code not yet optimized (the API key's, before a run's first request): plain
// loops and tables, no array spread or callback per character.
const bytesOf = (s: string): number[] => [...new TextEncoder().encode(s)]
const alnum = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '')
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'))
const OCTAL = Array.from({ length: 256 }, (_, b) => b.toString(8).padStart(3, '0'))
/** Letters turned 13 places, lowercased; anything else as it is. */
function rot13(s: string): string {
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const l = s.charCodeAt(i) | 0x20
    out += l >= 0x61 && l <= 0x7a ? String.fromCharCode(((l - 0x61 + 13) % 26) + 0x61) : s[i]
  }
  return out
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** base-2^bits of `bytes` preceded by `pad` unknown bytes: only the symbols no unknown byte touches. */
function baseN(bytes: number[], pad: number, bits: number, alphabet: string): string {
  let out = ''
  let acc = 0
  let n = 0
  let bit = 0
  const first = pad * 8
  const last = (pad + bytes.length) * 8
  for (let i = 0; i < pad + bytes.length; i++) {
    acc = (acc << 8) | (i < pad ? 0 : bytes[i - pad]!)
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

/** Bytes in words of `size`, little-endian (od -x, hexdump), the value starting `offset` bytes into a word: its runs of hex. */
function swapped(bytes: number[], size: number, offset: number): string[] {
  const words = Math.ceil((offset + bytes.length) / size) * size
  const out: string[] = []
  let run = ''
  for (let w = 0; w < words; w += size)
    for (let k = size - 1; k >= 0; k--) {
      const i = w + k - offset
      if (i >= 0 && i < bytes.length) run += HEX[bytes[i]!]
      else if (run) {
        out.push(run)
        run = ''
      }
    }
  if (run) out.push(run)
  return out
}

/** Every encoding of the secret in one view's alphabet: segments of it (an unknown symbol splits them). */
function formsOf(secret: string, view: BuiltView): string[] {
  const out: string[] = []
  for (const v of [secret, [...secret].reverse().join('')]) {
    const bytes = bytesOf(v)
    if (view === 'text') {
      out.push(alnum(v), alnum(rot13(v)))
      for (let pad = 0; pad < 3; pad++) out.push(...baseN(bytes, pad, 6, B64).split(' ').map(alnum))
      for (let pad = 0; pad < 5; pad++) out.push(...baseN(bytes, pad, 5, B32).split(' ').map(alnum))
    } else if (view === 'hex') {
      out.push(bytes.map((b) => HEX[b]).join(''))
      for (const size of [2, 4, 8]) for (let offset = 0; offset < size; offset++) out.push(...swapped(bytes, size, offset))
    } else out.push(bytes.map((b) => OCTAL[b]).join(''), bytes.join(''))
  }
  return out.filter(Boolean)
}

/** Prefixes every key of a kind starts with (Anthropic, GitHub, GitLab, Slack, AWS key ids, npm, Stripe). */
const PUBLIC_PREFIX = /^(?:sk-ant-[a-z]+\d*-|github_pat_|gh[oprsu]_|glpat-|xox[abpr]-|AKIA|ASIA|npm_|[sprk]k_(?:live|test)_|sk-)/

/**
 * Only values shaped like a key or token are looked for in pieces: a credential-named variable can hold a
 * path or a word (`PASSWORD_STORE_DIR=/home/me/.password-store`), and hiding every 8 letters of that would
 * hide every path under the home folder. Such a value is still hidden whole (redact.ts). A value counts as a
 * token when it mixes letters and digits, or when it starts with a key's public prefix: a key's random body
 * may hold no digit (eleven random base-36 characters lack one about one time in 35).
 */
function tokenLike(v: string, keyPrefixed: boolean): boolean {
  if (/\s|:\/\//.test(v) || /^[/~.]/.test(v)) return false
  const a = alnum(v)
  if (a.length < MIN_PIECES_SECRET || !/[a-z]/.test(a) || new Set(a).size < 10) return false
  return keyPrefixed || /[0-9]/.test(a)
}

/** The views' grams. A dump's columns are hex digits, and PIECE and EDGE are the same for both: one index serves the two. */
function viewGrams(length: Record<ViewName, number>, stride = 1): Record<ViewName, Grams> {
  const hex = new Grams(length.hex, stride)
  return { text: new Grams(length.text, stride), hex, dump: hex, digits: new Grams(length.digits, stride) }
}
/** Every how many characters of a form a gram is kept in the index of pieces (class Grams). */
const PIECE_STRIDE = 4
/** The views whose grams are built (dump reads hex's). */
type BuiltView = Exclude<ViewName, 'dump'>
const BUILT: readonly BuiltView[] = ['text', 'hex', 'digits']
const builtFor = (view: ViewName): BuiltView => (view === 'dump' ? 'hex' : view)

interface Known {
  /** The whole secret, public prefix included: its edges are looked for in all of it. */
  secret: string
  /** The secret without its public prefix: pieces are looked for in it. */
  own: string
  /** Built when the secret is first seen in a text. */
  edges?: Record<ViewName, Grams>
}

/** The registered secrets' pieces, and where they show in a text. */
export class SecretPieces {
  private readonly known: Known[] = []
  private index: Record<ViewName, Grams>
  /** Per view, how many of the known secrets have their grams in the index (the first ones). */
  private readonly indexed: Record<BuiltView, number> = { text: 0, hex: 0, digits: 0 }

  /** `stride`: every how many characters of a form a gram is indexed (1: all; for tests, to compare). */
  constructor(private readonly stride = PIECE_STRIDE) {
    this.index = viewGrams(PIECE, stride)
  }

  add(secret: string): void {
    // Pieces are looked for in the part of the secret that is its own: a key's public prefix (`sk-ant-api03-`)
    // is in every key and in code that handles keys, which must stay readable. Once the secret is seen, its
    // edges are looked for in the whole of it, prefix included.
    const own = secret.replace(PUBLIC_PREFIX, '')
    if (!tokenLike(own, own !== secret)) return
    this.known.push({ secret, own })
  }

  clear(): void {
    this.known.length = 0
    this.index = viewGrams(PIECE, this.stride)
    for (const view of BUILT) this.indexed[view] = 0
  }

  /** Builds every view's grams of the known secrets now (a moment the process is idle), not at the first text that needs them. */
  prepare(): void {
    for (const view of BUILT) this.indexFor(view)
  }

  get size(): number {
    return this.known.length
  }

  // A view's grams are built at the first text that could hold one, not when the secret is registered: the API key
  // is registered on the way to a run's first request, and its ~10,000 grams (in code not yet optimized) cost more
  // there than anything else between. Most texts have no run of 16 hex digits or 24 decimal ones, so the text
  // view's grams (a third) are often the only ones a run's first events need.
  private indexFor(view: BuiltView): void {
    for (let id = this.indexed[view]; id < this.known.length; id++) this.index[view].addAll(formsOf(this.known[id].own, view), id)
    this.indexed[view] = this.known.length
  }

  /** Stretches [start, end) of `text` that carry a piece of a secret, sorted and merged; empty when none. */
  spans(text: string): Array<[number, number]> {
    if (!this.known.length || text.length < EDGE.text) return []
    const v = views(text)
    const marks: Array<[number, number]> = []
    const seen = new Set<number>()
    for (const view of VIEWS) {
      const { at, longest } = v[view]
      if (longest < PIECE[view]) continue
      this.indexFor(builtFor(view))
      this.index[view].scan(v[view], (from, to, id) => {
        seen.add(id)
        marks.push([at[from], at[to - 1] + 1])
      })
    }
    for (const id of seen) {
      const known = this.known[id]
      if (!known.edges) {
        known.edges = viewGrams(EDGE)
        for (const view of BUILT) known.edges[view].addAll(formsOf(known.secret, view), 0)
      }
      for (const view of VIEWS) {
        const { at } = v[view]
        known.edges[view].scan(v[view], (from, to) => marks.push([at[from], at[to - 1] + 1]))
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
