// Which subagents get a panel in the grid and which collapse into the Finished list. While agents run,
// the grid is theirs: a finished agent keeps a panel only when the person expanded it or named it (clicked
// its card, its timeline row, its report) or it still needs them (failed, not yet looked at); the rest stay
// one click away in the list. Once nothing runs, the finished panels are the content and all of them are in
// the grid.
import type { AgentStatus } from '../../../shared/events'
import { isActive } from '../../../shared/view/session-state'

export function panelGroups(
  ids: readonly string[],
  statusOf: (id: string) => AgentStatus,
  expanded: Readonly<Record<string, true>>,
  focused: string | null,
  needsYou: (id: string) => boolean = () => false
): { grid: string[]; finished: string[] } {
  if (!ids.some((id) => isActive(statusOf(id)))) return { grid: [...ids], finished: [] }
  const grid: string[] = []
  const finished: string[] = []
  for (const id of ids) (isActive(statusOf(id)) || expanded[id] || id === focused || needsYou(id) ? grid : finished).push(id)
  return { grid, finished }
}
