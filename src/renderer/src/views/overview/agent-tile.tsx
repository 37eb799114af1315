// One agent as a tile of the overview: status, what it does now (the tool and its argument, the text it is
// writing, the model it waits on, the permission it needs), and its figures — turn, tokens, cost, context
// use, time waiting on the model — in a few lines, so that dozens fit on screen at once. A click opens its
// full panel; its actions (steer, stop, maximize) show on the tile that has focus or the pointer.
import { useAttention, useWaitingRequest } from '../../state/agent-hooks'
import { onFigures, useAgentSansFigures } from '../../state/agent-figures'
import { memo, useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { modelWaitMs } from '../../../../shared/view/model-wait'
import { contextHigh, contextUse } from '../../../../shared/view/context-use'
import type { AgentState, TranscriptItem } from '../../../../shared/view/session-state'
import { isActive } from '../../../../shared/view/session-state'
import { AgentName } from '../../components/agent-name'
import { Icon } from '../../components/icon'
import { agentFullName } from '../../lib/agent-naming'
import { ModelWait } from '../../components/model-wait'
import { PermissionActions } from '../../components/permission-card'
import { StatusDot, statusStyle, statusWord } from '../../components/status'
import { formatClock, formatCost, formatCount, formatTokens } from '../../lib/format'
import { BudgetBar } from '../../components/budget-bar'
import { createMountBudget, useMountBudget } from '../../lib/mount-budget'
import { useAgentColor } from '../../lib/use-agent-color'
import { useNow } from '../../lib/use-now'
import { ATTENTION_LABEL } from '../../state/attention'
import { elapsedMs } from '../../state/selectors'
import { ui, useApp, type AppState } from '../../state/store'
import { subscribeAgent, useAgentApp } from '../../state/agent-subscriptions'
import { plainTailOf, tailWindow } from '../../lib/plain-preview'
import { followTextTail } from '../../state/stream-tails'
import { tileProps } from '../tile-props'
import { TileActions as Actions, TileMessage } from './tile-actions'
import { memoOnAgent } from '../../lib/memo-on-agent'
import { tileActivity, tileTextChars } from './tile-activity'
import type { Density } from '../../lib/overview-layout'

/** "34%", and "<1%" for a little (not "0%", which reads as none). */
export const percent = (fraction: number): string => (fraction > 0 && fraction < 0.005 ? '<1%' : `${Math.round(fraction * 100)}%`)

/** A figure's box given its text node (and its unit after it), for the text to be written into: see Stats. */
function figureText(el: HTMLElement, unit?: string): Text {
  const text = document.createTextNode('')
  if (!unit) el.replaceChildren(text)
  else {
    const tail = document.createElement('span')
    tail.className = 'tile-unit'
    tail.textContent = unit
    el.replaceChildren(text, tail)
  }
  return text
}

const write = (text: Text, value: string) => {
  if (text.nodeValue !== value) text.nodeValue = value
}
const tokenCount = (a: AgentState) => a.usage.inputTokens + a.usage.outputTokens + a.usage.cacheReadTokens + a.usage.cacheWriteTokens
const writeTitle = (el: HTMLElement, title: string) => {
  if (el.title !== title) el.title = title
}

// Memoized, like TileNow: each renders on its own clock (the figures each second, what the agent does when that changes; its text, per delta, is written by TileText).
// A model call's figures (tokens, cost, context) are written into their boxes as its usage arrives, not rendered:
// agents started together end their calls together, and 64 tiles' figures rendered at once were most of a
// frame of 45-60 ms every two seconds in the bench (agent-figures.ts).
const Stats = memo(function Stats({ agentId, sessionId }: { agentId: string; sessionId: string }) {
  const agent = useAgentSansFigures(sessionId, agentId)
  const statsRef = useRef<HTMLDivElement>(null)
  const tokensRef = useRef<HTMLSpanElement>(null)
  const costRef = useRef<HTMLSpanElement>(null)
  const contextRef = useRef<HTMLSpanElement>(null)
  const present = !!agent
  useLayoutEffect(() => {
    const statsEl = statsRef.current
    const tokensEl = tokensRef.current
    const costEl = costRef.current
    const contextEl = contextRef.current
    if (!statsEl || !tokensEl || !costEl || !contextEl) return
    const tokensText = figureText(tokensEl, ' tok')
    const costText = figureText(costEl)
    const contextText = figureText(contextEl, ' ctx')
    // The exact counts are tooltips, written only while the pointer is over the figures (64 tiles' tooltips
    // rewritten at each model call's end were attribute changes for nothing most of the time).
    let latest: AgentState | null = null
    let pointed = false
    const writeTitles = () => {
      const a = latest
      if (!a || !pointed) return
      const ctx = contextUse(a)
      writeTitle(tokensEl, `${formatCount(tokenCount(a))} tokens`)
      if (ctx) writeTitle(contextEl, `Context: ${formatCount(ctx.tokens)} of ${formatCount(ctx.window)} tokens`)
    }
    const enter = () => {
      pointed = true
      writeTitles()
    }
    const leave = () => {
      pointed = false
    }
    statsEl.addEventListener('pointerenter', enter)
    statsEl.addEventListener('pointerleave', leave)
    // The context's box is there from the start, hidden until the first call has answered (its size then known):
    // 64 boxes put in at once when the agents' first calls ended were frames of ~100 ms.
    const stop = onFigures(sessionId, agentId, (a) => {
      latest = a
      write(tokensText, formatTokens(tokenCount(a)))
      write(costText, formatCost(a.usage.costUsd))
      const ctx = contextUse(a)
      if (contextEl.hidden !== !ctx) contextEl.hidden = !ctx
      if (ctx) {
        write(contextText, percent(ctx.fraction))
        contextEl.classList.toggle('tile-ctx-high', contextHigh(ctx))
      }
      writeTitles()
    })
    return () => {
      stop()
      statsEl.removeEventListener('pointerenter', enter)
      statsEl.removeEventListener('pointerleave', leave)
    }
  }, [sessionId, agentId, present])
  const live = !!agent && agent.endedAt === null
  const now = useNow(live)
  if (!agent) return null
  const waited = modelWaitMs(agent, Math.max(now, agent.lastError?.ts ?? 0, agent.endedAt ?? 0))
  return (
    <div ref={statsRef} className="tile-stats">
      <span title={`Turn ${agent.turn}${agent.maxTurns ? ` of at most ${agent.maxTurns}` : ''}`} data-testid="tile-turn">
        t{agent.turn}
        {agent.maxTurns ? <span className="tile-dim">/{agent.maxTurns}</span> : null}
      </span>
      <span ref={tokensRef} data-testid="tile-tokens" />
      <span ref={costRef} title="Cost" />
      <BudgetBar sessionId={sessionId} agentId={agentId} bare />
      <span ref={contextRef} data-testid="tile-context" hidden />
      {waited >= 1000 && (
        <span className="tile-model-time" title="Time spent waiting on the model" data-testid="tile-model-time">
          <Icon name="hourglass" size={10} />
          {formatClock(waited)}
        </span>
      )}
      <span className="tile-clock" title="Elapsed">
        {formatClock(elapsedMs(agent, now))}
      </span>
    </div>
  )
})

type TextItem = Extract<TranscriptItem, { kind: 'text' | 'thinking' }>
const isText = (it: TranscriptItem | undefined): it is TextItem => it?.kind === 'text' || it?.kind === 'thinking'
// Stand-ins for the newest item while it is text: it changes at every delta, they do not, so the tile does
// not render per delta — TileText writes the text itself.
const TEXT_ITEM: Record<TextItem['kind'], TextItem> = {
  text: { kind: 'text', key: 'tile-text', text: '', ts: 0, streaming: true },
  thinking: { kind: 'thinking', key: 'tile-thinking', text: '', ts: 0, streaming: true }
}

/**
 * The newest text of an agent, its last `chars` as plain text, written into the span as deltas come rather
 * than rendered: at 64 agents streaming, a render and commit of each tile per delta was a third of the
 * page's script time. The span has no React children, so React and these writes never touch the same node.
 */
function TileText({ sessionId, agentId, chars, thinking }: { sessionId: string; agentId: string; chars: number; thinking: boolean }) {
  const ref = useRef<HTMLSpanElement>(null)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const lastText = (s: AppState) => {
      const items = s.events.sessions[sessionId]?.items[agentId]
      const last = items?.[items.length - 1]
      return isText(last) ? last : undefined
    }
    // Only the text's end is read, from what streamed since the last look (stream-tails.ts).
    const follow = followTextTail(sessionId, agentId, tailWindow(chars))
    const shown = (item: TextItem | undefined) => {
      if (!item) return ''
      const { window, cut } = follow(item)
      return plainTailOf(window, cut, chars)
    }
    // The text node's value changes, as React changes a text it renders: replacing the node instead (textContent)
    // made the page restyle and lay out a new text object at every delta.
    const node = document.createTextNode('')
    el.replaceChildren(node)
    let item = lastText(useApp.getState())
    node.nodeValue = shown(item)
    return subscribeAgent(sessionId, agentId, () => {
      const next = lastText(useApp.getState())
      if (next === item) return
      item = next
      node.nodeValue = shown(item)
    })
  }, [sessionId, agentId, chars])
  return <span ref={ref} className={`tile-text${thinking ? ' thinking' : ''}`} />
}

/** What the agent does now; its streamed text is TileText's, the one part of a tile that changes per delta. */
const TileNow = memo(function TileNow({ sessionId, agentId, compact, textChars }: { sessionId: string; agentId: string; compact: boolean; textChars: number }) {
  const agent = useAgentSansFigures(sessionId, agentId)
  const last = useAgentApp(sessionId, agentId, (s) => {
    const items = s.events.sessions[sessionId]?.items[agentId]
    const it = items?.[items.length - 1]
    return isText(it) ? TEXT_ITEM[it.kind] : it
  })
  const lastTool = useAgentApp(sessionId, agentId, (s) => (last?.kind === 'tool' ? s.events.sessions[sessionId]?.tools[last.toolUseId] : undefined))
  const current = useAgentApp(sessionId, agentId, (s) => (agent?.currentToolId ? s.events.sessions[sessionId]?.tools[agent.currentToolId] : undefined))
  const request = useWaitingRequest(sessionId, agentId)
  if (!agent) return null
  const activity = tileActivity(agent, last, lastTool, current, request, textChars)
  return (
    <div className={`tile-now tile-now-${activity.kind}`} data-testid="tile-now">
      {activity.kind === 'permission' && (
        <>
          <span className="tile-tool">{activity.tool}</span> <code className="tile-arg">{activity.summary}</code>
        </>
      )}
      {activity.kind === 'model' && <ModelWait agent={agent} form={compact ? 'tile' : 'full'} />}
      {activity.kind === 'queued' && <span className="muted">{activity.why}</span>}
      {activity.kind === 'tool' && (
        <>
          <span className="tile-tool">
            {activity.running ? '▸ ' : ''}
            {activity.tool}
          </span>{' '}
          <span className="tile-arg">{activity.summary}</span>
        </>
      )}
      {activity.kind === 'text' && <TileText sessionId={sessionId} agentId={agentId} chars={textChars} thinking={activity.thinking} />}
      {activity.kind === 'result' && <span className={`tile-text${activity.error ? ' err-text' : ''}`}>{activity.text || statusWord(agent)}</span>}
      {activity.kind === 'note' && <span className={`tile-text${activity.warn ? ' warn-text' : ' muted'}`}>{activity.text}</span>}
      {activity.kind === 'idle' && <span className="muted">Starting…</span>}
    </div>
  )
})

interface TileProps {
  sessionId: string
  agentId: string
  focused: boolean
  /** The one tile of the grid that Tab reaches (the others by arrow keys). */
  tabbable: boolean
  density: Exclude<Density, 'panels'>
  /** The tile's size in the grid: how much of the newest text it can show (tileTextChars). */
  width: number
  rowHeight: number
}

// The name and the buttons show a few of the agent's fields: a model call's figures do not draw them again.
const TileName = memoOnAgent(AgentName, ['description', 'name', 'agentType'])
const TileActions = memoOnAgent(Actions, ['sessionId', 'id', 'status', 'name', 'agentType', 'description', 'worktree'])

// 16 tiles a frame: a fan-out of 64 fills in over 4 frames instead of one task of ~70-80 ms (mount-budget.ts).
const TILE_MOUNTS = createMountBudget(16)

export const AgentTile = memo(function AgentTile(props: TileProps) {
  // Until its frame comes, an empty box holds the tile's place in the grid (no text, nothing to announce).
  return useMountBudget(TILE_MOUNTS) ? <Tile {...props} /> : <div className={`agent-tile ${props.density} tile-pending`} aria-hidden="true" />
})

/**
 * The context meter's fill, the tile body's background layers' sizes (overview.css: .tile-body.has-meter), set as
 * they are rather than through a custom property: a custom property set on the body is inherited by everything in
 * the tile, so when 64 agents' model calls ended together every tile was styled again whole (10-20 ms at once).
 * Written as the agent's usage arrives, like the figures (Stats), so the tile is not drawn again for it.
 */
const meterSize = (fraction: number): string => `calc((100% - 4px) * ${Math.min(1, fraction).toFixed(3)}) 2px, calc(100% - 4px) 2px`

function useContextMeter(body: RefObject<HTMLDivElement | null>, sessionId: string, agentId: string, present: boolean): void {
  useLayoutEffect(() => {
    const el = body.current
    if (!el) return
    let shown = ''
    return onFigures(sessionId, agentId, (a) => {
      const ctx = contextUse(a)
      const size = ctx ? meterSize(ctx.fraction) : ''
      const high = !!ctx && contextHigh(ctx)
      const now = `${size}${high ? ' high' : ''}`
      if (now === shown) return
      shown = now
      el.classList.toggle('has-meter', !!ctx)
      el.classList.toggle('meter-high', high)
      el.style.backgroundSize = size
    })
  }, [body, sessionId, agentId, present])
}

function Tile({ sessionId, agentId, focused, tabbable, density, width, rowHeight }: TileProps) {
  const agent = useAgentSansFigures(sessionId, agentId)
  const request = useWaitingRequest(sessionId, agentId)
  const attention = useAttention(sessionId, agentId)
  const [messaging, setMessaging] = useState(false)
  const color = useAgentColor(agent?.color, agent?.agentType ?? '')
  const toggleMessage = useCallback(() => setMessaging((m) => !m), [])
  const body = useRef<HTMLDivElement>(null)
  useContextMeter(body, sessionId, agentId, !!agent)
  if (!agent) return null
  const active = isActive(agent.status)
  return (
    <article
      className={`agent-tile ${density} status-${agent.status}${focused ? ' focused' : ''}${attention ? ` needs-you needs-${attention}` : ''}`}
      {...tileProps(agent, { testId: 'agent-tile', color, tabbable, focused })}
      aria-label={`${agentFullName(agent)}. ${attention ? ATTENTION_LABEL[attention] : statusWord(agent)}.`}
      onClick={(e) => {
        if ((e.target as HTMLElement).closest('button, input, a, details')) return
        ui.maximize(agent.id)
      }}
    >
      {/* The tile's inside is a box of its own size (position: absolute, contain: strict): its agent's text lays out
          there alone, not the grid around it, which Chromium lays out again from the page down for any grid item.
          Its shadow is the agent's color bar, its background the context meter (overview.css). */}
      <div ref={body} className="tile-body">
        <div className="tile-head">
          <StatusDot status={agent.status} />
          {/* The task first, in .agent-task's look: at 64 tiles it is what tells one agent from the next; the type is the badge, and gives way first. */}
          <TileName agent={agent} style={color} taskClass="tile-desc agent-task" />
          {attention ? (
            <span className={`tile-badge tile-badge-${attention}`} data-testid="tile-attention" title={ATTENTION_LABEL[attention]}>
              <Icon name={attention === 'permission' ? 'shield' : 'alert'} size={11} />
              <span className="tile-badge-text">{attention === 'permission' ? 'Needs you' : ATTENTION_LABEL[attention]}</span>
            </span>
          ) : !active || agent.status === 'queued' ? (
            <span className={`tile-status status-${agent.status}`} style={statusStyle(agent.status)}>
              {statusWord(agent)}
            </span>
          ) : null}
        </div>
        <TileNow sessionId={sessionId} agentId={agentId} compact={density === 'compact'} textChars={tileTextChars(width, rowHeight, density === 'compact')} />
        {request ? (
          <div className="tile-permission">
            <PermissionActions key={request.requestId} request={request} size="tile" />
          </div>
        ) : (
          <Stats agentId={agentId} sessionId={sessionId} />
        )}
        <TileActions agent={agent} onMessage={toggleMessage} />
        {messaging && <TileMessage agent={agent} onDone={() => setMessaging(false)} />}
      </div>
    </article>
  )
}
