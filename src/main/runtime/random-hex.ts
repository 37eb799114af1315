// Random names for Fanout's own files and ids (temp files, agent, session and lock ids, delivery and request ids):
// hex drawn from a pool of random bytes filled 4 KB at a time. Each crypto.randomBytes call is a call into OpenSSL
// and the kernel that costs as much for 4 bytes as for 4 KB (~14 µs either way on the machine measured), and a
// 16-way `fanout run` made 41 such calls for its temps and ids, most of them while siblings were starting. Where
// the system has one, the pool is read from the kernel's own generator (/dev/urandom, what OpenSSL seeds from):
// `fanout run` makes its session's ids before its first request, and loading node:crypto for them cost that
// request ~3-4.5 ms (the CLI loads it at its first use: scripts/build.mjs). Secrets (a server's token) take their
// own randomBytes, never from here.
import { randomFillSync } from 'node:crypto'
import { closeSync, openSync, readSync } from 'node:fs'
import { madeClean } from '../../shared/redact'

const POOL_BYTES = 4096
const pool = Buffer.alloc(POOL_BYTES)
let at = POOL_BYTES

/** Fills `into` from /dev/urandom; false when it cannot be read whole (no such device: Windows). */
function fromKernel(into: Buffer): boolean {
  if (process.platform === 'win32') return false
  let fd: number | undefined
  try {
    fd = openSync('/dev/urandom', 'r')
    // A read of more than 256 bytes may come back short (a signal): read on until the buffer is full.
    for (let done = 0; done < into.length; ) {
      const n = readSync(fd, into, done, into.length - done, null)
      if (n <= 0) return false
      done += n
    }
    return true
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Fills `into` with fresh random bytes: the kernel's, else OpenSSL's. */
function fillRandom(into: Buffer): void {
  if (!fromKernel(into)) randomFillSync(into)
}

/** `bytes` random bytes as lowercase hex (2 × bytes characters); bytes ≤ 4096. */
export function randomHex(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > POOL_BYTES) throw new RangeError(`randomHex: ${bytes} bytes is not 1 to ${POOL_BYTES}`)
  if (at + bytes > POOL_BYTES) {
    fillRandom(pool)
    at = 0
  }
  const hex = pool.toString('hex', at, at + bytes)
  at += bytes
  return hex
}

/** A random (version 4) UUID, as crypto.randomUUID() spells one: 122 random bits from the same pool. */
export function randomUuid(): string {
  const h = randomHex(16)
  // The version nibble is 4; the variant's two high bits are 10 (8, 9, a or b).
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/**
 * randomUuid(), noted as holding no secret (madeClean, shared/redact.ts): for ids made here that go out through the
 * redaction (a result or stream-json line's uuid, a message's or a team op's id). A new one is not scanned for a
 * piece of a secret: the result line's cost ~0.1-0.2 ms on the way to `fanout run`'s answer.
 */
export const cleanUuid = (): string => madeClean(randomUuid())
