// How often streamed text is drawn. Live events are applied once per animation frame; at full frame
// rate, agents take turns: half of them have their text drawn in one frame, the other half in the next,
// so each agent's text is drawn every other frame — 30 times a second at 60 Hz. Laying out and painting
// a panel's new text is most of a frame's work; with many agents streaming, sharing it out is what keeps
// the frame within one vsync. When more than a dozen agents stream at once (a wide grid shows 15 or more
// panels), they take turns in thirds: each drawn 20 times a second, for at most two frames (33 ms) of
// added delay. Only pure text waits: any other event of the agent (a status, a tool, its end) takes its
// text with it at once, an agent's own order never changes, and when frames are slow (a loaded machine)
// nothing waits at all.
import type { AgentEvent } from '../../../shared/events'

/** Frames closer than this are "full frame rate" (60 Hz is 16.7 ms; 40 Hz, 25 ms, already waits for nothing). */
export const FULL_RATE_FRAME_MS = 24
/** More agents than this streaming within RECENT_FRAMES take turns in thirds instead of halves. */
export const THIRDS_ABOVE_AGENTS = 12
const RECENT_FRAMES = 30

const TEXT_TYPES: ReadonlySet<AgentEvent['type']> = new Set(['text_delta', 'thinking_delta', 'tool_input_delta'])

export interface TextCadence {
  /** When the previous frame applied events (performance.now()), or -Infinity. */
  lastFrameAt: number
  /** Counts the frames that came at full rate. */
  frame: number
  /** Each agent's place in the order agents were first seen: its turn is that place modulo the turns. */
  lanes: Map<string, number>
  /** The frame (count) in which each agent last had something waiting: how many stream now. */
  lastSeen: Map<string, number>
}

export const newTextCadence = (): TextCadence => ({ lastFrameAt: -Infinity, frame: 0, lanes: new Map(), lastSeen: new Map() })

/** Agents that had events waiting in the last RECENT_FRAMES frames; forgets the others. */
function streamingNow(cadence: TextCadence): number {
  for (const [key, frame] of cadence.lastSeen) if (cadence.frame - frame > RECENT_FRAMES) cadence.lastSeen.delete(key)
  return cadence.lastSeen.size
}

const keyOf = (e: AgentEvent) => `${e.sessionId}\u0000${e.agentId}`

/**
 * Splits the events waiting for this frame into those to apply now and those to keep for the next
 * frame (each list in arrival order), and records the frame in `cadence`.
 */
export function takeDueEvents(pending: readonly AgentEvent[], cadence: TextCadence, now: number): { due: AgentEvent[]; later: AgentEvent[] } {
  const fullRate = now - cadence.lastFrameAt < FULL_RATE_FRAME_MS
  cadence.lastFrameAt = now
  if (fullRate) cadence.frame++
  // One look at each event: its agent, and whether that agent has only text waiting (anything else of
  // an agent, a status, a tool, its end, has it drawn now, text and all).
  const keys = pending.map(keyOf)
  const textOnly = new Map<string, boolean>()
  pending.forEach((e, i) => textOnly.set(keys[i], (textOnly.get(keys[i]) ?? true) && TEXT_TYPES.has(e.type)))
  for (const key of textOnly.keys()) {
    cadence.lastSeen.set(key, cadence.frame)
    if (!cadence.lanes.has(key)) cadence.lanes.set(key, cadence.lanes.size)
  }
  const turns = streamingNow(cadence) > THIRDS_ABOVE_AGENTS ? 3 : 2
  const wait = new Set<string>()
  if (fullRate) for (const [key, onlyText] of textOnly) if (onlyText && cadence.lanes.get(key)! % turns !== cadence.frame % turns) wait.add(key)
  if (!wait.size) return { due: [...pending], later: [] }
  const due: AgentEvent[] = []
  const later: AgentEvent[] = []
  pending.forEach((e, i) => (wait.has(keys[i]) ? later : due).push(e))
  return { due, later }
}
