// A scripted stream's `pause`: it stops after that many deltas, nothing more arrives until the test lets it
// go on, then the rest comes whole (an e2e test uses it to catch a page mid-stream on a loaded machine).
import { afterEach, expect, it } from 'vitest'
import { createModelClient } from '../index'
import { reply, startScriptedServer, type RecordedRequest, type ScriptedServer } from './index'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

it('holds the stream after the given deltas until released, then sends the rest', async () => {
  let goOn!: () => void
  const until = new Promise<void>((r) => (goOn = r))
  const words = 'one two three four five six seven eight'
  server = await startScriptedServer({
    respond: (req) => (req.firstUserText === 'Hi' ? reply.text(words, { textChunk: 4, pause: { afterDeltas: 3, until } }) : reply.text('ok'))
  })
  const client = createModelClient({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 })
  let text = ''
  let reached!: () => void
  const three = new Promise<void>((r) => (reached = r))
  const done = client.stream(
    { model: 'claude-sonnet-5-5', system: 'You are terse.', messages: [{ role: 'user', content: 'Hi' }] },
    { onText: (t) => ((text += t), text.length >= 12 && reached()) }
  )
  await three
  // Held: another round trip to the server answers while this stream stays at its third delta.
  await createModelClient({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }).stream({
    model: 'claude-sonnet-5-5',
    system: 'You are terse.',
    messages: [{ role: 'user', content: 'Again' }]
  })
  expect(text).toBe(words.slice(0, 12))
  goOn()
  const res = await done
  expect(text).toBe(words)
  expect(res.content).toEqual([{ type: 'text', text: words }])
})

it('streams at the output rate it is given: a reply of 400 tokens at 1,000 a second takes at least 400 ms, its text arriving along the way', async () => {
  const words = 'abcd'.repeat(400)
  server = await startScriptedServer({ outputTokensPerSecond: 1000, respond: () => reply.text(words, { textChunk: 8 }) })
  const client = createModelClient({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 })
  const arrivals: number[] = []
  const start = performance.now()
  const res = await client.stream(
    { model: 'claude-sonnet-5-5', system: 'You are terse.', messages: [{ role: 'user', content: 'Hi' }] },
    { onText: () => arrivals.push(performance.now() - start) }
  )
  expect(res.content).toEqual([{ type: 'text', text: words }])
  expect(server.messageRequests()[0].outputMs).toBe(400)
  expect(arrivals.at(-1)!).toBeGreaterThanOrEqual(395)
  // Not all at the end: half the output time apart leaves a loaded machine's stalls room.
  expect(arrivals[0]).toBeLessThan(arrivals.at(-1)! - 200)
})

/** A server whose script takes `scriptMs` to answer (the server's own side of a request), then streams 400 tokens at 1,000 a second. */
async function slowScript(latencyMs: number, scriptMs: number): Promise<{ arrivals: number[]; req: RecordedRequest }> {
  server = await startScriptedServer({
    latencyMs,
    outputTokensPerSecond: 1000,
    respond: async () => (await new Promise((r) => setTimeout(r, scriptMs)), reply.text('abcd'.repeat(400), { textChunk: 8 }))
  })
  const client = createModelClient({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 })
  const arrivals: number[] = []
  const start = performance.now()
  await client.stream(
    { model: 'claude-sonnet-5-5', system: 'You are terse.', messages: [{ role: 'user', content: 'Hi' }] },
    { onText: () => arrivals.push(performance.now() - start) }
  )
  return { arrivals, req: server.messageRequests()[0] }
}

it("counts the model's latency from the request's arrival: the server's own work is inside it, not added to the reply's time", async () => {
  // The script's 800 ms stand for whatever the server does with a request (parsing it, the simulated cache):
  // a model's reply starts its latency after the request arrived, however long the server's side took.
  const { req } = await slowScript(1000, 800)
  // 1,000 ms of latency and 400 of output; the script's 800 ms added on top would make it 2,200. The margin
  // between the two is what a loaded machine's timers may take.
  expect(req.repliedAt! - req.readAt).toBeGreaterThanOrEqual(1395)
  expect(req.repliedAt! - req.readAt).toBeLessThan(2100)
})

it('starts a reply whose script answers after the latency when it answers, still paced at the output rate', async () => {
  const { arrivals, req } = await slowScript(50, 300)
  // Its 400 ms of output are not sent at once to catch up with a latency that had passed.
  expect(arrivals.at(-1)! - arrivals[0]).toBeGreaterThanOrEqual(200)
  expect(req.repliedAt! - req.readAt).toBeGreaterThanOrEqual(695)
})
