// One agent's full panel, the whole width of the pane: its whole transcript, the result it returned, and
// its actions. Escape goes back to the overview.
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { ModelWait } from '../../components/model-wait'
import { TranscriptList } from '../../components/transcript-list'
import { refocusWhenLost } from '../../lib/focus'
import { useAgentColor } from '../../lib/use-agent-color'
import { ui, useApp } from '../../state/store'
import { MessageInput, PanelHeader } from '../agent-panel'

export function MaximizedPanel({ sessionId, agentId }: { sessionId: string; agentId: string }) {
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[agentId])
  const [messaging, setMessaging] = useState(false)
  const color = useAgentColor(agent?.color, agent?.agentType ?? '')
  const ref = useRef<HTMLDivElement>(null)
  // The tile or button that maximized it went away with the grid: its counterpart here takes the focus.
  useLayoutEffect(() => refocusWhenLost(() => ref.current?.querySelector('[data-testid=panel-maximize]')), [agentId])
  // Escape goes back to the grid, unless it is closing something else first (a dialog, the message box).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      const target = e.target as HTMLElement | null
      if (target?.closest('input, textarea, [contenteditable=true]')) return
      ui.maximize(null)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  if (!agent) return null
  return (
    <div className="agent-panel maximized" ref={ref} style={color} data-testid="maximized-panel" data-agent-id={agentId}>
      <PanelHeader agent={agent} maximized onMessage={() => setMessaging(!messaging)} />
      <ModelWait agent={agent} className="panel-model-wait" />
      <TranscriptList sessionId={sessionId} agentId={agentId} />
      {agent.result && agent.endedAt !== null && (
        <details className="panel-result">
          <summary>Result returned to the parent</summary>
          <pre>{agent.result}</pre>
        </details>
      )}
      {messaging && <MessageInput agent={agent} onDone={() => setMessaging(false)} />}
    </div>
  )
}
