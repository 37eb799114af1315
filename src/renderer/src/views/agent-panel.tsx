// One subagent's live panel: identity (color, type, model), status, time, turns, tokens, cost, current
// tool, worktree branch, its streaming transcript tail, and actions (stop, message, transcript, maximize).
import { useAttention, useWaitingRequest } from '../state/agent-hooks'
import { MESSAGE_MAX_CHARS } from '../../../shared/ipc-contract'
import { lengthVerdict } from '../lib/length-limit'
import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react'
import { AgentCard } from '../components/agent-card'
import { CompactButton } from '../components/compact-button'
import { CompactionRow } from '../components/compaction-row'
import { ContextMeter } from '../components/context-meter'
import { AgentName } from '../components/agent-name'
import { Icon } from '../components/icon'
import { agentFullName } from '../lib/agent-naming'
import { InboxRow } from '../components/inbox-row'
import { CommandOutput } from '../components/transcript-list'
import { MarkdownView } from '../components/markdown-view'
import { CommandParts, PermissionActions } from '../components/permission-card'
import { EditDiffView } from '../components/edit-diff-view'
import { StatusBadge, statusWord } from '../components/status'
import { ToolRow } from '../components/tool-row'
import { ChangesButton } from '../review/changes-button'
import { OpenWorktreeButton } from './open-worktree'
import { refocusWhenLost } from '../lib/focus'
import { reasonBeyondInput } from '../lib/permission-reason'
import { formatClock, formatCost, formatTokens, truncate } from '../lib/format'
import { toolSummary } from '../lib/tool-summary'
import { useAgentColor } from '../lib/use-agent-color'
import { useFollowBottom } from '../lib/use-follow-bottom'
import { useHeldOffscreen } from '../lib/use-held-offscreen'
import { useNow } from '../lib/use-now'
import { elapsedMs } from '../state/selectors'
import { AGENT_TOOL_NAMES, isActive, type AgentState, type PermissionState, type TranscriptItem } from '../../../shared/view/session-state'
import { usageBreakdown } from '../../../shared/usage'
import { sendMessage, ui, useApp } from '../state/store'
import { useRunningElsewhere } from './running-elsewhere'
import { ModelWait } from '../components/model-wait'
import { StopButton } from './stop-button'
import { RetryButton } from '../components/retry-button'
import { tileProps } from './tile-props'
import { useTask } from '../lib/use-task'
import { queuedWhy } from './overview/tile-activity'

const TAIL = 24
/** A panel shows a few lines of a long message: about three panels' worth is laid out, not all of it. */
const TAIL_CHARS = 2000
const EMPTY: TranscriptItem[] = []

export function AgentMeta({ agent }: { agent: AgentState }) {
  const now = useNow(agent.endedAt === null)
  const tokens = agent.usage.inputTokens + agent.usage.outputTokens + agent.usage.cacheReadTokens + agent.usage.cacheWriteTokens
  return (
    <div className="panel-meta">
      <span title="Model">{agent.resolvedModel ?? agent.model}</span>
      <span title="Elapsed">{formatClock(elapsedMs(agent, now))}</span>
      <span title="Turns used / limit" data-testid="panel-turns">
        turn {agent.turn}
        {agent.maxTurns ? `/${agent.maxTurns}` : ''}
      </span>
      <span className="panel-meta-tokens" title={usageBreakdown(agent.usage)}>
        {formatTokens(tokens)} tok
      </span>
      <span title={usageBreakdown(agent.usage)} data-testid="panel-cost">
        {formatCost(agent.usage.costUsd)}
      </span>
      <ContextMeter context={agent.context} fit />
    </div>
  )
}

export function PanelActions({ agent, onMessage, maximized }: { agent: AgentState; onMessage?: () => void; maximized?: boolean }) {
  const [error, setError] = useState<string | null>(null)
  // Another process runs the session: nothing to stop or tell from here.
  const elsewhere = useRunningElsewhere(agent.sessionId)
  const active = isActive(agent.status) && !elsewhere
  return (
    <div className="panel-actions">
      {error && (
        <span className="inline-error small" role="alert" title={error}>
          {truncate(error, 60)}
        </span>
      )}
      {agent.context && agent.context.tokens !== null && <CompactButton sessionId={agent.sessionId} agentId={agent.id} compacting={agent.context.compacting} />}
      {active && onMessage && (
        <button className="icon-button" title="Steer: send this agent a message (M)" onClick={onMessage} data-testid="panel-message" data-action="message">
          <Icon name="message" size={14} />
        </button>
      )}
      {active && <StopButton agent={agent} title="Stop this agent (S)" size={14} testId="panel-stop" setError={setError} />}
      <ChangesButton agent={agent} />
      <OpenWorktreeButton agent={agent} />
      <button
        className="icon-button"
        title={maximized ? 'Back to the grid (Esc)' : 'Maximize this panel: its whole transcript, the full width of the pane (Enter)'}
        aria-label={maximized ? 'Back to the grid' : 'Maximize this panel'}
        onClick={() => ui.maximize(maximized ? null : agent.id)}
        data-testid="panel-maximize"
        data-action={maximized ? undefined : 'maximize'}
      >
        <Icon name={maximized ? 'minimize' : 'maximize'} size={14} />
      </button>
    </div>
  )
}

// Memoized: its panel renders again for every delta, the header only when its agent changes.
export const PanelHeader = memo(function PanelHeader({ agent, onMessage, maximized }: { agent: AgentState; onMessage?: () => void; maximized?: boolean }) {
  return (
    <div className="panel-header">
      <div className="panel-title-row">
        <StatusBadge status={agent.status} limit={agent.limit} compact />
        {/* The task first (what differs between panels), the type as its badge. */}
        <AgentName agent={agent} taskClass="panel-desc agent-task" />
        <span className="panel-status-word" title={agent.limit ? agent.error : undefined}>
          {statusWord(agent)}
        </span>
        <PanelActions agent={agent} onMessage={onMessage} maximized={maximized} />
      </div>
      <AgentMeta agent={agent} />
      {agent.worktree && (
        <div className="panel-branch" title={agent.worktree.path}>
          <Icon name="branch" size={12} /> {agent.worktree.branch}
          {agent.worktree.kept === false && <span className="muted"> (cleaned up)</span>}
        </div>
      )}
    </div>
  )
})

// Memoized: a panel re-renders on each delta, but only its last item changed.
const TailItem = memo(function TailItem({ item, sessionId, agentId }: { item: TranscriptItem; sessionId: string; agentId: string }) {
  const isAgentTool = useApp((s) => item.kind === 'tool' && AGENT_TOOL_NAMES.has(s.events.sessions[sessionId]?.tools[item.toolUseId]?.name ?? ''))
  switch (item.kind) {
    case 'user':
      return <div className="tail-user">{truncate(item.text, 600)}</div>
    case 'text':
      return <MarkdownView text={item.text} streaming={item.streaming} tailChars={TAIL_CHARS} />
    case 'thinking':
      return <div className="tail-thinking">{item.text.slice(-300)}</div>
    case 'tool':
      return isAgentTool ? <AgentCard sessionId={sessionId} toolUseId={item.toolUseId} /> : <ToolRow sessionId={sessionId} toolUseId={item.toolUseId} compact />
    case 'error':
      return (
        <div className={`msg-error small${item.retrying ? ' retrying' : ''}`}>
          {item.message}
          {!item.retrying && <RetryButton sessionId={sessionId} agentId={agentId} itemKey={item.key} />}
        </div>
      )
    case 'notice':
      return <div className="msg-notice">{item.text}</div>
    case 'command':
      return <CommandOutput command={item.command} text={item.text} compact />
    case 'inbox':
      return <InboxRow item={item} sessionId={sessionId} compact />
    case 'compaction':
      return <CompactionRow item={item} compact />
  }
})

/**
 * The request an agent waits on: the tool and its command (or path) once, what the reason says beyond it,
 * and the answers.
 */
function PanelPermission({ request }: { request: PermissionState }) {
  const summary = toolSummary(request.toolName, request.input)
  const news = summary ? reasonBeyondInput(request.reason, request.input) : request.reason
  return (
    <div className="panel-permission" data-testid="panel-permission">
      <div className="small" title={summary || undefined}>
        <Icon name="shield" size={12} className="panel-permission-icon" /> Wants to use <strong>{request.toolName}</strong>
        {summary && !request.commandParts?.length && (
          <>
            : <code>{truncate(summary, 140)}</code>
          </>
        )}
      </div>
      {news && (
        <div className="panel-permission-reason small" data-testid="panel-permission-reason">
          {news}
        </div>
      )}
      <CommandParts parts={request.commandParts} />
      <EditDiffView toolName={request.toolName} input={request.input} previousText={request.previousText} />
      <PermissionActions key={request.requestId} request={request} size="panel" />
    </div>
  )
}

export function MessageInput({ agent, onDone }: { agent: AgentState; onDone: () => void }) {
  const [text, setText] = useState('')
  const { error, run } = useTask()
  const box = useRef<HTMLDivElement>(null)
  // Sent or dismissed, the box goes away with the focus: back to the button that opened it.
  useLayoutEffect(() => {
    const panel = box.current?.closest('.agent-panel')
    return () => refocusWhenLost(() => panel?.querySelector('[data-testid=panel-message]') ?? panel?.querySelector('[data-testid=panel-maximize]'))
  }, [])
  const length = lengthVerdict(text.length, MESSAGE_MAX_CHARS)
  const send = async () => {
    if (!text.trim() || length.over) return
    await run(async () => {
      await sendMessage(agent.sessionId, agent.id, text.trim())
      setText('')
      onDone()
    })
  }
  return (
    <div className="panel-message-input" ref={box}>
      <input
        autoFocus
        value={text}
        placeholder={`Message ${agent.agentType}…`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void send()
          if (e.key === 'Escape') onDone()
        }}
        data-testid="panel-message-input"
      />
      <button className="btn btn-sm btn-primary" onClick={() => void send()} disabled={length.over}>
        Send
      </button>
      {length.text && (
        <div className={length.over ? 'inline-error small' : 'muted small'} role={length.over ? 'alert' : undefined}>
          {length.text}
        </div>
      )}
      {error && <div className="inline-error small">{error}</div>}
    </div>
  )
}

export const AgentPanel = memo(function AgentPanel({
  sessionId,
  agentId,
  focused,
  tabbable = false,
  dense = false
}: {
  sessionId: string
  agentId: string
  focused: boolean
  /** The one panel of the grid that Tab reaches (the others by arrow keys). */
  tabbable?: boolean
  dense?: boolean
}) {
  const agent = useApp((s) => s.events.sessions[sessionId]?.agents[agentId])
  const items = useApp((s) => s.events.sessions[sessionId]?.items[agentId] ?? EMPTY)
  // A reopened session's older items may still be on their way: they count as earlier items too.
  const older = useApp((s) => s.older[sessionId]?.items[agentId] ?? 0)
  const currentTool = useApp((s) => (agent?.currentToolId ? s.events.sessions[sessionId]?.tools[agent.currentToolId] : undefined))
  const request = useWaitingRequest(sessionId, agentId)
  const attention = useAttention(sessionId, agentId)
  const [messaging, setMessaging] = useState(false)
  const toggleMessaging = useCallback(() => setMessaging((m) => !m), [])
  const follow = useFollowBottom()
  const ref = useRef<HTMLDivElement>(null)

  const focusSeq = useApp((s) => (focused ? s.focusSeq : 0))
  useLayoutEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' })
  }, [focused, focusSeq])

  const shownItems = useHeldOffscreen(ref, items)
  const color = useAgentColor(agent?.color, agent?.agentType ?? '', agent?.parentId === null)

  if (!agent) return null
  const tail = shownItems.length > TAIL ? shownItems.slice(-TAIL) : shownItems
  // The call waiting for an answer shows in the permission block, with the answers: not again as the
  // current tool, nor as a row of the tail (it comes back there once answered).
  const waitingToolId = request?.toolUseId
  return (
    <article
      ref={ref}
      className={`agent-panel status-${agent.status}${focused ? ' focused' : ''}${dense ? ' dense' : ''}${attention ? ` needs-you needs-${attention}` : ''}`}
      {...tileProps(agent, { testId: 'agent-panel', color, tabbable, focused })}
      aria-label={agentFullName(agent)}
    >
      <PanelHeader agent={agent} onMessage={toggleMessaging} />
      <ModelWait agent={agent} className="panel-model-wait" />
      {currentTool && currentTool.id !== waitingToolId && (
        <div className="panel-current-tool" title={toolSummary(currentTool.name, currentTool.input, currentTool.inputJson)}>
          <span className="spinner" aria-hidden="true" />
          <strong>{currentTool.name}</strong> <span className="muted">{toolSummary(currentTool.name, currentTool.input, currentTool.inputJson)}</span>
        </div>
      )}
      {request && <PanelPermission request={request} />}
      <div className="panel-body">
        <div className="panel-scroll" ref={follow.scrollRef}>
          <div className="panel-body-content" ref={follow.contentRef}>
            {shownItems.length + older > TAIL && (
              <button className="btn-link small panel-earlier" onClick={() => ui.maximize(agent.id)}>
                {shownItems.length + older - TAIL} earlier items — open the full transcript
              </button>
            )}
            {tail.map((item) =>
              item.kind === 'tool' && item.toolUseId === waitingToolId ? null : <TailItem key={item.key} item={item} sessionId={sessionId} agentId={agentId} />
            )}
            {agent.status === 'queued' && <div className="msg-notice">{queuedWhy(agent)}</div>}
          </div>
        </div>
      </div>
      {messaging && <MessageInput agent={agent} onDone={() => setMessaging(false)} />}
    </article>
  )
})
