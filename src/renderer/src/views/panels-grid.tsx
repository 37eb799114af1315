// Live subagent panels side by side. The grid sizes itself to the pane and the number of running
// agents (1 fills the pane; 32+ become a scrolling grid of compact panels). Finished agents collapse
// into a list below and can be expanded back into the grid or opened in full.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { Icon } from '../components/icon'
import { StatusBadge } from '../components/status'
import { TranscriptList } from '../components/transcript-list'
import { refocusWhenLost } from '../lib/focus'
import { formatClock, formatCost } from '../lib/format'
import { plainPreview } from '../lib/plain-preview'
import { ChangesButton } from '../review/changes-button'
import { useAgentColor } from '../lib/use-agent-color'
import { ui, useApp } from '../state/store'
import { elapsedMs } from '../state/selectors'
import { AgentPanel, MessageInput, PanelHeader } from './agent-panel'
import { DENSE_WIDTH, gridLayout } from '../lib/grid-layout'
import { panelGroups } from '../lib/panel-groups'
import { useSize } from '../lib/use-size'
import { PhaseSections } from './phase-strip'

function FinishedRow({ sessionId, agentId }: { sessionId: string; agentId: string }) {
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[agentId])
  const color = useAgentColor(agent?.color, agent?.agentType ?? '')
  if (!agent) return null
  return (
    <div className="finished-row" style={color} data-testid="finished-row" data-agent-id={agentId}>
      <span className="finished-bar" />
      <StatusBadge status={agent.status} />
      <span className="agent-type">{agent.agentType}</span>
      <span className="finished-desc" title={agent.description}>
        {agent.description}
      </span>
      <span className="finished-result muted" title={agent.error ?? agent.result}>
        {plainPreview(agent.error ?? agent.result ?? '', 140)}
      </span>
      <span className="finished-stats muted">
        {agent.endedAt !== null && formatClock(elapsedMs(agent, agent.endedAt))} · {formatCost(agent.usage.costUsd)}
      </span>
      <ChangesButton agent={agent} />
      <button className="icon-button" title="Show the panel in the grid" onClick={() => ui.toggleExpanded(agentId)} data-testid="finished-expand">
        <Icon name="grid" size={13} />
      </button>
      <button className="icon-button" title="Open its whole transcript, the full width of the pane" aria-label="Open its transcript" onClick={() => ui.maximize(agentId)} data-testid="finished-open">
        <Icon name="transcript" size={13} />
      </button>
    </div>
  )
}

function MaximizedPanel({ sessionId, agentId }: { sessionId: string; agentId: string }) {
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[agentId])
  const [messaging, setMessaging] = useState(false)
  const color = useAgentColor(agent?.color, agent?.agentType ?? '')
  const ref = useRef<HTMLDivElement>(null)
  // The button that maximized it went away with the grid: its counterpart here takes the focus.
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
    <div className="agent-panel maximized" ref={ref} style={color} data-testid="maximized-panel">
      <PanelHeader agent={agent} maximized onMessage={() => setMessaging(!messaging)} />
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

export function PanelsGrid({ sessionId }: { sessionId: string }) {
  const agents = useApp((s) => s.events.sessions[sessionId]?.agents)
  const order = useApp((s) => s.events.sessions[sessionId]?.agentOrder)
  const rootId = useApp((s) => s.events.sessions[sessionId]?.rootAgentId)
  const expanded = useApp((s) => s.expanded)
  const focused = useApp((s) => s.focusedAgentId)
  const maximized = useApp((s) => s.maximizedAgentId)
  const phased = useApp((s) => (s.events.sessions[sessionId]?.phases.length ?? 0) > 0)
  const [showFinished, setShowFinished] = useState(true)
  const [gridRef, size] = useSize()
  // Back from a maximized panel, focus returns to the control that opens it again: the panel's maximize
  // button, or its finished row's, else the tab. (The maximized panel's buttons, which had it, are gone.)
  const wasMaximized = useRef(maximized)
  useLayoutEffect(() => {
    const before = wasMaximized.current
    wasMaximized.current = maximized
    if (!before || maximized) return
    const at = (sel: string) => document.querySelector(`[data-agent-id="${CSS.escape(before)}"] ${sel}`)
    refocusWhenLost(() => at('[data-testid=panel-maximize]') ?? at('[data-testid=finished-open]') ?? document.querySelector('[data-testid=tab-panels]'))
  }, [maximized])

  const { grid: live, finished } = useMemo(() => {
    const ids = agents && order ? order.filter((id) => id !== rootId) : []
    return panelGroups(ids, (id) => agents![id].status, expanded, focused)
  }, [agents, order, rootId, expanded, focused])

  if (maximized && agents?.[maximized]) return <MaximizedPanel sessionId={sessionId} agentId={maximized} />
  if (!live.length && !finished.length) {
    return <div className="pane-message muted">Subagents appear here, one live panel each, when the main agent delegates.</div>
  }
  const { cols, rowHeight } = gridLayout(live.length, size.width, finished.length && showFinished ? size.height * 0.72 : size.height)
  return (
    <div className="panels-scroll" ref={gridRef}>
      {live.length > 0 && phased && (
        <PhaseSections
          sessionId={sessionId}
          ids={live}
          width={size.width}
          height={finished.length && showFinished ? size.height * 0.72 : size.height}
          panel={(id, dense) => <AgentPanel key={id} sessionId={sessionId} agentId={id} focused={focused === id} dense={dense} />}
        />
      )}
      {live.length > 0 && !phased && (
        <div className="panels-grid" style={{ gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`, gridAutoRows: `${rowHeight}px` }} data-testid="panels-grid">
          {live.map((id) => (
            <AgentPanel key={id} sessionId={sessionId} agentId={id} focused={focused === id} dense={size.width / cols < DENSE_WIDTH} />
          ))}
        </div>
      )}
      {finished.length > 0 && (
        <div className="finished-section">
          <button className="finished-toggle" onClick={() => setShowFinished(!showFinished)} aria-expanded={showFinished}>
            <Icon name={showFinished ? 'chevronDown' : 'chevronRight'} size={12} /> Finished ({finished.length})
          </button>
          {showFinished && finished.map((id) => <FinishedRow key={id} sessionId={sessionId} agentId={id} />)}
        </div>
      )}
    </div>
  )
}
