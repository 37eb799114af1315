// An agent's context window in the UI state: its size and threshold from agent_start, how full it is from each
// model call's usage (a summary call's excepted), and its compactions, which also leave a marker in its
// transcript where they happened. Any view can read `AgentState.context` (see context-meter.ts).
import type { AgentStartEvent, CompactionEvent, CompactionStartEvent, UsageEvent } from '../events'
import type { SessionDraft } from './session-draft'
import type { AgentState, CompactionItem } from './session-state'
import { pushItem } from './transcript-items'

export function contextAtStart(a: AgentState, e: AgentStartEvent): void {
  if (!e.context) return
  a.context = {
    tokens: a.context?.tokens ?? null,
    compactions: a.context?.compactions ?? 0,
    compactedAt: a.context?.compactedAt ?? [],
    ...e.context,
    compacting: false
  }
}

export function contextUsage(a: AgentState, e: UsageEvent): void {
  if (!a.context || e.purpose === 'compaction') return
  const u = e.usage
  a.context = { ...a.context, tokens: u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens + u.outputTokens }
}

export function compactionStart(d: SessionDraft, a: AgentState, e: CompactionStartEvent): void {
  if (a.context) a.context = { ...a.context, compacting: true }
  pushItem(d, a, { kind: 'compaction', ts: e.ts, trigger: e.trigger, state: 'running', tokensBefore: e.tokensBefore })
}

export function compactionEnd(d: SessionDraft, a: AgentState, e: CompactionEvent): void {
  const ok = !e.error
  if (a.context)
    a.context = {
      ...a.context,
      compacting: false,
      ...(ok ? { tokens: e.tokensAfter ?? a.context.tokens, compactions: a.context.compactions + 1, compactedAt: [...a.context.compactedAt, e.ts] } : {})
    }
  const done: Partial<CompactionItem> = ok ? { state: 'done', tokensAfter: e.tokensAfter, summary: e.summary } : { state: 'failed', error: e.error }
  const items = d.items(a.id)
  // The marker compaction_start put down (the latest still running), else a new one (a replay that lacks it).
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]
    if (it.kind === 'compaction' && it.state === 'running') {
      items[i] = { ...it, ...done }
      return
    }
  }
  pushItem(d, a, { kind: 'compaction', ts: e.ts, trigger: e.trigger, tokensBefore: e.tokensBefore, state: 'running', ...done } as Omit<CompactionItem, 'key'>)
}
