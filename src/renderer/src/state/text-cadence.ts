// How often streamed text is drawn. Live events are applied once per animation frame; at full frame
// rate, agents take turns: half of them have their text drawn in one frame, the other half in the next,
// so each agent's text is drawn every other frame — 30 times a second at 60 Hz. Laying out and painting
// a panel's new text is most of a frame's work; with 16 agents streaming, halving it is what keeps the
// frame within one vsync, for one frame (16.7 ms) of added delay on half the deltas. Only pure text
// waits: any other event of the agent (a status, a tool, its end) takes its text with it at once, an
// agent's own order never changes, and when frames are slow (a loaded machine) nothing waits at all.
import type { AgentEvent } from '../../../shared/events'

/** Frames closer than this are "full frame rate" (60 Hz is 16.7 ms; 40 Hz, 25 ms, already waits for nothing). */
export const FULL_RATE_FRAME_MS = 24

const TEXT_TYPES: ReadonlySet<AgentEvent['type']> = new Set(['text_delta', 'thinking_delta', 'tool_input_delta'])

export interface TextCadence {
  /** When the previous frame applied events (performance.now()), or -Infinity. */
  lastFrameAt: number
  /** Counts the frames that came at full rate. */
  frame: number
  /** Each agent's turn (0 or 1), given in the order agents are first seen, so half take each frame. */
  lanes: Map<string, number>
}

export const newTextCadence = (): TextCadence => ({ lastFrameAt: -Infinity, frame: 0, lanes: new Map() })

const keyOf = (e: AgentEvent) => `${e.sessionId}\u0000${e.agentId}`

/**
 * Splits the events waiting for this frame into those to apply now and those to keep for the next
 * frame (each list in arrival order), and records the frame in `cadence`.
 */
export function takeDueEvents(pending: readonly AgentEvent[], cadence: TextCadence, now: number): { due: AgentEvent[]; later: AgentEvent[] } {
  const fullRate = now - cadence.lastFrameAt < FULL_RATE_FRAME_MS
  cadence.lastFrameAt = now
  const turn = fullRate ? ++cadence.frame % 2 : -1
  const wait = new Set<string>()
  for (const e of pending) {
    const key = keyOf(e)
    let lane = cadence.lanes.get(key)
    if (lane === undefined) cadence.lanes.set(key, (lane = cadence.lanes.size % 2))
    if (turn !== -1 && lane !== turn) wait.add(key)
  }
  // An agent with anything but text waiting is drawn now, text and all.
  for (const e of pending) if (!TEXT_TYPES.has(e.type)) wait.delete(keyOf(e))
  if (!wait.size) return { due: [...pending], later: [] }
  const due: AgentEvent[] = []
  const later: AgentEvent[] = []
  for (const e of pending) (wait.has(keyOf(e)) ? later : due).push(e)
  return { due, later }
}
