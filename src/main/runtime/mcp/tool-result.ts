// An MCP tools/call result as our ToolResult. Text blocks become the text the model reads; a result that only
// carries structuredContent is shown as its JSON. Tool results here are text only, so an image (or audio, or a
// binary resource) reaches the model as a one-line note naming its type and size, and its data travels in
// `details` for the UI and the transcript.
import type { ToolResult } from '../tools/define-tool'

/** Images above this size keep only their type and size in details: transcripts must stay readable. */
const MAX_INLINE_IMAGE_BASE64 = 1_500_000

export interface McpResultDetails {
  server: string
  tool: string
  images?: Array<{ mimeType: string; bytes: number; data?: string }>
  structuredContent?: unknown
}

interface Block {
  type: string
  text?: string
  data?: string
  mimeType?: string
  uri?: string
  name?: string
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string }
}

const kb = (base64: string) => Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0)
const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${Math.round(bytes / 102.4) / 10} KB` : `${Math.round(bytes / 104857.6) / 10} MB`

export function mcpResultToToolResult(
  server: string,
  tool: string,
  result: { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown }
): ToolResult {
  const details: McpResultDetails = { server, tool }
  const parts: string[] = []
  const blocks: Block[] = Array.isArray(result.content) ? (result.content as Block[]) : []
  for (const b of blocks) {
    if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text)
    else if (b.type === 'image' && typeof b.data === 'string') {
      const bytes = kb(b.data)
      ;(details.images ??= []).push({ mimeType: b.mimeType ?? 'image', bytes, ...(b.data.length <= MAX_INLINE_IMAGE_BASE64 ? { data: b.data } : {}) })
      parts.push(
        `[${b.mimeType ?? 'image'} image, ${size(bytes)}, returned by ${tool}: images from MCP tools are kept for the person to see, not passed to you]`
      )
    } else if (b.type === 'audio' && typeof b.data === 'string') parts.push(`[${b.mimeType ?? 'audio'} audio, ${size(kb(b.data))}, not passed to you]`)
    else if (b.type === 'resource' && b.resource) {
      if (typeof b.resource.text === 'string') parts.push(`${b.resource.uri ? `[resource ${b.resource.uri}]\n` : ''}${b.resource.text}`)
      else
        parts.push(
          `[resource ${b.resource.uri ?? ''} (${b.resource.mimeType ?? 'binary'}${b.resource.blob ? `, ${size(kb(b.resource.blob))}` : ''}), not passed to you]`
        )
    } else if (b.type === 'resource_link') parts.push(`[resource link: ${b.uri ?? ''}${b.name ? ` (${b.name})` : ''}]`)
  }
  if (result.structuredContent !== undefined) {
    details.structuredContent = result.structuredContent
    if (!parts.length) parts.push(JSON.stringify(result.structuredContent, null, 2))
  }
  // Servers on the 2024-10-07 protocol answer with `toolResult` instead of content.
  if (!parts.length && result.toolResult !== undefined)
    parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult))
  const isError = result.isError === true
  const content = parts.join('\n') || (isError ? `${tool} failed without saying why.` : `(${tool} returned no content)`)
  return { content, details, ...(isError ? { isError: true } : {}) }
}
