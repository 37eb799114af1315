import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlToText } from './html-to-text'
import { toolContext } from './test-kit'
import { createWebFetchTool, WEB_FETCH_MAX_CHARS } from './web-fetch'
import { runTool } from '../tool-call/execute'

let server: Server
let base: string
const page = `<!doctype html><html><head><title>Docs &amp; Things</title><style>body{color:red}</style>
<script>alert("x")</script></head><body><nav>Menu</nav><h1>Install</h1><p>Run the <code>setup</code> step, see
<a href="https://example.com/more">the guide</a>.</p><ul><li>one</li><li>two &lt;b&gt;</li></ul>
<pre>line 1
  indented   line 2</pre><!-- hidden --></body></html>`

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
    if (req.url === '/json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    if (req.url === '/moved') return res.writeHead(301, { location: '/page' }).end()
    if (req.url === '/image') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50]))
    if (req.url === '/huge') return res.writeHead(200, { 'content-type': 'text/plain' }).end('z'.repeat(WEB_FETCH_MAX_CHARS + 500))
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const fetchTool = (input: Record<string, unknown>) => runTool(createWebFetchTool({ cwd: '/' }), input, toolContext())

describe('WebFetch', () => {
  it('fetches a page over real HTTP and turns HTML into readable text', async () => {
    const r = await fetchTool({ url: `${base}/page`, prompt: 'how to install' })
    expect(r.isError).toBe(false)
    expect(r.content).toContain('Title: Docs & Things')
    expect(r.content).toContain('Look for: how to install')
    expect(r.content).toContain('# Install')
    expect(r.content).toContain('Run the `setup` step, see [the guide](https://example.com/more).')
    expect(r.content).toContain('- two <b>')
    expect(r.content).toContain('```\nline 1\n  indented   line 2\n```')
    expect(r.content).not.toMatch(/alert|color:red|hidden/)
  })

  it('returns JSON as is, follows redirects and says so', async () => {
    expect((await fetchTool({ url: `${base}/json` })).content).toContain('{"ok":true}')
    const moved = await fetchTool({ url: `${base}/moved` })
    expect(moved.content).toContain(`URL: ${base}/page`)
    expect(moved.content).toContain('redirected from')
  })

  it('reports HTTP errors, binary content and oversized pages clearly', async () => {
    const missing = await fetchTool({ url: `${base}/missing` })
    expect(missing.isError).toBe(true)
    expect(missing.content).toContain('Status: 404')
    const img = await fetchTool({ url: `${base}/image` })
    expect(img.isError).toBe(true)
    expect(img.content).toContain('image/png')
    const huge = await fetchTool({ url: `${base}/huge` })
    expect(huge.content).toContain(`[Content cut at ${WEB_FETCH_MAX_CHARS}`)
  })

  it('says the network is unreachable instead of failing obscurely', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((r) => closed.close(() => r()))
    const r = await fetchTool({ url: `http://127.0.0.1:${port}/` })
    expect(r.isError).toBe(true)
    expect(r.content).toContain('connection was refused (ECONNREFUSED)')
    expect(r.content).toContain('offline')
  })

  it('rejects what is not an http(s) URL', async () => {
    expect((await fetchTool({ url: 'not a url' })).content).toContain('url')
    expect((await fetchTool({ url: 'file:///etc/passwd' })).content).toContain('Only http and https')
  })
})

describe('htmlToText', () => {
  it('decodes entities and keeps paragraphs apart', () => {
    expect(htmlToText('<p>a&nbsp;&#233;&#x263A;</p><p>b</p>').text).toBe('a é☺\n\nb')
  })
})
