// How often streamed text and a model call's figures are drawn. Live events are applied once per animation
// frame. Text is drawn at the first frame after it arrives: writing a tile's text is a text node's new value
// (agent-tile.tsx), and 64 agents' text in every frame cost ~1 ms a frame more than a third of them each frame
// in the 64-agent bench, against ~17 ms of added delay on average (p95 event→painted 104 → 83 ms idle, and no
// worse with the machine busy: 123 against 128 ms).
// A model call's figures (usage: tokens, cost, context) take turns — halves with a few agents streaming, thirds
// with many — since they draw the tile's figures as React renders: agents started together end their calls
// together, and 64 tiles' figures drawn in one frame were a task of 45-65 ms every two seconds in the bench.
// Slower frames keep the turns while the added delay stays short (at most MAX_WAIT_MS); slower still, nothing
// waits. What of an agent waits is its figures and everything after them; the text before them is drawn. Any
// other event of the agent (a status, a tool, its end) takes all of it at once, an agent's own order never
// changes, and nothing waits longer than the added delay allows, whatever the turns.
import type { AgentEvent } from '../../../shared/events'
import { BUSY_STREAMS } from '../../../shared/event-pump'
import { agentKey } from './agent-key'

/** More agents than this streaming within RECENT_FRAMES take turns in thirds instead of halves. */
export const THIRDS_ABOVE_AGENTS = BUSY_STREAMS
/** The most delay taking turns may add to an agent's figures: with few agents streaming, and with many. */
export const MAX_WAIT_MS = { few: 17, many: 40 }
const RECENT_FRAMES = 30
/** How much of each new frame interval the smoothed one takes: one slow frame (a GC) does not end the turns. */
const SMOOTHING = 0.25

const TEXT_TYPES: ReadonlySet<AgentEvent['type']> = new Set(['text_delta', 'thinking_delta', 'tool_input_delta'])

export interface TextCadence {
  /** When the previous frame applied events (performance.now()), or -Infinity. */
  lastFrameAt: number
  /** The frame interval, smoothed (ms), or null before two frames. */
  frameMs: number | null
  /** Counts the frames after the first. */
  frame: number
  /** Each agent's place in the order agents were first seen: its turn is that place modulo the turns. */
  lanes: Map<string, number>
  /** The frame (count) in which each agent last had something waiting: how many stream now. */
  lastSeen: Map<string, number>
  /** How many frames in a row each agent's figures have been held back (none: drawn at the last frame it had any). */
  held: Map<string, number>
}

export const newTextCadence = (): TextCadence => ({
  lastFrameAt: -Infinity,
  frameMs: null,
  frame: 0,
  lanes: new Map(),
  lastSeen: new Map(),
  held: new Map()
})

/** Agents that had events waiting in the last RECENT_FRAMES frames; forgets the others. */
function streamingNow(cadence: TextCadence): number {
  for (const [key, frame] of cadence.lastSeen) {
    if (cadence.frame - frame <= RECENT_FRAMES) continue
    cadence.lastSeen.delete(key)
    cadence.held.delete(key)
  }
  return cadence.lastSeen.size
}

const keyOf = (e: AgentEvent) => agentKey(e.sessionId, e.agentId)

/** In how many turns agents' figures are drawn at this frame interval: as many as keep the added delay within `maxWait`. */
export function turnsFor(frameMs: number | null, many: boolean): number {
  if (frameMs === null || frameMs <= 0) return 1
  const maxWait = many ? MAX_WAIT_MS.many : MAX_WAIT_MS.few
  return Math.min(many ? 3 : 2, 1 + Math.floor(maxWait / frameMs))
}

/**
 * Splits the events waiting for this frame into those to apply now and those to keep for the next
 * frame (each list in arrival order), and records the frame in `cadence`.
 */
export function takeDueEvents(pending: readonly AgentEvent[], cadence: TextCadence, now: number): { due: AgentEvent[]; later: AgentEvent[] } {
  const interval = now - cadence.lastFrameAt
  cadence.lastFrameAt = now
  if (Number.isFinite(interval)) {
    cadence.frameMs = cadence.frameMs === null ? interval : cadence.frameMs + SMOOTHING * (interval - cadence.frameMs)
    cadence.frame++
  }
  // One look at each event: its agent, and where its figures start (-1: none), or Infinity when anything
  // but text and figures of it waits (a status, a tool, its end has it drawn now, figures and all).
  const keys = pending.map(keyOf)
  const figuresAt = new Map<string, number>()
  pending.forEach((e, i) => {
    const at = figuresAt.get(keys[i]) ?? -1
    if (at === Infinity) return
    if (!TEXT_TYPES.has(e.type) && e.type !== 'usage') figuresAt.set(keys[i], Infinity)
    else figuresAt.set(keys[i], e.type === 'usage' && at < 0 ? i : at)
  })
  for (const key of figuresAt.keys()) {
    cadence.lastSeen.set(key, cadence.frame)
    if (!cadence.lanes.has(key)) cadence.lanes.set(key, cadence.lanes.size)
  }
  const many = streamingNow(cadence) > THIRDS_ABOVE_AGENTS
  const turns = turnsFor(cadence.frameMs, many)
  // Per agent, the index in `pending` from which its events wait (its first figures); absent: none wait.
  const waitFrom = new Map<string, number>()
  if (turns > 1)
    for (const [key, at] of figuresAt) {
      if (at < 0 || at === Infinity || cadence.lanes.get(key)! % turns === cadence.frame % turns) continue
      // Not its turn, but held back as many frames as the turns allow (they changed under it): drawn now.
      if ((cadence.held.get(key) ?? 0) >= turns - 1) continue
      waitFrom.set(key, at)
    }
  for (const key of figuresAt.keys()) {
    if (waitFrom.has(key)) cadence.held.set(key, (cadence.held.get(key) ?? 0) + 1)
    else cadence.held.delete(key)
  }
  if (!waitFrom.size) return { due: [...pending], later: [] }
  const due: AgentEvent[] = []
  const later: AgentEvent[] = []
  pending.forEach((e, i) => {
    const from = waitFrom.get(keys[i])
    ;(from !== undefined && i >= from ? later : due).push(e)
  })
  return { due, later }
}
