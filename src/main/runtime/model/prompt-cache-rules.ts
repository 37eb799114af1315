// The prompt cache's rules as the Messages API documents them ("Prompt caching", platform.claude.com), in one
// place for the two sides that must agree on them: the scripted server, which simulates the cache, and the
// runtime, which places breakpoints and decides when sharing a prefix is worth a wait.
//  - at most 4 `cache_control` breakpoints per request (a top-level `cache_control` takes one of them);
//  - a read looks back at most 20 blocks from each breakpoint, the breakpoint itself counted first;
//  - the prefix runs tools → system → messages, and an entry is keyed by a hash of everything up to its block;
//  - entries live 5 minutes (or 1 hour), counted from the start of the request that wrote or last read them;
//  - an entry can be read only once the response that wrote it has begun;
//  - a prefix shorter than the model's minimum is not cached at all (no error, both counts 0).

export const MAX_CACHE_BREAKPOINTS = 4
export const CACHE_LOOKBACK_BLOCKS = 20

export type CacheTtl = '5m' | '1h'
export const CACHE_TTL_MS: Readonly<Record<CacheTtl, number>> = Object.freeze({ '5m': 5 * 60_000, '1h': 60 * 60_000 })

/** Price multipliers on the base input price: a 5-minute write, a 1-hour write, a read. */
export const CACHE_PRICE = Object.freeze({ write5m: 1.25, write1h: 2, read: 0.1 })

/** `{type: 'ephemeral', ttl?}`'s ttl, or null for a value the API refuses. */
export function cacheTtlOf(control: unknown): CacheTtl | null {
  if (!control || typeof control !== 'object' || (control as { type?: unknown }).type !== 'ephemeral') return null
  const ttl = (control as { ttl?: unknown }).ttl
  if (ttl === undefined) return '5m'
  return ttl === '5m' || ttl === '1h' ? ttl : null
}

export interface ModelVersion {
  family: string
  major: number
  minor: number
  preview: boolean
}

/** `claude-opus-4-5-20251101` → opus 4.5; `claude-3-5-haiku-latest` → haiku 3.5; a dated suffix is not a minor. */
export function versionOf(model: string): ModelVersion | null {
  const id = model.toLowerCase()
  const newer = /(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2}))?(?!\d)/.exec(id)
  if (newer) return { family: newer[1], major: Number(newer[2]), minor: Number(newer[3] ?? 0), preview: id.includes('preview') }
  const older = /(\d+)-(\d{1,2})-(opus|sonnet|haiku)/.exec(id) ?? /(\d+)-(opus|sonnet|haiku)/.exec(id)
  if (!older) return null
  return older.length === 4
    ? { family: older[3], major: Number(older[1]), minor: Number(older[2]), preview: false }
    : { family: older[2], major: Number(older[1]), minor: 0, preview: false }
}

/**
 * The minimum cacheable prompt length of a model, in tokens ("Cache limitations"). A model newer than the
 * table takes its family's newest documented value; an unknown model takes 1,024.
 */
export function minCacheableTokens(model: string): number {
  const v = versionOf(model)
  if (!v) return 1024
  const at = (major: number, minor = 0) => v.major > major || (v.major === major && v.minor >= minor)
  switch (v.family) {
    case 'fable':
      return 512
    case 'mythos':
      return v.preview ? 2048 : 512
    case 'opus':
      if (at(5)) return 512
      if (at(4, 8)) return 1024
      if (at(4, 7)) return 2048
      if (at(4, 5)) return 4096
      return 1024
    case 'sonnet':
      return 1024
    case 'haiku':
      return at(4, 5) ? 4096 : 2048
    default:
      return 1024
  }
}
