// Where a conversation was compacted, in its transcript: everything above stays; the row says what the agent
// kept (the summary, on request), or why the compaction failed, or that it is under way.
import { useState } from 'react'
import { shortTokens } from '../../../shared/view/context-meter'
import type { CompactionItem } from '../../../shared/view/session-state'
import { Icon } from './icon'
import { MarkdownView } from './markdown-view'

const WHY: Record<CompactionItem['trigger'], string> = {
  auto: 'its context passed the threshold',
  overflow: 'the API said the prompt was too long',
  manual: 'asked for'
}

export function CompactionRow({ item, compact = false }: { item: CompactionItem; compact?: boolean }) {
  const [open, setOpen] = useState(false)
  if (item.state === 'running')
    return (
      <div className="compaction-row running" data-testid="compaction-marker" data-state="running">
        <span className="spinner" aria-hidden="true" />
        <span>Compacting the conversation ({WHY[item.trigger]})…</span>
      </div>
    )
  if (item.state === 'failed')
    return (
      <div className="compaction-row failed" role="alert" data-testid="compaction-marker" data-state="failed">
        <Icon name="alert" size={14} />
        <span>{item.error}</span>
      </div>
    )
  const sizes = item.tokensAfter !== undefined ? `${shortTokens(item.tokensBefore)} → ${shortTokens(item.tokensAfter)} tokens` : ''
  return (
    <div className={`compaction-row done${open ? ' open' : ''}`} data-testid="compaction-marker" data-state="done">
      <div className="compaction-line">
        <span className="compaction-rule" aria-hidden="true" />
        <button
          className="compaction-toggle"
          onClick={() => setOpen(!open)}
          aria-expanded={open}
          title={`Compacted because ${WHY[item.trigger]}${sizes ? `: ${sizes}` : ''}`}
          data-testid="compaction-toggle"
        >
          <Icon name="compact" size={13} />
          <span>Conversation compacted here — {open ? 'hide summary' : 'show summary'}</span>
        </button>
        {!compact && (
          <span className="compaction-meta muted small" title={`Compacted because ${WHY[item.trigger]}`}>
            {sizes}
          </span>
        )}
        <span className="compaction-rule" aria-hidden="true" />
      </div>
      {open && item.summary && (
        <div className="compaction-summary" data-testid="compaction-summary">
          <MarkdownView text={item.summary} />
        </div>
      )}
    </div>
  )
}
