// Connections opened while a reply streams, for the subagents its calls will start: each of their first
// requests then finds a connection open instead of making one (a TCP and a TLS handshake with the API).
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import type { PooledFetch } from './http-fetch'

/**
 * Tools whose every call starts a model call of its own right after the reply (a subagent's first request):
 * Fanout's Agent, and Task, its name in older Claude Code transcripts. Named here rather than imported so the
 * model layer does not reach into orchestration.
 */
export const SPAWNING_TOOLS: ReadonlySet<string> = new Set(['Agent', 'Task'])

/**
 * How many connections to have free or warm when a reply has shown `seen` calls that start subagents and `started`
 * of them have started while it streams. Calls held to the reply's end go together once it is answered: a
 * connection each, but for the first, which takes over the reply's own. Calls that start as they stream each take
 * one while the reply still holds its own: one for each call still to start, and one for the call that started
 * last, which may not have taken its own yet. Counting the started calls as still to come opened two connections
 * a call, and at 64 calls, with those parked past their idle time closed and opened again, 248 for 130 requests.
 * The first call has one ready either way: whether it starts at once is known only once it has streamed, and a
 * call that does would otherwise connect (a TCP and a TLS handshake with the API) on its own first request.
 */
export function warmFor(seen: number, started: number): number {
  return started > 0 ? seen - started + 1 : Math.max(1, seen - 1)
}

/**
 * One reply's connections opened ahead. `limit` is how many model calls may go at once (the rate limiter's);
 * `started` tells how many of the reply's spawning calls have started so far (the loop's `startedCalls`).
 */
export function connectAhead(preconnect: PooledFetch['preconnect'], origin: string, limit: () => number, started: (names: ReadonlySet<string>) => number) {
  /** Subagents this reply starts so far: each will make a call as soon as the reply's tools run. */
  let spawns = 0
  /** Connections opened ahead for them. */
  let opened = 0
  return (event: RawMessageStreamEvent): void => {
    if (event.type !== 'content_block_start' || event.content_block.type !== 'tool_use' || !SPAWNING_TOOLS.has(event.content_block.name)) return
    const seen = Math.min(++spawns, limit())
    const warm = warmFor(seen, started(SPAWNING_TOOLS))
    // Never more in all than the calls take, and one spare: one left parked past the pool's idle time is
    // closed, and not opened again for a call still to come (a reply of 64 calls streams for half a minute).
    if (warm > 0) opened += preconnect(origin, warm, seen + 1 - opened)
  }
}
