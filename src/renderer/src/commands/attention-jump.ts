// "Next agent needing you" (Alt+J): goes to the next agent that waits on the person — opening its session
// when it is another, bringing its tile into view with keyboard focus on it (or, for the main agent, on its
// answer) — and marks it as seen.
import { closeAgents } from '../agent-editor/editor-library'
import { useAgentEditor } from '../agent-editor/editor-store'
import { allAttention, nextAttention } from '../state/attention'
import { openSession, ui, useApp } from '../state/store'
import { confirmToast } from '../views/notifications'

/** Focuses what `selector` finds once it is on the page (within a few frames), scrolled into view. */
function focusWhenShown(selector: string, frames = 30): void {
  const el = document.querySelector<HTMLElement>(selector)
  if (el) {
    el.scrollIntoView({ block: 'nearest' })
    el.focus()
    return
  }
  if (frames > 0) requestAnimationFrame(() => focusWhenShown(selector, frames - 1))
}

export async function goToNextAttention(): Promise<void> {
  const s = useApp.getState()
  const item = nextAttention(allAttention(s.events.sessions, s.currentSessionId, s.acknowledged), s.lastAttention)
  if (!item) {
    confirmToast({
      title: 'Nothing needs you',
      body: 'No agent is waiting for your permission, has failed unseen, or asks you a question.',
      kind: 'info',
      key: 'attention'
    })
    return
  }
  if (useAgentEditor.getState().open) closeAgents()
  if (useApp.getState().dialog) ui.setDialog(null)
  if (item.sessionId !== useApp.getState().currentSessionId) await openSession(item.sessionId)
  const rootId = useApp.getState().events.sessions[item.sessionId]?.rootAgentId
  ui.wentToAttention(item)
  if (item.agentId === rootId) {
    // The main agent's request waits in the conversation; its question is answered in the prompt box.
    focusWhenShown(item.reason === 'permission' ? '.conversation [data-testid=permission-card] [data-testid=perm-allow]' : '[data-testid=followup]')
    return
  }
  ui.focusAgent(item.agentId)
  focusWhenShown(`[data-tile][data-agent-id="${CSS.escape(item.agentId)}"]`)
}
