// How often streamed text is drawn. Live events are applied once per animation frame; agents whose only
// news is text take turns: at 60 Hz, half of them have their text drawn in one frame and the other half in
// the next — each drawn 30 times a second — and when more than a dozen stream at once (a wide grid shows 15
// or more), in thirds: each drawn 20 times a second, for at most two frames (33 ms) of added delay. Laying
// out and painting an agent's new text is most of a frame's work; sharing it out is what keeps a frame
// within one vsync. Slower frames keep the turns while the wait stays short: at ~30 Hz (a busy machine),
// the many take turns in halves (one frame, at most 40 ms, of added delay) — when every agent drew at every
// slow frame, the frame's work grew with its slowness (64 tiles a frame instead of 21) and the frames never
// got fast again. Slower still, nothing waits. Only text and figures wait: any other event of the agent (a status,
// a tool, its end) takes its text with it at once, an agent's own order never changes, and no agent's text
// waits longer than the added delay allows, whatever the turns. A model call's figures (usage: tokens, cost,
// context) take turns too: agents started together end their calls together, and 64 tiles' figures drawn in
// one frame were a task of 45-65 ms every two seconds in the 64-agent bench.
import type { AgentEvent } from '../../../shared/events'
import { agentKey } from './agent-key'

/** More agents than this streaming within RECENT_FRAMES take turns in thirds instead of halves. */
export const THIRDS_ABOVE_AGENTS = 12
/** The most delay taking turns may add to an agent's text: with few agents streaming, and with many. */
export const MAX_WAIT_MS = { few: 17, many: 40 }
const RECENT_FRAMES = 30
/** How much of each new frame interval the smoothed one takes: one slow frame (a GC) does not end the turns. */
const SMOOTHING = 0.25

const TURN_TYPES: ReadonlySet<AgentEvent['type']> = new Set(['text_delta', 'thinking_delta', 'tool_input_delta', 'usage'])

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
  /** How many frames in a row each agent's text has been held back (none: drawn at the last frame it had any). */
  held: Map<string, number>
}

export const newTextCadence = (): TextCadence => ({ lastFrameAt: -Infinity, frameMs: null, frame: 0, lanes: new Map(), lastSeen: new Map(), held: new Map() })

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

/** In how many turns agents are drawn at this frame interval: as many as keep the added delay within `maxWait`. */
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
  // One look at each event: its agent, and whether that agent has only text and figures waiting (anything
  // else of an agent, a status, a tool, its end, has it drawn now, text and all).
  const keys = pending.map(keyOf)
  const waitsInTurn = new Map<string, boolean>()
  pending.forEach((e, i) => waitsInTurn.set(keys[i], (waitsInTurn.get(keys[i]) ?? true) && TURN_TYPES.has(e.type)))
  for (const key of waitsInTurn.keys()) {
    cadence.lastSeen.set(key, cadence.frame)
    if (!cadence.lanes.has(key)) cadence.lanes.set(key, cadence.lanes.size)
  }
  const many = streamingNow(cadence) > THIRDS_ABOVE_AGENTS
  const turns = turnsFor(cadence.frameMs, many)
  const wait = new Set<string>()
  if (turns > 1)
    for (const [key, inTurn] of waitsInTurn) {
      if (!inTurn || cadence.lanes.get(key)! % turns === cadence.frame % turns) continue
      // Not its turn, but it has been held back as many frames as the turns allow (they changed under it): drawn now.
      if ((cadence.held.get(key) ?? 0) >= turns - 1) continue
      wait.add(key)
    }
  for (const key of waitsInTurn.keys()) {
    if (wait.has(key)) cadence.held.set(key, (cadence.held.get(key) ?? 0) + 1)
    else cadence.held.delete(key)
  }
  if (!wait.size) return { due: [...pending], later: [] }
  const due: AgentEvent[] = []
  const later: AgentEvent[] = []
  pending.forEach((e, i) => (wait.has(keys[i]) ? later : due).push(e))
  return { due, later }
}
