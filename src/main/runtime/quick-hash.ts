// A digest for telling values apart that nobody chooses against it: which Node made a code cache, which
// account a client is on. Not cryptographic: never for a secret's integrity or anything an attacker picks. It
// exists so that a start does not load node:crypto (~3-4.5 ms before `fanout run`'s first request) to hash a
// few dozen characters. Each 32-bit lane runs FNV-1a over the text's UTF-16 code units with its own offset and
// multiplier, ends with the text's length and murmur3's finalizer; lanes are independent enough that two
// different texts of this kind agree on all of them by chance alone (2^-32 per lane).
const LANE_PRIMES = [0x01000193, 0x0100019d, 0x010001a7, 0x010001b5, 0x010001c1, 0x010001c9, 0x010001d1, 0x010001e7]

function fmix32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** `bytes` bytes (4 to 32, a multiple of 4) of digest of `text`. */
export function quickDigest(text: string, bytes = 16): Buffer {
  if (!Number.isInteger(bytes) || bytes < 4 || bytes > 4 * LANE_PRIMES.length || bytes % 4)
    throw new RangeError(`quickDigest: ${bytes} bytes is not 4 to 32 in fours`)
  const out = Buffer.alloc(bytes)
  for (let lane = 0; lane < bytes / 4; lane++) {
    const prime = LANE_PRIMES[lane]!
    let h = (0x811c9dc5 ^ Math.imul(lane + 1, 0x9e3779b9)) >>> 0
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), prime)
    out.writeUInt32LE(fmix32(h ^ text.length), lane * 4)
  }
  return out
}
