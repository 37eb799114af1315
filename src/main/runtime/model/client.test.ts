// The model client against the scripted server, through the real SDK over real HTTP.
import Anthropic from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { createModelClient, MissingCredentialsError, ModelAbortedError, ModelCallError, type RetryInfo } from './index'
import { block, byAttempt, reply, scriptTurns, startScriptedServer, type Respond, type ScriptedServer } from './scripted'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function setup(respond: Respond, extra: Partial<Parameters<typeof startScriptedServer>[0]> = {}) {
  server = await startScriptedServer({ respond, ...extra })
  const client = createModelClient({ apiKey: 'test-key', baseURL: server.url, retryBaseMs: 1, maxRetries: 3 })
  return { server, client }
}

const ask = (text = 'Hi') => ({ model: 'claude-sonnet-5-5', system: 'You are terse.', messages: [{ role: 'user' as const, content: text }] })

describe('createModelClient', () => {
  it('says clearly when no credentials are configured', () => {
    expect(() => createModelClient({ env: {} })).toThrow(MissingCredentialsError)
    expect(() => createModelClient({ env: {} })).toThrow(/ANTHROPIC_API_KEY/)
  })

  it('reads the key and base URL from the environment, and sends the key', async () => {
    server = await startScriptedServer({ respond: scriptTurns(reply.text('ok')) })
    const client = createModelClient({ env: { ANTHROPIC_AUTH_TOKEN: 'gateway-token', ANTHROPIC_BASE_URL: server.url } })
    expect(client.baseURL).toBe(server.url)
    const res = await client.stream(ask())
    expect(res.content).toEqual([{ type: 'text', text: 'ok' }])
    expect(server.requests[0].headers.authorization).toBe('Bearer gateway-token')
  })

  it('streams text deltas and returns the whole message with usage and cost', async () => {
    const { client, server } = await setup(
      scriptTurns(
        reply.text('The quick brown fox jumps over the lazy dog.', {
          textChunk: 5,
          usage: { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 500, cache_creation_input_tokens: 100 }
        })
      )
    )
    const deltas: string[] = []
    const res = await client.stream(ask(), { onText: (t) => deltas.push(t) })
    expect(deltas.length).toBeGreaterThan(5)
    expect(deltas.join('')).toBe('The quick brown fox jumps over the lazy dog.')
    expect(res.stopReason).toBe('end_turn')
    expect(res.usage).toMatchObject({ inputTokens: 1000, outputTokens: 200, cacheReadTokens: 500, cacheWriteTokens: 100 })
    // sonnet: $3 in, $15 out, $0.30 cache read, $3.75 cache write per MTok
    expect(res.usage.costUsd).toBeCloseTo((1000 * 3 + 200 * 15 + 500 * 0.3 + 100 * 3.75) / 1e6, 10)
    // the system prompt and the last message carry cache breakpoints
    const body = server.messageRequests()[0].body
    expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' })
    expect(body.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral' })
  })

  it('assembles tool input that arrives split mid-token, and thinking blocks', async () => {
    const input = { file_path: '/tmp/ünïcode "quoted".ts', offset: 12345, nested: { list: [1, 2, 3], flag: true } }
    const { client } = await setup(scriptTurns(reply.with({ jsonChunk: 3 }, block.thinking('Let me read it.'), block.toolUse('Read', input, 'toolu_1'))))
    const fragments: string[] = []
    const thinking: string[] = []
    const res = await client.stream(ask(), { onToolInputDelta: (_id, j) => fragments.push(j), onThinking: (t) => thinking.push(t) })
    expect(fragments.length).toBeGreaterThan(10)
    // the number 12345 and the escaped quote arrive cut across fragments
    expect(fragments.join('')).toContain('12345')
    expect(fragments.some((f) => f.includes('12345'))).toBe(false)
    expect(res.content).toEqual([
      { type: 'thinking', thinking: 'Let me read it.', signature: 'scripted-signature' },
      { type: 'tool_use', id: 'toolu_1', name: 'Read', input }
    ])
    expect(thinking.join('')).toBe('Let me read it.')
    expect(res.stopReason).toBe('tool_use')
  })

  it('reports tool input that is not valid JSON instead of throwing', async () => {
    const { client } = await setup(scriptTurns(reply.message(block.toolUseRaw('Read', '{"file_path": "a.ts"', 'toolu_bad'))))
    const res = await client.stream(ask())
    expect(res.inputErrors.toolu_bad).toMatch(/JSON/)
    expect(res.content).toEqual([{ type: 'tool_use', id: 'toolu_bad', name: 'Read', input: {} }])
  })

  it('retries a 429 after the wait the server asked for', async () => {
    const { client, server } = await setup(scriptTurns(byAttempt(reply.rateLimited({ retryAfterSeconds: 0.08 }), reply.text('after the wait'))))
    const retries: RetryInfo[] = []
    const res = await client.stream(ask(), { onRetry: (r) => retries.push(r) })
    expect(res.content).toEqual([{ type: 'text', text: 'after the wait' }])
    expect(res.attempts).toBe(2)
    expect(retries).toHaveLength(1)
    expect(retries[0]).toMatchObject({ attempt: 1, status: 429, delayMs: 80 })
    expect(retries[0].message).toMatch(/Rate limited \(429\)/)
    const [first, second] = server.messageRequests()
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(75)
  })

  it('reports each request as it goes out, the first and every retry, before anything of its reply', async () => {
    const { client } = await setup(scriptTurns(byAttempt(reply.overloaded(), reply.text('second time'))))
    const seen: string[] = []
    await client.stream(ask(), {
      onRequest: (n) => seen.push(`request ${n}`),
      onRetry: (r) => seen.push(`retry after ${r.attempt}`),
      onText: () => seen.push('text')
    })
    expect([...new Set(seen)]).toEqual(['request 1', 'retry after 1', 'request 2', 'text'])
  })

  it('retries 529 overloaded and 500 with backoff', async () => {
    const { client } = await setup(scriptTurns(byAttempt(reply.overloaded(), reply.serverError(500), reply.text('third time'))))
    const retries: RetryInfo[] = []
    const res = await client.stream(ask(), { onRetry: (r) => retries.push(r) })
    expect(res.content).toEqual([{ type: 'text', text: 'third time' }])
    expect(retries.map((r) => r.status)).toEqual([529, 500])
    expect(retries[0].message).toMatch(/Overloaded/)
  })

  it('retries a stream that drops mid-message; the retry streams the message from its start', async () => {
    const kinds = [
      [reply.dropAfter, /connection dropped/],
      [reply.endAfter, /ended before the message was complete/],
      [reply.errorAfter, /Overloaded: Overloaded/],
      [reply.malformedAfter, /stream was malformed \(a data line is not JSON/],
      [reply.outOfOrderAfter, /stream was malformed \(content_block_delta for content block 99, which is not open\)/],
      [(_n: number, r: Parameters<typeof reply.emptyStream>[0]) => reply.emptyStream(r), /ended before the message was complete \(no events at all\)/]
    ] as const
    for (const [cut, why] of kinds) {
      const full = reply.text('Hello there, general Kenobi.', { textChunk: 4 })
      const { client } = await setup(scriptTurns(byAttempt(cut(2, full), full)))
      let text = ''
      const retries: RetryInfo[] = []
      const res = await client.stream(ask(), {
        onText: (t) => (text += t),
        onRetry: (r) => {
          retries.push(r)
          text = ''
        }
      })
      expect(retries, String(why)).toHaveLength(1)
      expect(retries[0].message).toMatch(why)
      expect(text).toBe('Hello there, general Kenobi.')
      expect(res.content).toEqual([{ type: 'text', text: 'Hello there, general Kenobi.' }])
      await server!.close()
      server = undefined
    }
  })

  it('a stream fault on every attempt gives up with the retry budget, saying how many attempts over how long', async () => {
    const full = reply.text('never whole', { textChunk: 2 })
    const { client } = await setup(() => reply.malformedAfter(1, full))
    const retries: RetryInfo[] = []
    const err = await client.stream(ask(), { onRetry: (r) => retries.push(r) }).catch((e) => e)
    expect(err).toBeInstanceOf(ModelCallError)
    expect(err.message).toMatch(/^The response stream was malformed .*\(gave up after 4 attempts over [\d.]+ (ms|s|min)\)$/)
    expect(retries.map((r) => [r.attempt, r.maxAttempts])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4]
    ])
    expect(retries[0].maxRetryTimeMs).toBe(600_000)
  })

  it('an event stream that breaks the protocol order is retried, not trusted', async () => {
    const { MessageAccumulator } = await import('./message-accumulator')
    const start = { type: 'message_start', message: { usage: {} } } as any
    const cases: Array<[any[], RegExp]> = [
      [[{ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }], /before message_start/],
      [[start, start], /a second message_start/],
      [[start, { type: 'content_block_stop', index: 0 }], /not open/],
      [[start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, { type: 'message_stop' }], /still open/],
      [[start, { type: 'message_stop' }, { type: 'message_delta', delta: {} }], /after message_stop/]
    ]
    for (const [events, why] of cases) {
      const acc = new MessageAccumulator()
      expect(() => events.forEach((e) => acc.add(e)), String(why)).toThrow(why)
    }
  })

  it('cuts a stream that stalls and retries it', async () => {
    server = await startScriptedServer({
      respond: scriptTurns(byAttempt(reply.text('stalled stream', { textChunk: 2, chunkDelayMs: 400 }), reply.text('fresh')))
    })
    const client = createModelClient({ apiKey: 'k', baseURL: server.url, retryBaseMs: 1, streamIdleTimeoutMs: 100 })
    const retries: RetryInfo[] = []
    const res = await client.stream(ask(), { onRetry: (r) => retries.push(r) })
    expect(res.content).toEqual([{ type: 'text', text: 'fresh' }])
    expect(retries[0].message).toMatch(/nothing arrived for 0.1 s/)
  })

  it('an endpoint that always stalls gives up once the call has spent its retry time, saying so', async () => {
    server = await startScriptedServer({ respond: () => reply.text('never ends', { textChunk: 2, chunkDelayMs: 10_000 }) })
    const client = createModelClient({ apiKey: 'k', baseURL: server.url, retryBaseMs: 1, streamIdleTimeoutMs: 150, maxRetryTimeMs: 400 })
    const err = await client.stream(ask()).catch((e) => e)
    expect(err).toBeInstanceOf(ModelCallError)
    expect(err.limit).toBe('retry_time')
    expect(err.message).toMatch(
      /^The response stream ended before the message was complete \(nothing arrived for .*\)\. \(gave up after \d+ attempts? in \d+ m?s: a call may spend at most 400 ms retrying\)$/
    )
    // Bounded by the retry time, not by 9 attempts of the idle timeout.
    expect(err.attempts).toBeLessThan(9)
  })

  it('a server that keeps asking to wait long gives up at once when the wait would pass the retry time', async () => {
    const { server } = await setup(scriptTurns(reply.rateLimited({ retryAfterSeconds: 300 })))
    const client = createModelClient({ apiKey: 'k', baseURL: server.url, retryBaseMs: 1, maxRetryTimeMs: 60_000 })
    const err = await client.stream(ask()).catch((e) => e)
    expect(err.limit).toBe('retry_time')
    expect(err.message).toMatch(
      /Rate limited \(429\).*gave up after 1 attempt in .*: a call may spend at most 60 s retrying, and the server asked to wait 5 min more\)$/
    )
    expect(server.messageRequests()).toHaveLength(1)
  })

  it('gives up after maxRetries with a final error that says so', async () => {
    const { client, server } = await setup(scriptTurns(reply.overloaded()))
    const err = await client.stream(ask()).catch((e) => e)
    expect(err).toBeInstanceOf(ModelCallError)
    expect(err.message).toMatch(/Overloaded \(529\).*gave up after 4 attempts over [\d.]+ (ms|s|min)\)$/)
    expect(err.attempts).toBe(4)
    expect(server.messageRequests()).toHaveLength(4)
  })

  it('tries a refused address twice, quickly, then names it and where it is set', async () => {
    server = await startScriptedServer({ respond: scriptTurns(reply.text('never')) })
    const { url } = server
    await server.close()
    server = undefined
    const where = `ECONNREFUSED ${new URL(url).host}`
    const settings = createModelClient({ apiKey: 'test-key', baseURL: url })
    const retries: RetryInfo[] = []
    const err = await settings.stream(ask(), { onRetry: (r) => retries.push(r) }).catch((e) => e)
    // Not nine attempts over a minute and more: one retry, after a wait of well under 3 s (the wait it
    // announced and slept, not the time the machine took, which a loaded one stretches).
    expect(retries.map((r) => r.message)).toEqual([`Could not reach the API: connect ${where}`])
    expect(retries[0].delayMs).toBeLessThan(3000)
    expect(err).toMatchObject({
      attempts: 2,
      message: `Could not connect to ${url} (connect ${where}). This address is set in Settings → Base URL; correct it there, or clear it to use the Anthropic API.`
    })
    const fromEnv = await createModelClient({ apiKey: 'test-key', env: { ANTHROPIC_BASE_URL: url }, retryBaseMs: 1 })
      .stream(ask())
      .catch((e) => e)
    expect(fromEnv.message).toMatch(/comes from the ANTHROPIC_BASE_URL environment variable/)
  })

  it('does not retry a request the API rejects', async () => {
    const { client, server } = await setup(scriptTurns(reply.badRequest('messages.0: bad')))
    const err = await client.stream(ask()).catch((e) => e)
    expect(err).toBeInstanceOf(ModelCallError)
    expect(err.message).toBe('Invalid request (400): messages.0: bad')
    expect(server.messageRequests()).toHaveLength(1)
  })

  it('stops a stream when the signal aborts, keeping what had arrived', async () => {
    // 4 characters every 30 ms: the whole text would take 75 s, longer than a test may run.
    const words = 'one two three four five six seven eight nine ten '.repeat(200)
    const streamMs = (words.length / 4) * 30
    const { client } = await setup(scriptTurns(reply.text(words, { textChunk: 4, chunkDelayMs: 30 })))
    const ac = new AbortController()
    let text = ''
    const started = performance.now()
    const err = await client
      .stream(
        ask(),
        {
          onText: (t) => {
            text += t
            if (text.length >= 8) ac.abort()
          }
        },
        ac.signal
      )
      .catch((e) => e)
    expect(err).toBeInstanceOf(ModelAbortedError)
    expect((err as ModelAbortedError).partial).toEqual([{ type: 'text', text }])
    expect(text.length).toBeLessThan(20)
    expect(performance.now() - started).toBeLessThan(streamMs) // stopped before the stream ended (not a speed target)
  })

  it('takes nothing more after a stop, even deltas that had already arrived with the one that made the caller stop', async () => {
    // Fifty deltas come in one burst, then the stream holds: all of them are read before the caller can stop.
    let goOn!: () => void
    const until = new Promise<void>((r) => (goOn = r))
    const words = 'abcd'.repeat(60)
    const { client } = await setup(scriptTurns(reply.text(words, { textChunk: 4, pause: { afterDeltas: 50, until } })))
    const ac = new AbortController()
    const deltas: string[] = []
    const err = await client
      .stream(ask(), { onText: (t) => (deltas.push(t), ac.abort()) }, ac.signal)
      .catch((e) => e)
      .finally(goOn)
    expect(err).toBeInstanceOf(ModelAbortedError)
    expect(deltas).toEqual(['abcd'])
    expect((err as ModelAbortedError).partial).toEqual([{ type: 'text', text: 'abcd' }])
  })

  it('lists models from GET /v1/models', async () => {
    const { client } = await setup(scriptTurns(), { models: [{ id: 'claude-opus-9-1', line: 'opus', created_at: '2027-01-01T00:00:00Z' }] })
    expect(await client.listModels()).toEqual([expect.objectContaining({ id: 'claude-opus-9-1', line: 'opus' })])
  })
})

describe('scripted server', () => {
  it('answers non-streaming requests with a Message', async () => {
    server = await startScriptedServer({ respond: scriptTurns(reply.toolUse('Glob', { pattern: '*.md' }, { text: 'Looking.', id: 'toolu_x' })) })
    const sdk = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 })
    const msg = await sdk.messages.create({ model: 'claude-haiku-5-5', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] })
    expect(msg.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'toolu_x', name: 'Glob', input: { pattern: '*.md' } }
    ])
    expect(msg.stop_reason).toBe('tool_use')
  })

  it('rejects a conversation the real API would reject', async () => {
    server = await startScriptedServer({ respond: scriptTurns(reply.text('never')) })
    const sdk = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 })
    const err = await sdk.messages
      .create({
        model: 'm-1',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
          { role: 'user', content: 'no result' }
        ]
      })
      .catch((e) => e)
    expect(err.status).toBe(400)
    expect(err.message).toMatch(/tool_use` ids were found without `tool_result`/)
  })

  it('says which agent ran out of script', async () => {
    const { client } = await setup(scriptTurns(reply.text('only one')))
    const err = await client
      .stream({
        model: 'm-1',
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
          { role: 'user', content: 'c' }
        ]
      })
      .catch((e) => e)
    expect(err.message).toMatch(/has no reply for turn 2 \(its script has 1\)/)
  })
})

describe('connections for the subagents a reply starts', () => {
  it('a reply starting four subagents opens connections for three while it streams (one takes the reply’s own), one ready from the first call; other tools open none', async () => {
    const { createHttpFetch } = await import('./http-fetch')
    const pool = createHttpFetch()
    const asked: number[] = []
    const clientFor = (url: string) =>
      createModelClient({
        apiKey: 'test-key',
        baseURL: url,
        fetch: Object.assign(((input, init) => pool(input, init)) as typeof globalThis.fetch, {
          preconnect: (to: string | URL, count: number) => {
            expect(String(to)).toBe(url)
            asked.push(count)
            return pool.preconnect(to, count)
          }
        })
      })
    server = await startScriptedServer({
      respond: scriptTurns(reply.message(...[1, 2, 3, 4].map((i) => block.toolUse('Agent', { description: `d${i}`, prompt: `p${i}` }, `toolu_${i}`))))
    })
    const res = await clientFor(server.url).stream(ask())
    expect(res.content.filter((b) => b.type === 'tool_use')).toHaveLength(4)
    expect(asked).toEqual([1, 1, 2, 3])
    await server.close()
    server = await startScriptedServer({
      respond: scriptTurns(reply.message(block.toolUse('Read', { file_path: 'a.ts' }, 'toolu_5'), block.toolUse('Glob', { pattern: '*' }, 'toolu_6')))
    })
    await clientFor(server.url).stream(ask())
    expect(asked).toEqual([1, 1, 2, 3])
  })
})
