// The index behind secret-pieces.ts: runs of a secret's encoded forms, found in a view of a text (the view's
// characters as codes) by a rolling hash over grams. Pure, no Node.

/** Separates runs in a view and forms in the index: '|' is in no secret's form, so no run matches across it. */
export const BAR = 0x7c

/** A view of a text as the index reads it: its characters' codes, the first `n` of them. */
export interface ViewCodes {
  codes: Uint16Array
  n: number
}

/** Multiplier of the rolling hash (odd, so each k-gram's hash is a polynomial of its codes mod 2^32). */
const BASE = 0x01000193
/** Bits of the filter that most positions are turned away by before the table is probed. */
const FILTER_BITS = 16

/**
 * Where runs of at least `length` characters of the secrets' forms show in a view. Grams of k characters and
 * the secret each belongs to are found by a rolling hash: each position of the view costs a multiply, a bit
 * test and, on the rare filter hit, a probe of the table; a gram is compared character by character only when
 * its hash matched, and a gram that matched is extended both ways along the form it came from, to tell whether
 * the run it is part of is `length` long.
 *
 * Only every `stride`-th gram of a form is kept, k being `length - stride + 1`: a run of `length` characters of a
 * form always holds one of those. The API key is registered on the way to a run's first request, and its grams
 * are indexed at the first texts (redact.ts): a key of ~100 characters has ~10,000 grams across its encodings,
 * ~15 ms to index in code not yet optimized; every fourth, a quarter of that. Nothing is allocated per gram
 * either: the forms' codes are copied once into one array, and a gram is its start there, in a table of typed
 * arrays (open addressing).
 */
export class Grams {
  /** The forms' codes, one after another, BAR after each (no run of a view holds one): a gram is k codes of it. */
  private codes = new Uint16Array(1024)
  private used = 0
  /** The table: a slot's gram start (-1: empty), its full hash and its secret. */
  private starts = new Int32Array(1024).fill(-1)
  private hashes = new Int32Array(1024)
  private ids = new Int32Array(1024)
  private count = 0
  private readonly filter = new Uint32Array((1 << FILTER_BITS) >>> 5)
  private readonly k: number
  /** BASE^(k-1) mod 2^32: what the character leaving the window contributed. */
  private readonly out: number

  constructor(
    readonly length: number,
    private readonly stride = 1
  ) {
    this.k = length - stride + 1
    let p = 1
    for (let i = 1; i < this.k; i++) p = Math.imul(p, BASE)
    this.out = p
  }

  /**
   * Every stride-th gram of the segments, for `id` (the same gram in two places is kept twice: each is extended).
   * A gram's hash is the one scan() rolls to, taken from the segment's prefix hashes when grams are much longer than
   * the stride (P[i+k] - P[i]·BASE^k: one multiply a character and one a gram, where hashing each gram afresh took
   * k a gram; the hex view's ~1,400 grams of 13 took ~6 ms of a run's start in code not yet optimized).
   */
  addAll(segments: readonly string[], id: number): void {
    const { k, stride, filter } = this
    // Room for them all at once: growing the table as it fills rehashes it each time.
    let grams = 0
    let longest = 0
    for (const s of segments)
      if (s.length >= this.length) {
        grams += Math.ceil((s.length - k + 1) / stride)
        longest = Math.max(longest, s.length)
      }
    this.reserve(this.count + grams)
    const { starts, hashes, ids } = this
    const mask = starts.length - 1
    const byPrefix = k > 2 * stride
    const prefix = byPrefix ? new Int32Array(longest + 1) : null
    const outK = Math.imul(this.out, BASE)
    let count = this.count
    for (const s of segments) {
      if (s.length < this.length) continue
      const base = this.append(s)
      const codes = this.codes
      if (prefix) for (let p = 0, h = 0; p < s.length; p++) prefix[p + 1] = h = (Math.imul(h, BASE) + codes[base + p]) | 0
      for (let i = 0; i + k <= s.length; i += stride) {
        let h = 0
        if (prefix) h = (prefix[i + k] - Math.imul(prefix[i], outK)) | 0
        else for (let j = 0; j < k; j++) h = (Math.imul(h, BASE) + codes[base + i + j]) | 0
        const m = slot(h)
        let at = m & mask
        while (starts[at] !== -1) at = (at + 1) & mask
        starts[at] = base + i
        hashes[at] = h
        ids[at] = id
        count++
        const bit = m >>> (32 - FILTER_BITS)
        filter[bit >>> 5] |= 1 << (bit & 31)
      }
    }
    this.count = count
  }

  /**
   * Calls `hit(from, to, id)` for each stretch [from, to) of the view that is a run of at least `length` characters
   * of a secret's form (a stretch may be reported more than once).
   */
  scan(view: ViewCodes, hit: (from: number, to: number, id: number) => void): void {
    const { k, starts, hashes, ids, codes, length, used } = this
    const mask = starts.length - 1
    const { codes: text, n } = view
    if (n < length || !this.count) return
    let h = 0
    for (let i = 0; i < k - 1; i++) h = (Math.imul(h, BASE) + text[i]) | 0
    for (let i = 0; i + k <= n; i++) {
      h = (Math.imul(h, BASE) + text[i + k - 1]) | 0
      const mixed = slot(h)
      const bit = mixed >>> (32 - FILTER_BITS)
      if (this.filter[bit >>> 5] & (1 << (bit & 31))) {
        for (let at = mixed & mask; starts[at] !== -1; at = (at + 1) & mask) {
          const start = starts[at]
          if (hashes[at] !== h || !same(text, i, codes, start, k)) continue
          // Along the form, both ways, while the view agrees (a BAR ends a form, and a run of the view).
          let before = 0
          while (before < i && before < start && text[i - before - 1] === codes[start - before - 1] && codes[start - before - 1] !== BAR) before++
          let after = 0
          while (i + k + after < n && start + k + after < used && text[i + k + after] === codes[start + k + after] && codes[start + k + after] !== BAR) after++
          if (before + k + after >= length) hit(i - before, i + k + after, ids[at])
        }
      }
      h = (h - Math.imul(text[i], this.out)) | 0
    }
  }

  /** Copies a segment's codes, and a BAR after them, to the end of `codes`; where they start. */
  private append(s: string): number {
    if (this.used + s.length + 1 > this.codes.length) {
      const codes = new Uint16Array(Math.max(this.codes.length * 2, this.used + s.length + 1))
      codes.set(this.codes.subarray(0, this.used))
      this.codes = codes
    }
    const base = this.used
    for (let i = 0; i < s.length; i++) this.codes[base + i] = s.charCodeAt(i)
    this.codes[base + s.length] = BAR
    this.used += s.length + 1
    return base
  }

  /** A table at most half full with `count` grams. */
  private reserve(count: number): void {
    const { starts, hashes, ids } = this
    let size = starts.length
    while (count * 2 > size) size *= 2
    if (size === starts.length) return
    const mask = size - 1
    this.starts = new Int32Array(size).fill(-1)
    this.hashes = new Int32Array(size)
    this.ids = new Int32Array(size)
    for (let j = 0; j < starts.length; j++) {
      if (starts[j] === -1) continue
      let at = slot(hashes[j]) & mask
      while (this.starts[at] !== -1) at = (at + 1) & mask
      this.starts[at] = starts[j]
      this.hashes[at] = hashes[j]
      this.ids[at] = ids[j]
    }
  }
}

/**
 * A hash's bits mixed, all of them (a polynomial hash's low bits vary least, and the table's slot is its low
 * bits: unmixed, they cluster and the probes run long): its top bits pick the filter's bit.
 */
function slot(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d)
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b)
  return (h ^ (h >>> 16)) >>> 0
}

function same(a: Uint16Array, at: number, b: Uint16Array, from: number, k: number): boolean {
  for (let j = 0; j < k; j++) if (a[at + j] !== b[from + j]) return false
  return true
}
