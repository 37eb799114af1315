// Random names for Fanout's own files and ids (temp files, agent ids, delivery and request ids): hex drawn from a
// pool of random bytes filled 4 KB at a time. Each crypto.randomBytes call is a call into OpenSSL and the kernel
// that costs as much for 4 bytes as for 4 KB (~14 µs either way on the machine measured), and a 16-way `fanout
// run` made 41 such calls for its temps and ids, most of them while siblings were starting. The bytes are the same CSPRNG's;
// only the calls are fewer. Secrets (a server's token) take their own randomBytes, never from here.
import { randomFillSync } from 'node:crypto'

const POOL_BYTES = 4096
const pool = Buffer.alloc(POOL_BYTES)
let at = POOL_BYTES

/** `bytes` random bytes as lowercase hex (2 × bytes characters); bytes ≤ 4096. */
export function randomHex(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > POOL_BYTES) throw new RangeError(`randomHex: ${bytes} bytes is not 1 to ${POOL_BYTES}`)
  if (at + bytes > POOL_BYTES) {
    randomFillSync(pool)
    at = 0
  }
  const hex = pool.toString('hex', at, at + bytes)
  at += bytes
  return hex
}
