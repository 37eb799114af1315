// Pulls the routing fields out of a Messages API body, and checks the rules the real API enforces
// (so a loop bug that the real API would reject fails here too, with the API's kind of message).
import { isModelAlias } from '../../../../shared/settings-fields'
import { withoutContextSuffix } from '../aliases'
import { versionOf } from '../prompt-cache-rules'
import { SUMMARY_REQUEST_HEADER } from '../../compaction/summary-prompt'
import type { ParsedRequest, SeenToolResult } from './types'
import { requestTokens, type AppliedEdits } from './usage'

/**
 * Models that take `{"role": "system"}` messages in the conversation ("Mid-conversation system messages":
 * Fable 5, Mythos 5, Opus 4.8 and later, Sonnet 5 and later). Others refuse the role as before.
 */
function takesSystemMessages(model: string): boolean {
  const v = versionOf(model)
  if (!v) return false
  const at = (major: number, minor = 0) => v.major > major || (v.major === major && v.minor >= minor)
  if (v.family === 'fable') return at(5)
  if (v.family === 'mythos') return !v.preview && at(5)
  if (v.family === 'opus') return at(4, 8)
  if (v.family === 'sonnet') return at(5)
  return false
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((b: any) => b?.type === 'text' && typeof b.text === 'string')
    .map((b: any) => b.text)
    .join('\n')
}

function toolResultsOf(content: unknown): SeenToolResult[] {
  if (!Array.isArray(content)) return []
  return content
    .filter((b: any) => b?.type === 'tool_result')
    .map((b: any) => ({ toolUseId: b.tool_use_id, content: typeof b.content === 'string' ? b.content : textOf(b.content), isError: b.is_error === true }))
}

export function parseRequest(
  method: string,
  path: string,
  headers: ParsedRequest['headers'],
  body: any,
  contextEdits: AppliedEdits | null = null
): ParsedRequest {
  const messages: ParsedRequest['messages'] = Array.isArray(body?.messages) ? body.messages : []
  const tools: ParsedRequest['tools'] = Array.isArray(body?.tools) ? body.tools : []
  const users = messages.filter((m) => m.role === 'user')
  const lastUser = users[users.length - 1]
  return {
    method,
    path,
    headers,
    body: body ?? null,
    model: typeof body?.model === 'string' ? body.model : '',
    system: textOf(body?.system),
    messages,
    tools,
    toolNames: tools.map((t) => t.name),
    stream: body?.stream === true,
    maxTokens: body?.max_tokens,
    thinking: body?.thinking,
    firstUserText: users.length ? textOf(users[0].content) : '',
    lastUserText: lastUser ? textOf(lastUser.content) : '',
    toolResults: lastUser ? toolResultsOf(lastUser.content) : [],
    turn: messages.filter((m) => m.role === 'assistant').length,
    inputTokens: body ? requestTokens(body) : 0,
    contextEdits,
    isSummaryRequest: lastUser ? textOf(lastUser.content).startsWith(SUMMARY_REQUEST_HEADER) : false
  }
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/

/** The first rule the body breaks, worded like the API's invalid_request_error; null when it is valid. */
export function validateMessagesBody(body: any): string | null {
  if (!body || typeof body !== 'object') return 'Request body must be a JSON object.'
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required'
  // The API knows model ids, not Claude Code's aliases: a bare "sonnet" is refused (aliases are resolved by the client side).
  if (isModelAlias(withoutContextSuffix(body.model))) return `model: ${body.model} is an alias, not a model id`
  if (typeof body.max_tokens !== 'number' || body.max_tokens < 0 || !Number.isInteger(body.max_tokens))
    return 'max_tokens: Field required (a whole number, 0 to pre-warm the cache)'
  if (!Array.isArray(body.messages) || !body.messages.length) return 'messages: at least one message is required'
  let breakpoints = 0
  const countCache = (b: any) => {
    if (b && typeof b === 'object' && b.cache_control) breakpoints++
  }
  if (Array.isArray(body.system)) body.system.forEach(countCache)
  const names = new Set<string>()
  for (const [i, t] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (!TOOL_NAME.test(t?.name ?? '')) return `tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`
    if (names.has(t.name)) return `tools: Tool names must be unique (${t.name})`
    names.add(t.name)
    if (t.input_schema?.type !== 'object') return `tools.${i}.input_schema.type: Input should be 'object'`
    countCache(t)
  }
  const messages: any[] = body.messages
  if (messages[0].role !== 'user') return 'messages: first message must use the "user" role'
  const systemRole = takesSystemMessages(body.model)
  for (const [i, m] of messages.entries()) {
    if (m.role === 'system' && systemRole) {
      const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content
      if (!Array.isArray(blocks) || !blocks.length || blocks.some((b: any) => b?.type !== 'text' || !b.text))
        return `messages.${i}: a system message holds non-empty text blocks only`
      continue
    }
    if (m.role !== 'user' && m.role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'${systemRole ? " or 'system'" : ''}`
    if (typeof m.content === 'string') {
      if (!m.content && i !== messages.length - 1) return `messages.${i}: all messages must have non-empty content`
      continue
    }
    if (!Array.isArray(m.content) || !m.content.length) return `messages.${i}: all messages must have non-empty content`
    let seenOther = false
    for (const [j, b] of m.content.entries()) {
      countCache(b)
      if (b.type === 'text' && !b.text) return `messages.${i}.content.${j}.text: text content blocks must be non-empty`
      if (b.type === 'tool_result') {
        if (m.role !== 'user') return `messages.${i}.content.${j}: tool_result blocks are only allowed in user messages`
        if (seenOther) return `messages.${i}: tool_result blocks must come first in the content, before any other block`
      } else seenOther = true
      if (b.type === 'tool_use' && m.role !== 'assistant') return `messages.${i}.content.${j}: tool_use blocks are only allowed in assistant messages`
    }
    if (m.role === 'assistant') {
      const uses: string[] = m.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id)
      if (!uses.length) continue
      const next = messages[i + 1]
      const answered = new Set(
        next && Array.isArray(next.content) ? next.content.filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id) : []
      )
      const missing = uses.filter((id) => !answered.has(id))
      if (missing.length)
        return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
    }
    if (m.role === 'user' && i > 0) {
      const prev = messages[i - 1]
      const asked = new Set(
        prev.role === 'assistant' && Array.isArray(prev.content) ? prev.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id) : []
      )
      for (const r of toolResultsOf(m.content))
        if (!asked.has(r.toolUseId))
          return `messages.${i}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${r.toolUseId}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`
    }
  }
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`
  return null
}
