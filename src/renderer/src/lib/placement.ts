// Where each subagent sits in the overview: in the grid, or in the Finished list. Settled, the grid belongs to
// the agents still working (see panel-groups.ts). While the person points at the overview or has keyboard
// focus in it, nothing moves: an agent that stops or finishes keeps its place, and a new one takes the next
// free place at the end. When they move on (or press Tidy) it settles again.
import type { AgentStatus } from '../../../shared/events'
import { isActive } from '../../../shared/view/session-state'
import { panelGroups } from './panel-groups'

export interface Placement {
  grid: string[]
  finished: string[]
}

export function placeAgents(
  prev: Placement | null,
  ids: readonly string[],
  statusOf: (id: string) => AgentStatus,
  expanded: Readonly<Record<string, true>>,
  focused: string | null,
  held: boolean,
  needsYou: (id: string) => boolean = () => false
): Placement {
  const settled = panelGroups(ids, statusOf, expanded, focused, needsYou)
  if (!held || !prev) return settled
  const known = new Set(ids)
  const grid = prev.grid.filter((id) => known.has(id))
  const inGrid = new Set(grid)
  const finished: string[] = []
  for (const id of prev.finished) {
    if (!known.has(id)) continue
    // Asked for (expanded, named) or working again (resumed): it joins the grid at the end.
    if (expanded[id] || id === focused || isActive(statusOf(id)) || needsYou(id)) {
      grid.push(id)
      inGrid.add(id)
    } else finished.push(id)
  }
  const placed = new Set([...grid, ...finished])
  for (const id of ids) {
    if (placed.has(id)) continue
    // New since the hold began: where a settled layout would put it, at the end.
    if (settled.grid.includes(id)) grid.push(id)
    else finished.push(id)
  }
  return { grid, finished }
}

export const samePlacement = (a: Placement | null, b: Placement): boolean =>
  !!a &&
  a.grid.length === b.grid.length &&
  a.finished.length === b.finished.length &&
  a.grid.every((id, i) => b.grid[i] === id) &&
  a.finished.every((id, i) => b.finished[i] === id)
