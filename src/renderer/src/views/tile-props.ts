// What a full panel and an overview tile share as one of the session's tiles: the agent's color, the ids and
// status tests and keyboard navigation find it by (data-tile), one tab stop among all tiles, and focusing a
// tile selects it.
import type { CSSProperties, FocusEvent } from 'react'
import type { AgentState } from '../../../shared/view/session-state'
import { ui } from '../state/store'

export function tileProps(
  agent: AgentState,
  { testId, color, tabbable, focused }: { testId: string; color: CSSProperties; tabbable: boolean; focused: boolean }
) {
  return {
    style: color,
    'data-testid': testId,
    'data-agent-id': agent.id,
    'data-status': agent.status,
    'data-tile': true,
    tabIndex: tabbable ? 0 : -1,
    onFocus: (e: FocusEvent<HTMLElement>) => {
      if (e.target === e.currentTarget && !focused) ui.selectTile(agent.id)
    }
  }
}
