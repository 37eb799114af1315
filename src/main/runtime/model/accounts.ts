// One cache-sharing gate and one rate limiter per endpoint and credential, as the prompt cache and the rate
// limits are per workspace: every client of the process (each session's) on the same account shares them.
import { quickDigest } from '../quick-hash'
import { CacheSharingGate } from './cache-sharing'
import { RateLimiter } from './rate-limiter'

interface Account {
  gate: CacheSharingGate
  limiter: RateLimiter
}

const accounts = new Map<string, Account>()

/** The gate and the limiter of the account at `baseURL` with `credential` (only a hash of it is kept). */
export function accountOf(baseURL: string, credential: string): Account {
  // Which account, not a proof of it: a digest that needs no node:crypto before the first request (quick-hash.ts).
  const id = `${baseURL}\u0000${quickDigest(credential).toString('base64')}`
  let account = accounts.get(id)
  if (!account) accounts.set(id, (account = { gate: new CacheSharingGate(), limiter: new RateLimiter() }))
  return account
}
