// A model call's figures: what its usage event changes on the agent besides closing the wait on the model
// (reducer.ts, case 'usage'): the tokens and cost so far, how full the context is, and the model that answered
// (which sizes the context window). Agents started together end their calls together, so with 64 tiles these
// changes come all at once; a view that shows none of them is not drawn again for them, and the tile's figures
// are written straight into their text (agent-tile.tsx).
import { useEffect, useRef, useState } from 'react'
import { createMountBudget, type MountBudget } from '../lib/mount-budget'
import type { AgentState } from '../../../shared/view/session-state'
import { subscribeAgent, useAgentApp } from './agent-subscriptions'
import { get } from './app-state'

const FIGURES = ['usage', 'contextTokens', 'context', 'resolvedModel'] as const satisfies readonly (keyof AgentState)[]
const FIGURE_KEYS: ReadonlySet<string> = new Set(FIGURES)
/** What the figures are drawn from: themselves, and the configured model (the context window when none answered yet). */
const DRAWN_FROM = [...FIGURES, 'model'] as const

// The reducer copies an agent's lists whenever it changes the agent (session-draft.ts): a list is the same when its items are.
const same = (x: unknown, y: unknown): boolean =>
  Object.is(x, y) || (Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((item, i) => Object.is(item, y[i])))

/** Whether `next` differs from `prev` in nothing but its figures (each other field the same value, object or list). */
export function sameButFigures(prev: AgentState, next: AgentState): boolean {
  const a = prev as unknown as Record<string, unknown>
  const b = next as unknown as Record<string, unknown>
  let count = 0
  for (const key in b) {
    if (FIGURE_KEYS.has(key)) continue
    count++
    if (!same(a[key], b[key])) return false
  }
  for (const key in a) if (!FIGURE_KEYS.has(key)) count--
  return count === 0
}

/**
 * The agent's state as useAgent gives it, except that when only its figures changed the object already drawn is
 * given again, so the view is not drawn again. For views that read none of the figures.
 */
export function useAgentSansFigures(sessionId: string, agentId: string | undefined): AgentState | undefined {
  const shown = useRef<AgentState | undefined>(undefined)
  return useAgentApp(sessionId, agentId ?? '', (s) => {
    const next = agentId ? s.events.sessions[sessionId]?.agents[agentId] : undefined
    const prev = shown.current
    if (prev && next && prev !== next && sameButFigures(prev, next)) return prev
    shown.current = next
    return next
  })
}

const sameFigures = (a: AgentState, b: AgentState): boolean => DRAWN_FROM.every((key) => Object.is(a[key], b[key]))

// Agents started together end their model calls together: 64 tiles' and cards' figures drawn again in one frame
// were that frame's layout and paint twice over (a task of 55-75 ms every two seconds in the bench, the tiles'
// text waiting behind it). A frame draws at most this many figures that changed; the rest wait for the next
// frames, oldest first (64 agents' tiles and cards: ~6 frames, ~100 ms). A figure's first drawing never waits.
const FIGURE_DRAWS_PER_FRAME = 24
let budget: MountBudget = createMountBudget(FIGURE_DRAWS_PER_FRAME)
const waiting = new Set<() => void>()
let frame = 0
/** The look the drain has claimed room for: it draws without claiming again. */
let granted: (() => void) | null = null

/** Lets the figures waiting for a frame's room draw, as many as the frame has room for. */
function drain(): void {
  frame = 0
  for (const look of waiting) {
    if (!budget.claim()) break
    waiting.delete(look)
    granted = look
    try {
      look()
    } finally {
      granted = null
    }
  }
  if (waiting.size) frame = requestAnimationFrame(drain)
}

/** Whether a figure that changed may draw now; else it is put in line for a later frame. */
function roomNow(look: () => void): boolean {
  if (typeof requestAnimationFrame !== 'function' || look === granted) return true
  if (!waiting.has(look) && budget.claim()) return true
  waiting.add(look)
  if (!frame) frame = requestAnimationFrame(drain)
  return false
}

/** For tests: a budget of its own (its frames told apart by `frameNow`). */
export function setFigureBudget(next: MountBudget = createMountBudget(FIGURE_DRAWS_PER_FRAME)): void {
  budget = next
}

/**
 * Calls `draw` with the agent's state now and whenever its figures (or its model) change, until the function
 * returned is called: for views that write the figures into their own nodes rather than render them. A change
 * is drawn in the frame it comes in, or a few frames later when many agents' figures change at once (above).
 */
export function onFigures(sessionId: string, agentId: string, draw: (agent: AgentState) => void): () => void {
  let drawn: AgentState | null = null
  const look = () => {
    const agent = get().events.sessions[sessionId]?.agents[agentId]
    if (!agent || (drawn && sameFigures(drawn, agent))) return
    if (drawn && !roomNow(look)) return
    waiting.delete(look)
    drawn = agent
    draw(agent)
  }
  look()
  const stop = subscribeAgent(sessionId, agentId, look)
  return () => {
    stop()
    waiting.delete(look)
  }
}

/**
 * The agent's state as last drawn for its figures (onFigures): for a view that renders its figures in React,
 * beside useAgentSansFigures for the rest. Undefined while there is no such agent.
 */
export function useFigures(sessionId: string, agentId: string | undefined): AgentState | undefined {
  const [agent, setAgent] = useState<AgentState | undefined>(() => (agentId ? get().events.sessions[sessionId]?.agents[agentId] : undefined))
  useEffect(() => {
    if (!agentId) return setAgent(undefined)
    return onFigures(sessionId, agentId, setAgent)
  }, [sessionId, agentId])
  return agentId ? agent : undefined
}
