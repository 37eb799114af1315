// An Agent tool call in a transcript: the subagent's task first (what differs between agents), its type as a
// badge in its colour (components/agent-name.tsx), and live status; click to jump to its panel.
import { memo, useRef } from 'react'
import { agentFullName } from '../lib/agent-naming'
import { formatClock, formatCost } from '../lib/format'
import { plainPreview } from '../lib/plain-preview'
import { pendingAgentType } from '../lib/agent-call'
import { parsePartialInput } from '../lib/tool-summary'
import { useAgentColor } from '../lib/use-agent-color'
import { useFitLevel } from '../lib/use-fit-level'
import { useNow } from '../lib/use-now'
import { elapsedMs } from '../state/selectors'
import { ui, useApp } from '../state/store'
import { useAgentSansFigures, useFigures } from '../state/agent-figures'
import { AgentTypeBadge } from './agent-name'
import { ContextMeter } from './context-meter'
import { BudgetBar } from './budget-bar'
import { Icon } from './icon'
import { StatusBadge } from './status'

export const AgentCard = memo(function AgentCard({ sessionId, toolUseId }: { sessionId: string; toolUseId: string }) {
  const tool = useApp((s) => s.events.sessions[sessionId]?.tools[toolUseId])
  // The figures (cost, context) as onFigures draws them, the rest when it changes: 64 agents' model calls ending
  // together do not draw 64 cards again in one frame (agent-figures.ts).
  const child = useAgentSansFigures(sessionId, tool?.childAgentId)
  const figures = useFigures(sessionId, tool?.childAgentId) ?? child
  const currentTool = useApp((s) => (child?.currentToolId ? s.events.sessions[sessionId]?.tools[child.currentToolId] : undefined))
  const now = useNow(!!child && child.endedAt === null)
  const input = (tool ? (tool.input ?? parsePartialInput(tool.inputJson) ?? {}) : {}) as Record<string, unknown>
  const type = pendingAgentType(child?.agentType, input, tool?.input !== undefined)
  const description = child?.description || (typeof input.description === 'string' ? input.description : '')
  // The type's color from the start: the card does not change color when its agent appears. Until the type
  // has streamed in, it is neutral (a guess would change color a moment later).
  const color = useAgentColor(child?.color, type ?? '', !type)
  const clock = child ? formatClock(elapsedMs(child, now)) : ''
  const turn = child ? `turn ${child.turn}${child.maxTurns ? `/${child.maxTurns}` : ''}` : ''
  const cost = figures ? formatCost(figures.usage.costUsd) : ''
  // A narrow card drops the turn, then the elapsed time, then its context meter, before its status, cost or
  // current tool would be cut. (The clock's and the cost's lengths, not their text — the figures are tabular: a card measures again when its stats could be wider, not every second, nor at every model call of 64 agents.)
  const stats = useRef<HTMLSpanElement>(null)
  const context = figures?.context
  const meter = context?.tokens != null ? Math.floor((context.tokens / context.window) * 100) : null
  const fit = useFitLevel(stats, 3, `${child?.status}|${clock.length}|${turn}|${cost.length}|${currentTool?.name ?? ''}|${meter}|${context?.compacting}`)
  if (!tool) return null
  const starting = type ? `Starting the ${type} agent…` : 'Starting a subagent…'
  return (
    <button
      className={`agent-card${child ? '' : ' pending'}`}
      style={color}
      onClick={() => child && ui.focusAgent(child.id)}
      disabled={!child}
      data-testid="agent-card"
      data-agent-id={child?.id}
      title={child ? 'Show this agent’s panel' : starting}
    >
      <span className="agent-card-bar" />
      <span className="agent-card-main">
        <span className="agent-card-line">
          {description ? (
            <span className="agent-card-desc agent-task" title={agentFullName({ agentType: type ?? 'agent', name: child?.name, description })}>
              {description}
            </span>
          ) : (
            <span className="agent-card-desc muted">{type ? `A new ${type} agent` : 'A new subagent'}</span>
          )}
          {type && description && <AgentTypeBadge agent={{ agentType: type, name: child?.name, description }} />}
          {child?.background && <span className="tag">background</span>}
        </span>
        <span className="agent-card-line agent-card-stats muted small" ref={stats}>
          {child ? (
            <>
              <StatusBadge status={child.status} limit={child.limit} />
              {fit < 2 && <span>{clock}</span>}
              {fit < 1 && <span>{turn}</span>}
              {fit < 3 && <ContextMeter context={context} short />}
              <span className="agent-card-cost">{cost}</span>
              <BudgetBar sessionId={sessionId} agentId={child.id} short />
              {currentTool && (
                <span className="agent-card-tool" title={currentTool.name}>
                  ▸ {currentTool.name}
                </span>
              )}
              {!currentTool && child.result && child.endedAt !== null && <span className="agent-card-result">{plainPreview(child.result, 120)}</span>}
            </>
          ) : (
            <span data-testid="agent-card-starting">{starting}</span>
          )}
        </span>
      </span>
      {child && <Icon name="chevronRight" className="agent-card-go" />}
    </button>
  )
})
