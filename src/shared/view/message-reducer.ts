// Whole messages: an assistant message replaces what was streamed for it (or adds it, on a replay without
// deltas); a user message shows its text (not reminders, not deliveries shown already) and fills in tool
// results a replay without tool_end lacks.
import { typedCommand } from '../command-block'
import { contentBlocks, type ChatMessage } from '../events'
import { endStream, userText } from './inbox-reducer'
import type { SessionDraft } from './session-draft'
import type { AgentState, TranscriptItem } from './session-state'
import { settleStreaming } from './stream-reducer'
import { safeJson, startTool } from './tool-reducer'
import { pushItem } from './transcript-items'

/** The final assistant message replaces what was streamed for it (or adds it, on a replay without deltas). */
export function assistantMessage(d: SessionDraft, a: AgentState, message: ChatMessage, ts: number): void {
  const from = a.streamFrom ?? d.peekItems(a.id).length
  const items = d.items(a.id)
  const streamed = items.splice(from)
  const reuse = (kind: TranscriptItem['kind']) => {
    const i = streamed.findIndex((s) => s.kind === kind)
    return i === -1 ? null : streamed.splice(i, 1)[0]
  }
  for (const b of contentBlocks(message)) {
    if (b.type === 'text' || b.type === 'thinking') {
      const kind = b.type
      const text = b.type === 'text' ? b.text : b.thinking
      if (!text.trim()) continue
      const old = reuse(kind)
      if (old) items.push({ ...(old as Extract<TranscriptItem, { kind: 'text' }>), kind, text, streaming: false })
      else pushItem(d, a, { kind, text, ts, streaming: false })
    } else if (b.type === 'tool_use') {
      const old = streamed.find((s) => s.kind === 'tool' && s.toolUseId === b.id)
      if (old) {
        streamed.splice(streamed.indexOf(old), 1)
        items.push(old)
      }
      if (!d.hasTool(b.id)) startTool(d, a, b.id, b.name, ts, 'pending')
      else if (!old && !hasToolItem(items, b.id)) items.push({ kind: 'tool', key: `${a.id}:t:${b.id}`, toolUseId: b.id, ts })
      const t = d.tool(b.id)
      if (t.status === 'streaming') t.status = 'pending'
      if (t.input === undefined) t.input = b.input
      if (!t.inputJson) t.inputJson = safeJson(b.input)
    }
  }
  // Tool rows of calls that already ran (their run began before this message arrived) stay in place.
  for (const s of streamed) if (s.kind === 'tool') items.push(s)
  endStream(d, a)
}

function hasToolItem(items: readonly TranscriptItem[], toolUseId: string): boolean {
  for (let i = items.length - 1; i >= Math.max(0, items.length - 200); i--) {
    const it = items[i]
    if (it.kind === 'tool' && it.toolUseId === toolUseId) return true
  }
  return false
}

function isReminder(text: string): boolean {
  return /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/.test(text)
}

export function userMessage(d: SessionDraft, a: AgentState, message: ChatMessage, ts: number): void {
  settleStreaming(d, a)
  // A slash command shows as typed; the prompt it became (the next text block) is the model's, not the person's words.
  let afterCommand = false
  for (const b of contentBlocks(message)) {
    if (b.type === 'text') {
      if (!b.text.trim() || isReminder(b.text)) continue
      const typed = typedCommand(b.text)
      if (afterCommand) {
        afterCommand = false
        continue
      }
      if (typed) afterCommand = true
      userText(d, a, typed ?? b.text, ts)
    } else if (b.type === 'tool_result' && d.hasTool(b.tool_use_id)) {
      // Replays without tool_end still show the result.
      const t = d.peekTool(b.tool_use_id)!
      if (t.output === undefined) {
        const tool = d.tool(b.tool_use_id)
        tool.output = typeof b.content === 'string' ? b.content : b.content.map((c) => c.text).join('\n')
        tool.status = b.is_error ? 'error' : 'done'
        tool.endedAt = ts
      }
    }
  }
}
