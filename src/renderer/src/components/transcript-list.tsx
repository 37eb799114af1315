// An agent's transcript, virtualized: only rows near the viewport are in the DOM, so a 100,000-event
// session opens and scrolls like a short one. Follows the bottom until the person scrolls up (their own
// wheel, key, touch or scrollbar: scroll-intent.ts), and offers to jump back to the latest then. A
// reopened session's older items arrive after its newest (view/session-pages.ts): a row at the top says
// so until they are all in, and when they are put above what the user is reading, it stays in place.
import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { AGENT_TOOL_NAMES, type TranscriptItem } from '../../../shared/view/session-state'
import { afterLayout, cancelAfterLayout } from '../lib/after-layout'
import { followsAfterScroll, trackScrollIntent, type ScrollIntent } from '../lib/scroll-intent'
import { useApp } from '../state/store'
import { RetryButton } from './retry-button'
import { AgentCard } from './agent-card'
import { CompactionRow } from './compaction-row'
import { findRevealed, highlightWords } from './reveal'
import { useOpenRows } from './row-state'
import { Icon } from './icon'
import { InboxRow } from './inbox-row'
import { MarkdownView } from './markdown-view'
import { ToolRow } from './tool-row'

const EMPTY: TranscriptItem[] = []

function Thinking({ text, streaming }: { text: string; streaming: boolean }) {
  const [open, setOpen] = useState(false)
  return (
    <div className="thinking">
      <button className="thinking-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={12} />
        <span>{streaming ? 'Thinking…' : 'Thought'}</span>
        {!open && <span className="thinking-preview">{text.slice(-160)}</span>}
      </button>
      {open && <div className="thinking-body">{text}</div>}
    </div>
  )
}

const Row = memo(function Row({ item, sessionId, agentId, isRoot }: { item: TranscriptItem; sessionId: string; agentId: string; isRoot: boolean }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="msg-user" data-testid="user-message">
          <div className="msg-user-label">{isRoot ? 'You' : 'Prompt'}</div>
          <div className="msg-user-text">{item.text}</div>
        </div>
      )
    case 'text':
      return (
        <div className="msg-assistant" data-testid="assistant-text">
          <MarkdownView text={item.text} streaming={item.streaming} />
        </div>
      )
    case 'thinking':
      return <Thinking text={item.text} streaming={item.streaming} />
    case 'tool':
      return <ToolItem sessionId={sessionId} toolUseId={item.toolUseId} />
    case 'error':
      return (
        <div className={`msg-error${item.retrying ? ' retrying' : ''}`} role="alert">
          <Icon name="alert" size={14} />
          <span>{item.retrying ? `Retrying — ${item.message}` : item.message}</span>
          {!item.retrying && <RetryButton sessionId={sessionId} agentId={agentId} itemKey={item.key} />}
        </div>
      )
    case 'notice':
      return <div className="msg-notice">{item.text}</div>
    case 'command':
      return <CommandOutput command={item.command} text={item.text} />
    case 'inbox':
      return <InboxRow item={item} sessionId={sessionId} />
    case 'compaction':
      return <CompactionRow item={item} />
  }
})

/** A built-in answered in the app (`/cost`…): what was typed and the answer, set apart from the model's words. */
export function CommandOutput({ command, text, compact }: { command: string; text: string; compact?: boolean }) {
  return (
    <div className={`msg-command${compact ? ' compact' : ''}`} data-testid="command-output">
      <div className="msg-command-head">
        <code>{command}</code>
        <span>Answered by Fanout · not sent to the model</span>
      </div>
      <MarkdownView text={text} />
    </div>
  )
}

function ToolItem({ sessionId, toolUseId }: { sessionId: string; toolUseId: string }) {
  const isAgent = useApp((s) => AGENT_TOOL_NAMES.has(s.events.sessions[sessionId]?.tools[toolUseId]?.name ?? ''))
  return isAgent ? <AgentCard sessionId={sessionId} toolUseId={toolUseId} /> : <ToolRow sessionId={sessionId} toolUseId={toolUseId} />
}

function OlderRow({ count, error }: { count: number; error?: string }) {
  if (error)
    return (
      <div className="msg-error small" role="alert">
        Earlier items could not be loaded: {error} Open the session again to retry.
      </div>
    )
  return (
    <div className="msg-notice transcript-older" data-testid="transcript-older">
      Loading {count.toLocaleString()} earlier items…
    </div>
  )
}

export function TranscriptList({ sessionId, agentId, footer, empty }: { sessionId: string; agentId: string; footer?: ReactNode; empty?: ReactNode }) {
  const items = useApp((s) => s.events.sessions[sessionId]?.items[agentId] ?? EMPTY)
  const isRoot = useApp((s) => s.events.sessions[sessionId]?.rootAgentId === agentId)
  const older = useApp((s) => s.older[sessionId]?.items[agentId] ?? 0)
  const olderError = useApp((s) => (s.older[sessionId]?.items[agentId] ? s.older[sessionId].error : undefined))
  const scrollRef = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  // Not following (the person scrolled up, or a search result was revealed): a button brings them back down.
  const [behind, setBehind] = useState(false)
  const intent = useRef<ScrollIntent | null>(null)
  const top = older ? 1 : 0
  const count = top + items.length + (footer ? 1 : 0)
  // Stable while the items are: the virtualizer recomputes every row's position when this function
  // changes, and a new one per render made each row measurement cost O(rows) — seconds on a long replay.
  const getItemKey = useCallback((i: number) => (i < top ? 'older' : i - top < items.length ? items[i - top].key : 'footer'), [items, top])
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 56,
    overscan: 8,
    getItemKey,
    // When rows change at either end, the row at the top of the view keeps its place: older items put
    // above it do not move what is being read.
    anchorTo: 'end',
    // A scroll re-renders the rows in React's next task, not inside the scroll event (flushSync): the list's own
    // follow-the-bottom scroll at each batch of a wide fan-out's start rendered 64 agents' cards within the
    // scroll's task (~14 ms of a 50 ms task at 64 agents). The overscan rows cover the frame in between.
    useFlushSync: false
  })
  const total = virtualizer.getTotalSize()

  // Scrolled to the bottom once the frame is laid out, before it is painted: reading the height in the commit
  // laid out the whole page at each batch of a burst (64 agents' cards, tiles mounting beside them).
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el && atBottom.current) afterLayout(el, () => atBottom.current && (el.scrollTop = el.scrollHeight))
  }, [total, items])
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (!el) return
    const tracked = (intent.current = trackScrollIntent(el))
    return () => {
      cancelAfterLayout(el)
      tracked.dispose()
    }
  }, [])

  // A search result in this transcript: scrolled to (once its item is here; older pages may still come),
  // its tool row opened, the row marked and its words highlighted.
  const reveal = useApp((s) => (s.reveal?.sessionId === sessionId && s.reveal.agentId === agentId ? s.reveal : null))
  // The tools only while a result is being revealed: the list does not render again at each tool's change (at the
  // end of 64 agents, each render of the list read the page's layout again in the virtualizer's update).
  const tools = useApp((s) => (reveal ? s.events.sessions[sessionId]?.tools : undefined))
  const [revealed, setRevealed] = useState<{ key: string; n: number } | null>(null)
  useLayoutEffect(() => {
    if (!reveal || revealed?.n === reveal.n) return
    const i = findRevealed(items, reveal, tools)
    if (i === -1) return
    const item = items[i]
    if (item.kind === 'tool') useOpenRows.getState().show(item.toolUseId)
    atBottom.current = false
    setBehind(true)
    virtualizer.scrollToIndex(top + i, { align: 'center' })
    setRevealed({ key: item.key, n: reveal.n })
  }, [reveal, items, tools, revealed, top, virtualizer])
  useLayoutEffect(() => {
    if (!revealed || !reveal) return
    // The row is drawn once scrolled to: mark its words then (and again as it re-renders).
    const el = scrollRef.current?.querySelector(`[data-item-key="${CSS.escape(revealed.key)}"]`)
    highlightWords(el ?? null, reveal.words)
  })

  const onScroll = () => {
    const el = scrollRef.current
    // Our own follow-the-bottom scrolls, whose events come a frame later, leave it following: no layout read.
    if (!el || !intent.current || (atBottom.current && !intent.current.byPerson())) return
    atBottom.current = followsAfterScroll(el, intent.current, atBottom.current, 48)
    setBehind(!atBottom.current)
  }
  const jumpToLatest = () => {
    const el = scrollRef.current
    atBottom.current = true
    setBehind(false)
    if (el) el.scrollTop = el.scrollHeight
  }

  return (
    <div className="transcript-scroll" ref={scrollRef} onScroll={onScroll} data-testid="transcript">
      {count === 0 && empty}
      <div className="transcript-inner" style={{ height: total }}>
        {virtualizer.getVirtualItems().map((v) => (
          <div
            key={v.key}
            data-index={v.index}
            ref={virtualizer.measureElement}
            className={`transcript-row${revealed && v.key === revealed.key ? ' revealed' : ''}`}
            data-item-key={v.key}
            data-revealed={revealed && v.key === revealed.key ? 'true' : undefined}
            // Placed by `top`, not a transform: a transform per row is a property node per row that Chromium's
            // paint, pre-paint and layerizing walk at every frame of the page, whatever changed (64 agents
            // streaming: ~1 ms of each frame's fixed cost). A row's own layout is kept when only its top moves.
            style={{ top: v.start }}
          >
            {v.index < top ? (
              <OlderRow count={older} error={olderError} />
            ) : v.index - top < items.length ? (
              <Row item={items[v.index - top]} sessionId={sessionId} agentId={agentId} isRoot={isRoot} />
            ) : (
              footer
            )}
          </div>
        ))}
      </div>
      {behind && count > 0 && (
        // Sticky at the scroller's foot: it shows only while the end of the list is out of view.
        <div className="jump-latest-dock">
          <button className="jump-latest" data-testid="jump-latest" onClick={jumpToLatest} title="Scroll to the newest message and follow it">
            <Icon name="chevronDown" size={12} />
            <span>Jump to latest</span>
          </button>
        </div>
      )}
    </div>
  )
}
