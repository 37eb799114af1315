// The last characters each agent streamed (text and thinking), kept as the live events come, beside the
// transcripts they are folded into. A tile shows the end of its agent's newest text; the text in the store is
// built delta by delta, a rope that any read of it copies whole — 30 KB and more per tile per frame once an
// answer is long, and as much garbage. With these tails a tile reads only what came since it last looked.
import type { AgentEvent } from '../../../shared/events'
import { agentKey as keyOf } from './agent-key'

/** How many characters a tail keeps at least (a tile's window is under 700); trimmed at twice that. */
const KEEP = 2048

interface Tail {
  /** Characters streamed by the agent through live events since this page began counting. */
  total: number
  /**
   * The last of them (at least KEEP, when there were as many), as the deltas came: joined, they were a rope
   * that each tile's read of its newest characters flattened, 4 KB copied per tile per frame.
   */
  chunks: string[]
  /** The characters in `chunks`. */
  held: number
}

const tails = new Map<string, Tail>()

/** Counts the streamed text in live events about to be folded into the store (call before folding). */
export function recordStreamed(events: readonly AgentEvent[]): void {
  for (const e of events) {
    if (e.type !== 'text_delta' && e.type !== 'thinking_delta') continue
    const key = keyOf(e.sessionId, e.agentId)
    let tail = tails.get(key)
    if (!tail) tails.set(key, (tail = { total: 0, chunks: [], held: 0 }))
    tail.total += e.text.length
    tail.chunks.push(e.text)
    tail.held += e.text.length
    if (tail.held > KEEP * 2) {
      const kept = tail.chunks.join('').slice(-KEEP)
      tail.chunks = [kept]
      tail.held = kept.length
    }
  }
}

/** The last `count` characters the tail holds (count ≤ held): only the chunks they are in are read. */
function lastOf(tail: Tail, count: number): string {
  let out = ''
  for (let i = tail.chunks.length - 1; i >= 0 && out.length < count; i--) out = tail.chunks[i] + out
  return out.length > count ? out.slice(out.length - count) : out
}

/** How many characters the agent has streamed through live events, and the last of them. */
export function streamedTail(sessionId: string, agentId: string): { total: number; text: string } {
  const tail = tails.get(keyOf(sessionId, agentId))
  return tail ? { total: tail.total, text: tail.chunks.join('') } : { total: 0, text: '' }
}

export function resetStreamTails(): void {
  tails.clear()
}

/**
 * Follows the end of one agent's newest text item: the function it returns gives the last `size` characters
 * of the item's text (all of it when shorter), reading the item's whole text only when the live events cannot tell what
 * was added — a new item, or text that came another way (a session opened, a replay).
 */
export function followTextTail(sessionId: string, agentId: string, size: number): (item: { key: string; text: string }) => { window: string; cut: boolean } {
  let key: string | null = null
  let length = 0
  let total = 0
  let window = ''
  return (item) => {
    const tail = tails.get(keyOf(sessionId, agentId))
    const streamed = tail?.total ?? 0
    const added = item.text.length - length
    if (item.key === key && added >= 0 && added === streamed - total && added <= (tail?.held ?? 0)) {
      if (tail && added) window = (window + lastOf(tail, Math.min(added, size))).slice(-size)
    } else {
      // The item's length is known without reading it; only its last characters are copied.
      window = item.text.length > size ? item.text.slice(-size) : item.text
    }
    key = item.key
    length = item.text.length
    total = streamed
    return { window, cut: length > size }
  }
}
