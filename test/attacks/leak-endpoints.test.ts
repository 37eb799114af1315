// Attack suite, secrets leaving: endpoints that echo the credential back (in an Anthropic error, an HTML
// gateway page, a retried 500, a model reply streamed a character at a time, base64), tool output and
// hooks and MCP servers that print it. Wherever data leaves the runtime — events, transcripts and state on
// disk, the browser-mode WebSocket, the Electron IPC answer, `fanout run`'s stdout and stderr in every
// output format — neither the key nor the auth token appears.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { ensureCliBundle, runCli } from '../support/cli'
import { hookCommand, hooksSettings, readHookLog } from '../../src/main/runtime/hooks/testing/fixture'
import { LocalRuntimeHost } from '../../src/main/runtime/host'
import { createModelClient } from '../../src/main/runtime/model/client'
import { reply, scriptLead } from '../../src/main/runtime/model/scripted'
import { closeFixtures, makeFixture } from '../../src/main/runtime/orchestration/testing/session-fixture'
import { startWebServer } from '../../src/main/web/server'
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../src/shared/ipc-contract'
import { dispatchCall } from '../../src/shared/ipc-dispatch'
import { hostOptions } from '../support/host'
import { waitUntil } from '../../src/main/runtime/tools/test-kit'

// An Anthropic-shaped key, and a gateway token that looks like nothing in particular (only registration finds it).
const KEY = 'sk-ant-api03-LEAKTEST_9f8e7d6c5b4a3928171605f4e3d2c1b0a9f8e7d6c5b4a39281716-ZZZZ'
const TOKEN = 'gw_7c1d0e9f8a7b6c5d4e3f2a1b'
const b64 = (s: string) => Buffer.from(s).toString('base64')
const rev = (s: string) => [...s].reverse().join('')
const hex = (s: string) => Buffer.from(s).toString('hex')
/** The SDK sends an API key as `x-api-key` or `Authorization: Bearer`, by version. */
const sentKey = (h: Record<string, string | string[] | undefined>) => String(h['x-api-key'] ?? String(h.authorization ?? '').replace(/^Bearer /, ''))

/** Every place a credential must not be in: the text, and every file under these folders. */
function expectClean(where: string, text: string): void {
  for (const secret of [
    KEY,
    TOKEN,
    KEY.slice(13, 60),
    KEY.slice(14, 40),
    KEY.slice(44, 70),
    TOKEN.slice(0, 12),
    TOKEN.slice(14),
    b64(KEY).slice(4, 60),
    rev(KEY).slice(5, 60),
    rev(TOKEN),
    hex(KEY).slice(26, 100),
    hex(TOKEN)
  ])
    if (text.includes(secret)) throw new Error(`${where} carries a credential (${secret.slice(0, 12)}…)`)
}
function filesUnder(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n)
      if (statSync(p).isDirectory()) walk(p)
      else out.push(p)
    }
  }
  walk(dir)
  return out
}
function expectCleanFiles(dir: string): number {
  const files = filesUnder(dir).filter((f) => !f.endsWith('/credentials'))
  for (const f of files) expectClean(f, readFileSync(f, 'utf8'))
  return files.length
}

type Echo = 'anthropic-401' | 'html-403' | 'retry-500' | 'base64-400' | 'json-echo-headers' | 'reversed-401' | 'hex-400' | 'halves-403'

/** A gateway that echoes the credentials it was sent, in the shape `mode` says. */
function echoGateway(mode: Echo): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    hits++
    req.resume()
    const key = String(req.headers['x-api-key'] ?? '')
    const auth = String(req.headers.authorization ?? '')
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': type, ...headers }).end(body)
    if (mode === 'anthropic-401')
      return send(
        401,
        'application/json',
        JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key: ${key} (authorization: ${auth})` } })
      )
    if (mode === 'html-403')
      return send(403, 'text/html', `<html><body><h1>403</h1><p>Request headers: x-api-key: ${key}<br>Authorization: ${auth}</p></body></html>`)
    if (mode === 'retry-500')
      return send(500, 'application/json', JSON.stringify({ type: 'error', error: { type: 'api_error', message: `upstream rejected ${key}${auth}` } }), {
        'retry-after': '0'
      })
    if (mode === 'base64-400')
      return send(
        400,
        'application/json',
        JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `bad credential ${b64(key || auth.replace(/^Bearer /, ''))}` } })
      )
    const sent = key || auth.replace(/^Bearer /, '')
    if (mode === 'reversed-401')
      return send(401, 'application/json', JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `key ${rev(sent)} is invalid` } }))
    if (mode === 'hex-400')
      return send(400, 'application/json', JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `credential 0x${hex(sent)}` } }))
    if (mode === 'halves-403') return send(403, 'text/plain', `first part: ${sent.slice(0, sent.length >> 1)}\nsecond part: ${sent.slice(sent.length >> 1)}\n`)
    return send(401, 'application/json', JSON.stringify({ received: req.headers }))
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        hits: () => hits,
        close: () => new Promise<void>((r) => server.close(() => r()))
      })
    )
  )
}

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  await closeFixtures()
  for (const c of cleanup.splice(0).reverse()) await c()
})

const ECHOES: Echo[] = ['anthropic-401', 'html-403', 'retry-500', 'base64-400', 'json-echo-headers', 'reversed-401', 'hex-400', 'halves-403']
const CREDENTIALS = [
  ['an API key', { apiKey: KEY }],
  ['an auth token', { authToken: TOKEN }]
] as const

describe('attack suite: endpoints that echo the credential', () => {
  it.each(ECHOES.flatMap((e) => CREDENTIALS.map(([what, cred]) => [e, what, cred] as const)))(
    '%s with %s: no event, transcript or state file carries it',
    async (mode, _what, cred) => {
      const gw = await echoGateway(mode)
      cleanup.push(gw.close)
      const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-leak-')))
      const client = createModelClient({ ...cred, baseURL: gw.url, maxRetries: 2, retryBaseMs: 1, retryMaxMs: 2, env: {} })
      const f = await makeFixture({ respond: () => reply.text('unused') }, { root, client, headless: true })
      const result = await f.session.run('hello')
      await f.session.idle()
      await f.session.flush()
      expect(result.status).toBe('failed')
      expect(gw.hits()).toBeGreaterThan(0)
      // (The run's result object stays in the process: where it is printed, the CLI's output is checked below.)
      expectClean('the events', JSON.stringify(f.events))
      expect(f.events.some((e) => e.type === 'error' || (e.type === 'agent_end' && e.error))).toBe(true)
      expect(expectCleanFiles(f.dataDir)).toBeGreaterThan(0)
    }
  )
})

describe('attack suite: a model reply that carries the key, streamed a character at a time', () => {
  it.each([1, 2, 3, 7, 48])('chunks of %i: no delta, message or transcript line carries any of it', async (chunk) => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-stream-')))
    const f = await makeFixture(
      { respond: (req) => ({ ...reply.text(`Your key is ${sentKey(req.headers)} and ${b64(sentKey(req.headers))}, keep it safe.`), textChunk: chunk }) },
      { root, headless: true }
    )
    // The fixture's client uses the scripted server's own key; point one at it with ours.
    const client = createModelClient({ apiKey: KEY, baseURL: f.model.server.url, maxRetries: 0, env: {} })
    const g = await makeFixture({ respond: () => reply.text('unused') }, { root: join(root, 'second'), client, headless: true })
    const result = await g.session.run('What is my key?')
    await g.session.flush()
    expect(result.status).toBe('completed')
    // The answer as it left the runtime (the agent_end event, what the UI and the transcript get).
    const end = g.events.find((e) => e.type === 'agent_end') as { result: string }
    expect(end.result).toMatch(/^Your key is \[REDACTED\] and \[REDACTED\]/)
    for (const e of g.events) expectClean(`${e.type} event`, JSON.stringify(e))
    const deltas = g.events.filter((e) => e.type === 'text_delta').map((e) => (e as { text: string }).text)
    expect(deltas.join('')).toContain('[REDACTED]')
    expectCleanFiles(g.dataDir)
    void f
  })
})

/** A headless session in a folder the person trusts (its hooks and MCP servers run), holding `files`: the lead reads `file`, then says `said`. */
const readInTrustedFolder = (root: string, file: string, said: string, files: Record<string, string>) =>
  makeFixture({ respond: scriptLead(reply.toolUse('Read', { file_path: file }), reply.text(said)) }, { root, headless: true, trustProject: true, files })

describe('attack suite: tools, hooks and MCP servers that print the credential', () => {
  beforeAll(() => {
    process.env.FANOUT_ATTACK_GITHUB_TOKEN = 'ghp_attackToken1234567890abcdefABCDEF'
  })

  it('a file holding the key, read by an agent: not in the tool result the model gets, the events or the transcript', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-tool-')))
    const f = await makeFixture(
      {
        respond: scriptLead(
          reply.toolUses([
            { name: 'Read', input: { file_path: '.env' } },
            { name: 'Grep', input: { pattern: 'KEY', path: '.', output_mode: 'content' } }
          ]),
          reply.text('read it')
        )
      },
      { root, headless: true, files: { '.env': `ANTHROPIC_API_KEY=${KEY}\nOTHER=${TOKEN}\nPLAIN=hello\n` } }
    )
    // The token is known to be one (as the key in use is): registered like the session's own credential.
    const { registerSecret } = await import('../../src/shared/redact')
    registerSecret(TOKEN)
    await f.session.run('Read the env file.')
    await f.session.flush()
    const toModel = JSON.stringify(f.model.server.requests.map((r) => r.messages))
    expectClean('what the model was sent', toModel)
    expect(toModel).toContain('PLAIN=hello')
    expectClean('the events', JSON.stringify(f.events))
    expectCleanFiles(f.dataDir)
  })

  it("a hook sees the tool's output redacted: a PostToolUse hook's stdin never carries the key", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-hook-in-')))
    const log = join(root, 'hooks.log')
    const f = await readInTrustedFolder(root, '.env', 'read it', {
      '.env': `ANTHROPIC_API_KEY=${KEY}\n`,
      '.claude/settings.json': JSON.stringify(hooksSettings([{ event: 'PostToolUse', command: hookCommand(root, log) }]))
    })
    await f.session.run('Read the env file.')
    const seen = readHookLog(log)
    expect(seen.map((l) => l.input.tool_name)).toEqual(['Read'])
    expectClean('the hook input', JSON.stringify(seen))
  })

  it('an Edit the model writes from what it read ([REDACTED]) is refused with the reason, and the file keeps its key', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-edit-')))
    const env = `ANTHROPIC_API_KEY=${KEY}\nDEBUG=1\n`
    const f = await makeFixture(
      {
        respond: scriptLead(
          reply.toolUse('Read', { file_path: '.env' }),
          reply.toolUse('Edit', {
            file_path: '.env',
            old_string: 'ANTHROPIC_API_KEY=[REDACTED]\nDEBUG=1',
            new_string: 'ANTHROPIC_API_KEY=[REDACTED]\nDEBUG=0'
          }),
          (req) => reply.text(req.toolResults[0].content)
        )
      },
      { root, permissionMode: 'acceptEdits', headless: true, files: { '.env': env } }
    )
    const result = await f.session.run('Turn debugging off.')
    expect(result.result).toMatch(/old_string was not found in .*\[REDACTED\] in what you read stands for a credential Fanout hides from you/)
    expect(readFileSync(join(f.cwd, '.env'), 'utf8')).toBe(env)
  })

  it("a failing hook and a failing MCP server that print the credential on stderr: the error events don't carry it", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-stderr-')))
    const f = await readInTrustedFolder(root, 'README.md', 'done', {
      'README.md': 'hi',
      '.claude/settings.json': JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo "x-api-key: ${KEY}" >&2; echo ${KEY} >&2; exit 1` }] }] }
      }),
      '.mcp.json': JSON.stringify({
        mcpServers: {
          tok: {
            command: 'sh',
            args: ['-c', 'echo "token=$GH" >&2; exit 3'],
            env: { GH: '${FANOUT_ATTACK_GITHUB_TOKEN}', GITHUB_TOKEN: '${FANOUT_ATTACK_GITHUB_TOKEN}' }
          }
        }
      })
    })
    await f.session.run('go')
    await f.session.flush()
    const errors = f.events.filter((e) => e.type === 'error').map((e) => (e as { message: string }).message)
    expect(errors.join('\n')).toMatch(/exited with code 3/)
    expect(errors.join('\n')).toMatch(/PreToolUse hook/)
    for (const m of errors) {
      expectClean('an error event', m)
      expect(m).not.toContain('ghp_attackToken1234567890')
    }
    expectCleanFiles(f.dataDir)
  })
})

describe('attack suite: the credential across the UI transports and the CLI', () => {
  beforeAll(() => ensureCliBundle(), 120_000)

  it('browser mode: no WebSocket frame carries it, whatever the endpoint echoed, and Test connection neither', async () => {
    const gw = await echoGateway('anthropic-401')
    const gw500 = await echoGateway('retry-500')
    cleanup.push(gw.close, gw500.close)
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-ws-')))
    const project = join(root, 'project')
    mkdirSync(project)
    const host = new LocalRuntimeHost(
      hostOptions({ cwd: project, dataDir: join(root, 'data'), home: join(root, 'home') }, undefined, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: gw.url })
    )
    const web = await startWebServer({ host, rendererDir: root })
    cleanup.push(
      () => host.close(),
      () => web.close()
    )
    const origin = `http://127.0.0.1:${web.port}`
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws`, [WS_PROTOCOL, WS_TOKEN_PREFIX + web.token], { headers: { origin } })
    const frames: string[] = []
    ws.on('message', (d) => frames.push(d.toString()))
    await new Promise((r) => ws.once('open', r))
    const call = (id: number, name: string, payload: unknown) => ws.send(JSON.stringify({ id, call: name, payload }))
    call(1, 'session.start', { prompt: 'hello', cwd: project })
    call(2, 'settings.testConnection', { baseUrl: gw500.url })
    await waitUntil(() => frames.some((f) => f.includes('"agent_end"')) && frames.some((f) => f.includes('"id":2')), "the run's end and the answer to call 2")
    ws.close()
    expect(frames.join('\n')).toMatch(/authorization: Bearer \[REDACTED\]/)
    for (const f of frames) expectClean('a WebSocket frame', f)
    // An answer computed in the host (not an event) carries the echo until the transport redacts it.
    const direct = await dispatchCall(host, 'settings.testConnection', { baseUrl: gw500.url })
    expect(JSON.stringify(direct)).toContain(KEY)
    expect(frames.find((f) => f.includes('"id":2'))).toMatch(/upstream rejected (Bearer )?\[REDACTED\]/)
  })

  it.each(['text', 'json', 'stream-json', 'events'])('fanout run --output-format %s: stdout and stderr carry none of it', async (format) => {
    const gw = await echoGateway('anthropic-401')
    cleanup.push(gw.close)
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-cli-')))
    const project = join(root, 'project')
    mkdirSync(project)
    writeFileSync(join(project, 'README.md'), 'hi')
    const r = await runCli(['run', '-p', 'hello', '--cwd', project, '--output-format', format], {
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: gw.url, FANOUT_DATA_DIR: join(root, 'data'), HOME: root }
    })
    expect(r.code).toBe(1)
    expect(`${r.stdout}${r.stderr}`).toContain('[REDACTED]')
    expectClean('stdout', r.stdout)
    expectClean('stderr', r.stderr)
    expectCleanFiles(join(root, 'data'))
  })
})
