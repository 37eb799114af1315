// WebFetch: fetches a URL and returns its text (HTML converted to readable text). Claude Code runs a small
// model over the page with `prompt`; here the page text goes back to the agent itself, with the prompt
// restated so it knows what to look for. Network failures say so plainly (this machine may be offline).
import { z } from 'zod'
import { toolInput } from './define-tool'
import { builtinTool } from './builtin-tool'
import { htmlToText } from './html-to-text'
import { errorMessage } from '../../../shared/error-message'

export const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024
export const WEB_FETCH_MAX_CHARS = 60_000
export const WEB_FETCH_TIMEOUT_MS = 30_000

const schema = toolInput('WebFetch', () =>
  z.object({
    url: z.string().url().describe('The URL to fetch (http or https)'),
    prompt: z.string().optional().describe('What to look for in the page')
  })
)

const NETWORK_CODES: Record<string, string> = {
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'DNS lookup failed (no network?)',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  ENETUNREACH: 'the network is unreachable',
  EHOSTUNREACH: 'the host is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out'
}

function describeFetchError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause
  const code = cause?.code
  if (code && NETWORK_CODES[code]) return `${NETWORK_CODES[code]} (${code})`
  if ((err as Error).name === 'TimeoutError') return `no response within ${WEB_FETCH_TIMEOUT_MS / 1000} s`
  return cause?.message ?? errorMessage(err)
}

async function readCapped(res: Response, max: number): Promise<{ bytes: Buffer; cut: boolean }> {
  if (!res.body) return { bytes: Buffer.alloc(0), cut: false }
  const chunks: Buffer[] = []
  let size = 0
  const reader = res.body.getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    chunks.push(Buffer.from(value))
    size += value.length
    if (size >= max) {
      await reader.cancel().catch(() => {})
      return { bytes: Buffer.concat(chunks).subarray(0, max), cut: true }
    }
  }
  return { bytes: Buffer.concat(chunks), cut: false }
}

function isTextual(contentType: string): boolean {
  return contentType === '' || /^text\/|json|xml|javascript|ecmascript|yaml|csv|markdown/i.test(contentType)
}

export const WEB_FETCH_TOOL = builtinTool({ name: 'WebFetch', readOnly: true, concurrencySafe: true, permission: 'network' }, () => ({
  description: [
    'Fetches a URL and returns its content as text (HTML is converted to readable text; at most ' + WEB_FETCH_MAX_CHARS + ' characters).',
    'Use prompt to say what you are looking for. Fails clearly when the network is unavailable.'
  ].join('\n'),
  schema,
  maxOutputChars: WEB_FETCH_MAX_CHARS + 2_000,
  async execute(input, ctx) {
    const url = new URL(input.url)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { content: `Only http and https URLs can be fetched, not ${url.protocol}`, isError: true }
    const started = Date.now()
    let res: Response
    try {
      res = await fetch(url, {
        redirect: 'follow',
        signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(WEB_FETCH_TIMEOUT_MS)]),
        headers: { 'user-agent': 'Fanout-WebFetch/0.1', accept: 'text/html,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5' }
      })
    } catch (err) {
      if (ctx.signal.aborted) throw err
      return { content: `Could not fetch ${input.url}: ${describeFetchError(err)}. The machine may be offline or the site unreachable.`, isError: true }
    }
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
    const { bytes, cut } = await readCapped(res, WEB_FETCH_MAX_BYTES)
    const details = { url: input.url, finalUrl: res.url, status: res.status, contentType, bytes: bytes.length, durationMs: Date.now() - started }
    if (!isTextual(contentType))
      return { content: `${res.url} returned ${contentType} (${bytes.length} bytes), which is not text; WebFetch returns text only.`, isError: true, details }
    const raw = bytes.toString('utf8')
    const isHtml = contentType.includes('html') || (contentType === '' && /^\s*<(!doctype html|html)/i.test(raw))
    const page = isHtml ? htmlToText(raw) : { title: undefined, text: raw }
    let text = page.text
    const notes: string[] = []
    if (cut) notes.push(`[The response was larger than ${WEB_FETCH_MAX_BYTES / 1048576} MB; only the start was read.]`)
    if (text.length > WEB_FETCH_MAX_CHARS) {
      notes.push(`[Content cut at ${WEB_FETCH_MAX_CHARS} of ${text.length} characters.]`)
      text = text.slice(0, WEB_FETCH_MAX_CHARS)
    }
    const header = [`URL: ${res.url}`, `Status: ${res.status} ${res.statusText}`.trim()]
    if (res.url !== url.href) header.push(`(redirected from ${input.url})`)
    if (page.title) header.push(`Title: ${page.title}`)
    if (input.prompt) header.push(`Look for: ${input.prompt}`)
    const content = [header.join('\n'), '', text || '(empty response)', ...notes].join('\n')
    return { content, isError: !res.ok, details }
  }
}))

/** WebFetch, built for one agent alone (tests; the registry builds them all). */
export const createWebFetchTool = WEB_FETCH_TOOL.create
