// The scripted server's prompt cache, simulated as the Messages API documents it (see prompt-cache-rules.ts):
// the prompt is a chain of blocks (each tool, each system block, each message content block) whose running
// hash keys the entries. A request is planned when it arrives — what it reads (the highest entry found
// looking back up to 20 blocks from each breakpoint, latest breakpoint first), what it writes (an entry at
// each breakpoint past that hit, when the prefix reaches the model's minimum) — and its writes become
// readable only when its response begins (`commit`), so requests sent at the same instant all miss.
// Entries are per workspace (the API key) and per model; they expire a TTL after the start of the last
// request that wrote or read them. The clock is injectable so tests never wait.
import { createHash } from 'node:crypto'
import { CACHE_LOOKBACK_BLOCKS, CACHE_TTL_MS, cacheTtlOf, MAX_CACHE_BREAKPOINTS, minCacheableTokens, type CacheTtl } from '../prompt-cache-rules'

export interface CacheUsage {
  /** Input tokens after the last breakpoint written or read (`usage.input_tokens`). */
  uncached: number
  read: number
  write5m: number
  write1h: number
}

export interface CachePlan extends CacheUsage {
  /** All input tokens: uncached + read + writes. */
  total: number
  /** Block index of the entry read, -1 for none. */
  hitAt: number
  /** Entries this request writes when its response begins. */
  writes: Array<{ key: string; ttl: CacheTtl }>
  /** The request's arrival (ms on the cache's clock): lifetimes count from here. */
  at: number
}

interface Entry {
  ttl: CacheTtl
  /** The response that wrote it began here; earlier arrivals cannot read it. */
  availableAt: number
  expiresAt: number
}

interface Block {
  /** Running hash through this block. */
  key: string
  /** Running token count through this block. */
  tokens: number
  /** The block's own cache_control ttl, if it is a breakpoint. */
  breakpoint?: CacheTtl
  eligible: boolean
}

export interface PromptCacheOptions {
  /** Milliseconds; default performance.now. */
  now?: () => number
  minTokens?: (model: string) => number
}

/** About four characters a token, as the rest of the scripted server counts. */
const tokensOf = (chars: number) => Math.round(chars / 4)

const hash = (prev: string, text: string) => createHash('sha1').update(prev).update('\u0000').update(text).digest('base64')

/** A block as it takes part in the prompt: everything but its cache_control marker. */
function canonical(block: unknown): string {
  if (!block || typeof block !== 'object') return JSON.stringify(block)
  const { cache_control: _marker, ...rest } = block as Record<string, unknown>
  return JSON.stringify(rest)
}

function blocksOf(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  return Array.isArray(content) ? content : []
}

const BILLING_HEADER = 'x-anthropic-billing-header:'

const isThinking = (b: any) => b?.type === 'thinking' || b?.type === 'redacted_thinking'
const hasImage = (body: any) => JSON.stringify(body.messages ?? []).includes('"type":"image"')

/**
 * What the prompt renders besides its blocks, per level of the hierarchy: a change at a level invalidates
 * that level and the ones after it ("What invalidates the cache"). Thinking and effort are taken to render
 * ahead of the messages only (the docs leave tools and system model-specific).
 */
function levelSalts(body: any): { tools: string; system: string; messages: string } {
  return {
    tools: '',
    system: JSON.stringify({ speed: body.speed ?? 'standard' }),
    messages: JSON.stringify({
      thinking: body.thinking ?? null,
      effort: body.output_config?.effort ?? null,
      toolChoice: body.tool_choice ?? null,
      images: hasImage(body)
    })
  }
}

/** The body as a chain of blocks, or the API's 400 message for breakpoints it refuses. */
export function cacheBlocks(body: any, workspace: string): { blocks: Block[]; total: number } | { error: string } {
  const salts = levelSalts(body)
  const raw: Array<{ text: string; control: unknown; eligible: boolean; salt?: string; where: string; thinking: boolean }> = []
  const tools: any[] = Array.isArray(body.tools) ? body.tools : []
  tools.forEach((t, i) =>
    raw.push({ text: canonical(t), control: t?.cache_control, eligible: true, where: `tools.${i}`, thinking: false, ...(i === 0 ? { salt: salts.tools } : {}) })
  )
  // Claude Code's attribution line (`x-anthropic-billing-header: …`, first in its system prompt) is lifted out by
  // the API for billing: it is not part of the prompt, so it keys nothing.
  const system = (
    typeof body.system === 'string' ? (body.system ? [{ type: 'text', text: body.system }] : []) : Array.isArray(body.system) ? body.system : []
  ).filter((b: any) => !(typeof b?.text === 'string' && b.text.startsWith(BILLING_HEADER)))
  system.forEach((b: any, i: number) =>
    raw.push({
      text: canonical(b),
      control: b?.cache_control,
      eligible: !!b?.text,
      where: `system.${i}`,
      thinking: false,
      ...(i === 0 ? { salt: salts.system } : {})
    })
  )
  let first = true
  for (const [mi, m] of (Array.isArray(body.messages) ? body.messages : []).entries()) {
    blocksOf(m?.content).forEach((b: any, bi) => {
      // The role and the message boundary are part of what the model reads.
      raw.push({
        text: `${bi === 0 ? `<${m.role}>` : ''}${canonical(b)}`,
        control: b?.cache_control,
        eligible: !isThinking(b) && !(b?.type === 'text' && !b.text),
        where: `messages.${mi}.content.${bi}`,
        thinking: isThinking(b),
        ...(first ? { salt: salts.messages } : {})
      })
      first = false
    })
  }

  let explicit = 0
  let lastTtl: CacheTtl | null = null
  for (const r of raw) {
    if (r.control === undefined || r.control === null) continue
    if (r.thinking) return { error: `${r.where}.cache_control: Thinking blocks cannot be cached directly with cache_control.` }
    const ttl = cacheTtlOf(r.control)
    if (!ttl) return { error: `${r.where}.cache_control: Input should be {"type": "ephemeral"} with an optional ttl of "5m" or "1h".` }
    if (ttl === '1h' && lastTtl === '5m')
      return { error: `${r.where}.cache_control: a ttl='1h' cache_control block must not come after a ttl='5m' block (longer TTLs first).` }
    lastTtl = ttl
    explicit++
  }
  const marks: Array<CacheTtl | undefined> = raw.map((r) => (r.control ? (cacheTtlOf(r.control) ?? undefined) : undefined))
  if (body.cache_control !== undefined) {
    // Automatic caching: a breakpoint on the last block that can carry one.
    const ttl = cacheTtlOf(body.cache_control)
    if (!ttl) return { error: 'cache_control: Input should be {"type": "ephemeral"} with an optional ttl of "5m" or "1h".' }
    let at = raw.length - 1
    while (at >= 0 && !raw[at].eligible) at--
    if (at >= 0 && marks[at] !== undefined && marks[at] !== ttl)
      return { error: `cache_control: the last block already has a cache_control with ttl '${marks[at]}', not '${ttl}'.` }
    if (at >= 0 && marks[at] === undefined) {
      if (explicit >= MAX_CACHE_BREAKPOINTS)
        return {
          error: `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided, and automatic caching needs one of them. Found ${explicit}.`
        }
      if (ttl === '1h' && marks.includes('5m'))
        return { error: "cache_control: a ttl='1h' automatic breakpoint must not come after a ttl='5m' block (longer TTLs first)." }
      marks[at] = ttl
      explicit++
    }
  }
  if (explicit > MAX_CACHE_BREAKPOINTS) return { error: `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${explicit}.` }

  let key = hash(workspace, `model:${body.model}`)
  let chars = 0
  const blocks: Block[] = raw.map((r, i) => {
    key = hash(key, (r.salt ?? '') + r.text)
    chars += r.text.length
    return { key, tokens: tokensOf(chars), eligible: r.eligible, ...(marks[i] ? { breakpoint: marks[i] } : {}) }
  })
  return { blocks, total: Math.max(1, tokensOf(chars)) }
}

export class PromptCache {
  private readonly entries = new Map<string, Entry>()
  private readonly now: () => number
  private readonly minTokens: (model: string) => number

  constructor(opts: PromptCacheOptions = {}) {
    this.now = opts.now ?? (() => performance.now())
    this.minTokens = opts.minTokens ?? minCacheableTokens
  }

  /** Forgets every entry (a benchmark's next run starts cold). */
  clear(): void {
    this.entries.clear()
  }

  /** Live entries (tests). */
  size(): number {
    const t = this.now()
    return [...this.entries.values()].filter((e) => e.expiresAt > t).length
  }

  /** What a request arriving now reads and will write; an error is the API's 400 message. */
  plan(body: any, workspace = ''): CachePlan | { error: string } {
    const chain = cacheBlocks(body, workspace)
    if ('error' in chain) return chain
    const { blocks, total } = chain
    const at = this.now()
    this.evict(at)
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []))
    const readable = (i: number) => {
      const e = this.entries.get(blocks[i].key)
      return e !== undefined && e.availableAt <= at && e.expiresAt > at
    }
    let hitAt = -1
    for (let k = breakpoints.length - 1; k >= 0 && hitAt < 0; k--) {
      const bp = breakpoints[k]
      for (let i = bp; i > bp - CACHE_LOOKBACK_BLOCKS && i >= 0; i--) {
        if (readable(i)) {
          hitAt = i
          break
        }
      }
    }
    if (hitAt >= 0) {
      // A read refreshes the entry's lifetime, from this request's start.
      const e = this.entries.get(blocks[hitAt].key)!
      e.expiresAt = Math.max(e.expiresAt, at + CACHE_TTL_MS[e.ttl])
    }
    const tokensAt = (i: number) => (i < 0 ? 0 : blocks[i].tokens)
    const min = this.minTokens(String(body.model))
    const writing = breakpoints.filter((i) => i > hitAt && tokensAt(i) >= min)
    // Billing positions as the docs define them: A the hit, B the last 1-hour write, C the last write.
    const a = tokensAt(hitAt)
    const lastHour = writing.filter((i) => blocks[i].breakpoint === '1h').pop()
    const b = lastHour !== undefined ? tokensAt(lastHour) : a
    const c = writing.length ? tokensAt(writing[writing.length - 1]) : a
    return {
      total,
      uncached: Math.max(0, total - c),
      read: a,
      write1h: b - a,
      write5m: c - b,
      hitAt,
      writes: writing.map((i) => ({ key: blocks[i].key, ttl: blocks[i].breakpoint! })),
      at
    }
  }

  /** The response to a planned request began: its entries become readable from now. */
  commit(plan: CachePlan): void {
    const t = this.now()
    for (const w of plan.writes) {
      const expiresAt = plan.at + CACHE_TTL_MS[w.ttl]
      const e = this.entries.get(w.key)
      if (e && e.expiresAt > t) {
        e.expiresAt = Math.max(e.expiresAt, expiresAt)
        if (w.ttl === '1h') e.ttl = '1h'
      } else this.entries.set(w.key, { ttl: w.ttl, availableAt: t, expiresAt })
    }
  }

  private evict(t: number): void {
    if (this.entries.size < 10_000) return
    for (const [k, e] of this.entries) if (e.expiresAt <= t) this.entries.delete(k)
  }
}
