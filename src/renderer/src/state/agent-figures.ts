// A model call's figures: what its usage event changes on the agent besides closing the wait on the model
// (reducer.ts, case 'usage'): the tokens and cost so far, how full the context is, and the model that answered
// (which sizes the context window). Agents started together end their calls together, so with 64 tiles these
// changes come all at once; a view that shows none of them is not drawn again for them, and the tile's figures
// are written straight into their text (agent-tile.tsx).
import { useRef } from 'react'
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
export function useAgentSansFigures(sessionId: string, agentId: string): AgentState | undefined {
  const shown = useRef<AgentState | undefined>(undefined)
  return useAgentApp(sessionId, agentId, (s) => {
    const next = s.events.sessions[sessionId]?.agents[agentId]
    const prev = shown.current
    if (prev && next && prev !== next && sameButFigures(prev, next)) return prev
    shown.current = next
    return next
  })
}

const sameFigures = (a: AgentState, b: AgentState): boolean => DRAWN_FROM.every((key) => Object.is(a[key], b[key]))

/**
 * Calls `draw` with the agent's state now and whenever its figures (or its model) change, until the function
 * returned is called: for views that write the figures into their own nodes rather than render them.
 */
export function onFigures(sessionId: string, agentId: string, draw: (agent: AgentState) => void): () => void {
  let drawn: AgentState | null = null
  const look = () => {
    const agent = get().events.sessions[sessionId]?.agents[agentId]
    if (!agent || (drawn && sameFigures(drawn, agent))) return
    drawn = agent
    draw(agent)
  }
  look()
  return subscribeAgent(sessionId, agentId, look)
}
