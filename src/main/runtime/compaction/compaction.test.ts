// Compaction in the agent loop, over the real SDK and HTTP against the scripted server (which counts tokens and
// refuses a request past its window with the API's own 400): the threshold path, the recovery path, a failed
// compaction, a compaction asked for, the pure pieces it is made of, and the API's own clearing.
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AgentEvent, ChatMessage, CompactionEvent } from '../../../shared/events'
import { runAgentLoop } from '../loop/agent-loop'
import type { AgentLoopOptions } from '../loop/types'
import { AUTO_COMPACT_BUFFER, compactThreshold, contextWindowFor } from '../model/context-window'
import { CLEARED_RESULT_TEXT, reply, scriptByAgent, startScriptedModel, type Respond, type ScriptedModel } from '../model/scripted'
import { defineTool } from '../tools/define-tool'
import { compactedConversation, cutForCompaction, latestRequest } from './compacted-conversation'
import { contextOptionsFor, DEFAULT_CONTEXT_SETTINGS, type ContextSettings } from './context-settings'
import { summaryOf } from './summary-prompt'
import { clearedStub, LocalToolResultClearing } from './tool-result-clearing'

let model: ScriptedModel | undefined
afterEach(async () => {
  await model?.close()
  model = undefined
})

const MODEL = 'claude-sonnet-5-5'

// A tool that returns `size` characters about item N, so each turn adds a known amount of context.
const fetchTool = (size: number, calls: number[]) =>
  defineTool({
    name: 'Fetch',
    description: 'Fetches an item.',
    schema: z.object({ n: z.number() }),
    readOnly: true,
    async execute(input) {
      calls.push(input.n)
      return { content: `item ${input.n}\n${'x'.repeat(size)}` }
    }
  })

// Fetches items 1..count, one a turn, deciding from what the request shows (its own notes and the summary).
function fetcher(count: number): Respond {
  const lastDone = (text: string) =>
    Math.max(0, ...[...text.matchAll(/done through (\d+)/g)].map((m) => Number(m[1])), ...[...text.matchAll(/item (\d+)\n/g)].map((m) => Number(m[1])))
  return scriptByAgent([
    {
      match: () => true,
      turns: [],
      then: (req) => {
        const done = lastDone(JSON.stringify(req.messages).replace(/\\n/g, '\n'))
        return done >= count ? reply.text(`All ${count} fetched.`) : reply.toolUse('Fetch', { n: done + 1 }, { text: `done through ${done}` })
      },
      summarize: (req) =>
        reply.text(
          `Fetched items: done through ${Math.max(0, ...[...JSON.stringify(req.messages).matchAll(/item (\d+)\\n/g)].map((m) => Number(m[1])), ...[...JSON.stringify(req.messages).matchAll(/done through (\d+)/g)].map((m) => Number(m[1])))}.`
        )
    }
  ])
}

/** Loop options for a model with this context window whose old tool results are never cleared: only compaction makes room. */
const compactionOnly = (window: number, settings: Partial<ContextSettings>) => ({
  settings: { windows: { [MODEL]: window }, toolResultClearing: 'off' as const, ...settings }
})

async function loop(
  respond: Respond,
  server: { contextWindow?: number },
  opts: { settings?: Partial<ContextSettings>; size?: number; count?: number; takeRequest?: () => { instructions?: string } | null } & Partial<AgentLoopOptions>
) {
  model = await startScriptedModel({ respond, ...server })
  const calls: number[] = []
  const events: AgentEvent[] = []
  const settings: ContextSettings = { ...DEFAULT_CONTEXT_SETTINGS, ...opts.settings }
  const { settings: _s, size, count: _c, takeRequest, ...rest } = opts
  const result = await runAgentLoop(
    {
      agentId: 'a1',
      parentAgentId: null,
      parentToolUseId: null,
      sessionId: 's1',
      client: model.client,
      model: MODEL,
      systemPrompt: 'You fetch items.',
      prompt: 'Fetch the items.',
      tools: [fetchTool(size ?? 4_000, calls)],
      cwd: '/tmp',
      context: contextOptionsFor(MODEL, settings, { baseURL: model.client.baseURL, ...(takeRequest ? { takeRequest } : {}) }),
      ...rest
    },
    (e) => events.push(e)
  )
  return { result, events, calls, requests: model.server.messageRequests() }
}

const compactions = (events: AgentEvent[]) => events.filter((e): e is CompactionEvent => e.type === 'compaction')

describe('context windows and thresholds', () => {
  it("defaults to Claude Code's threshold: the window less the reply's reserve (at most 20k) less 13k", () => {
    expect(compactThreshold(200_000, { maxOutputTokens: 32_000 })).toBe(200_000 - 20_000 - AUTO_COMPACT_BUFFER)
    expect(compactThreshold(1_000_000, { maxOutputTokens: 32_000 })).toBe(967_000)
    expect(compactThreshold(200_000, { maxOutputTokens: 8_000 })).toBe(179_000)
    expect(compactThreshold(200_000, { percent: 60, maxOutputTokens: 32_000 })).toBe(120_000)
    // On a small window the reserves would leave nothing: never below half of it.
    expect(compactThreshold(30_000, { maxOutputTokens: 32_000 })).toBe(15_000)
  })

  it('knows windows by model, with the settings first', () => {
    // As Claude Code 2.1.328's table: native 1M for the 5.x models, Mythos, Opus 4.7 and 4.8; 200k for the rest.
    for (const model of [
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-opus-5',
      'claude-fable-5-2',
      'claude-opus-4-7',
      'claude-opus-4-8',
      'claude-mythos-preview'
    ])
      expect(contextWindowFor(model), model).toBe(1_000_000)
    for (const model of [
      'claude-sonnet-4-6',
      'claude-opus-4-6',
      'claude-opus-4-5-20251101',
      'claude-opus-4-20250514',
      'claude-sonnet-4-5-20250929',
      'claude-haiku-4-5-20251001',
      'claude-3-7-sonnet-20250219',
      'my-gateway-model'
    ])
      expect(contextWindowFor(model), model).toBe(200_000)
    expect(contextWindowFor('claude-opus-4-6[1m]')).toBe(1_000_000)
    expect(contextWindowFor('my-gateway-model', { 'My-Gateway-Model': 64_000 })).toBe(64_000)
  })
})

describe('where a conversation is cut', () => {
  const use = (id: string): ChatMessage => ({
    role: 'assistant',
    content: [
      { type: 'text', text: `calling ${id}` },
      { type: 'tool_use', id, name: 'Fetch', input: {} }
    ]
  })
  const result = (id: string, size = 10): ChatMessage => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'r'.repeat(size) }] })
  const conversation: ChatMessage[] = [{ role: 'user', content: 'the task' }, use('t1'), result('t1'), use('t2'), result('t2', 4_000), use('t3'), result('t3')]

  it('keeps the recent turns that fit, starting with a reply, so no call is parted from its result', () => {
    const cut = cutForCompaction(conversation, 200)
    expect(cut.keep.map((m) => m.role)).toEqual(['assistant', 'user'])
    expect(cut.keep[0]).toBe(conversation[5])
    expect(cut.summarize).toHaveLength(5)
    const next = compactedConversation('What happened.', cut)
    expect(next.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(summaryOf((next[0].content as Array<{ text: string }>)[0].text)).toBe('What happened.')
  })

  it('keeps nothing when even the last turn is too large, and summarises everything', () => {
    const cut = cutForCompaction([...conversation.slice(0, 4), result('t2', 40_000)], 1_000)
    expect(cut.keep).toEqual([])
    expect(cut.summarize).toHaveLength(5)
  })

  it('quotes the latest request word for word when it was summarised, skipping reminders, reports and tool results', () => {
    const msgs: ChatMessage[] = [
      { role: 'user', content: 'First, list the files.' },
      use('t1'),
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'a.ts' },
          { type: 'text', text: 'Now rename a.ts to b.ts.' },
          { type: 'text', text: '<system-reminder>\nbe careful\n</system-reminder>' }
        ]
      },
      use('t2'),
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't2', content: 'ok' },
          { type: 'text', text: '<task-notification>\n<task-id>x</task-id>\n</task-notification>' }
        ]
      }
    ]
    expect(latestRequest(msgs)).toBe('Now rename a.ts to b.ts.')
    const first = compactedConversation('s', { summarize: msgs, keep: [] })
    const text = (first[0].content as Array<{ text: string }>)[0].text
    expect(text).toContain('<latest-request>\nNow rename a.ts to b.ts.\n</latest-request>')
    // A second compaction finds the request in the first one's summary message.
    expect(latestRequest(first)).toBe('Now rename a.ts to b.ts.')
  })
})

describe('clearing old tool results here', () => {
  it('clears all but the last `keep` once past the trigger, and only when that frees enough', () => {
    const msgs: ChatMessage[] = [{ role: 'user', content: 'go' }]
    for (let i = 1; i <= 6; i++) {
      msgs.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Fetch', input: { n: i } }] })
      msgs.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'y'.repeat(4_000) }] })
    }
    const clearing = new LocalToolResultClearing({ mode: 'local', trigger: 5_000, keep: 2, clearAtLeast: 1_000 })
    expect(clearing.view(msgs, 4_000)).toEqual(msgs)
    const sent = clearing.view(msgs, 6_500)
    const contents = sent.flatMap((m) => (Array.isArray(m.content) ? m.content.flatMap((b) => (b.type === 'tool_result' ? [String(b.content)] : [])) : []))
    expect(contents.slice(0, 4).every((c) => c === clearedStub('Fetch', 'y'.repeat(4_000)))).toBe(true)
    expect(contents.slice(4)).toEqual(['y'.repeat(4_000), 'y'.repeat(4_000)])
    // The conversation itself is untouched, and unchanged messages are the same objects.
    expect((msgs[2].content as Array<{ content: string }>)[0].content).toBe('y'.repeat(4_000))
    expect(sent[11]).toBe(msgs[11])
    // Too little to free: nothing more is cleared (the cached prefix stays as it was).
    const small = new LocalToolResultClearing({ mode: 'local', trigger: 5_000, keep: 2, clearAtLeast: 100_000 })
    expect(small.view(msgs, 6_500)).toEqual(msgs)
  })

  it('keeps the path of an output that was saved to a file', () => {
    expect(clearedStub('Bash', 'head\n[Output too large … The whole output is saved in /data/s/tool-outputs/toolu_1.txt — read the parts]')).toMatch(
      /^\[Old tool result cleared to keep the context small: this Bash call returned \d+ characters\. Its whole output is saved in \/data\/s\/tool-outputs\/toolu_1\.txt\.\]$/
    )
  })
})

describe('compaction in the loop', () => {
  it('compacts before a request passes the threshold, keeps recent turns, and makes every call once', async () => {
    const { result, events, calls, requests } = await loop(fetcher(45), { contextWindow: 30_000 }, compactionOnly(30_000, { autoCompactPercent: 70 }))
    expect(result.status).toBe('completed')
    expect(result.result).toBe('All 45 fetched.')
    expect(calls).toEqual(Array.from({ length: 45 }, (_, i) => i + 1))
    const done = compactions(events)
    expect(done.length).toBeGreaterThanOrEqual(2)
    expect(done.every((c) => c.trigger === 'auto' && c.messages && c.summary?.startsWith('Fetched items: done through'))).toBe(true)
    // Each compaction was announced first, and its summary call billed to the agent (not counted as context).
    expect(events.filter((e) => e.type === 'compaction_start')).toHaveLength(done.length)
    const billed = events.filter((e) => e.type === 'usage' && e.purpose === 'compaction')
    expect(billed).toHaveLength(done.length)
    expect(result.usage.inputTokens).toBe(events.reduce((n, e) => n + (e.type === 'usage' ? e.usage.inputTokens : 0), 0))
    expect(Math.max(...requests.map((r) => r.inputTokens))).toBeLessThanOrEqual(21_000 + 2_000)
    // The summary request is the conversation as sent, then the request for a summary, with no tool_choice
    // (it keys the messages' cache): the conversation is read from the prompt cache, and the question after
    // it is not written there.
    const summaryReq = requests.find((r) => r.isSummaryRequest)!
    expect(summaryReq.body.tool_choice).toBeUndefined()
    expect(summaryReq.system).toBe('You fetch items.')
    // The part summarised ends where an earlier request ended: it is all read, only the question is not.
    expect(summaryReq.cache!.write5m + summaryReq.cache!.write1h).toBe(0)
    expect(summaryReq.cache!.read).toBeGreaterThan(20 * summaryReq.cache!.uncached)
    expect(JSON.stringify(summaryReq.body.messages.at(-1))).not.toContain('cache_control')
    expect(JSON.stringify(summaryReq.body.messages.at(-2))).toContain('cache_control')
  })

  it('asks for the summary again with tools ruled out when the reply to the cache-friendly request calls a tool', async () => {
    const inner = fetcher(30)
    const respond: Respond = (req, ctx) => (req.isSummaryRequest && !req.body.tool_choice ? reply.toolUse('Fetch', { n: 1 }) : inner(req, ctx))
    const { result, events, calls, requests } = await loop(respond, { contextWindow: 30_000 }, compactionOnly(30_000, { autoCompactPercent: 70 }))
    expect(result.status).toBe('completed')
    // The tool the summary reply called never ran: each item was fetched once.
    expect(calls).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    const done = compactions(events)
    expect(done.length).toBeGreaterThanOrEqual(1)
    expect(done.every((c) => c.summary?.startsWith('Fetched items: done through'))).toBe(true)
    const summaries = requests.filter((r) => r.isSummaryRequest)
    expect(summaries.filter((r) => r.body.tool_choice?.type === 'none')).toHaveLength(done.length)
    expect(summaries).toHaveLength(2 * done.length)
    // Both calls are billed to the agent.
    expect(events.filter((e) => e.type === 'usage' && e.purpose === 'compaction')).toHaveLength(2 * done.length)
  })

  it('recovers when the API refuses a request as too long: compacts, then sends the turn again', async () => {
    // The runtime thinks the window is 60k (and would compact at 95%), the server allows 24k.
    const { result, events, calls, requests } = await loop(fetcher(40), { contextWindow: 24_000 }, compactionOnly(60_000, { autoCompactPercent: 95 }))
    expect(result.status).toBe('completed')
    expect(calls).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    const overflow = compactions(events).filter((c) => c.trigger === 'overflow')
    expect(overflow.length).toBeGreaterThanOrEqual(1)
    expect(events.some((e) => e.type === 'error' && !e.retrying)).toBe(false)
    // Learned from the refusal: after it, requests stay under the real window.
    const refused = requests.filter((r) => r.inputTokens > 24_000)
    expect(refused.length).toBeGreaterThanOrEqual(1)
    expect(refused.length).toBeLessThanOrEqual(overflow.length + 1)
  })

  it('with auto-compaction off, a refused request fails the run with the reason and what to do', async () => {
    const { result } = await loop(fetcher(20), { contextWindow: 12_000 }, compactionOnly(60_000, { autoCompact: false }))
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(
      /^Invalid request \(400\): prompt is too long: \d+ tokens > 12000 maximum\. Automatic compaction is off \(Settings → Long sessions\)/
    )
  })

  it('a compaction that fails says why and keeps the conversation whole; the agent goes on', async () => {
    const base = fetcher(24)
    let failures = 0
    const respond: Respond = (req, ctx) => {
      if (req.isSummaryRequest) {
        failures++
        return reply.badRequest('the summary model is unavailable')
      }
      return base(req, ctx)
    }
    const { result, events, calls } = await loop(respond, { contextWindow: 200_000 }, compactionOnly(30_000, { autoCompactPercent: 50 }))
    expect(result.status).toBe('completed')
    expect(calls).toHaveLength(24)
    const failed = compactions(events)
    expect(failed.length).toBe(failures)
    expect(failed[0]).toMatchObject({
      trigger: 'auto',
      error: 'Compaction failed: Invalid request (400): the summary model is unavailable. The conversation was kept whole.'
    })
    expect(failed[0].messages).toBeUndefined()
    // Nothing was replaced: the last request still holds the first turn.
    expect(model!.server.messageRequests().at(-1)!.firstUserText).toBe('Fetch the items.')
  })

  it('compacts when asked, with the instructions in the summary request', async () => {
    let asked: { instructions?: string } | null = { instructions: 'Keep the item numbers.' }
    const { events, requests } = await loop(fetcher(3), {}, { takeRequest: () => asked && ((a) => ((asked = null), a))(asked) })
    expect(compactions(events)).toMatchObject([{ trigger: 'manual' }])
    const summaryReq = requests.find((r) => r.isSummaryRequest)!
    expect(summaryReq.lastUserText).toContain('The person asked for this compaction and added: Keep the item numbers.')
  })
})

describe("the API's own clearing (context_management)", () => {
  it('is asked for with its beta header where the model supports it; the API clears and says so', async () => {
    const { result, requests } = await loop(
      fetcher(16),
      { contextWindow: 200_000 },
      { size: 8_000, settings: { windows: { [MODEL]: 40_000 }, toolResultClearing: 'api', keepToolResults: 3, autoCompactPercent: 95 } }
    )
    expect(result.status).toBe('completed')
    const last = requests.at(-1)!
    expect(last.headers['anthropic-beta']).toContain('context-management-2025-06-27')
    expect(last.body.context_management).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 20_000 },
          keep: { type: 'tool_uses', value: 3 },
          clear_at_least: { type: 'input_tokens', value: 4_000 }
        }
      ]
    })
    expect(last.contextEdits?.clearedToolUses).toBeGreaterThan(0)
    const cleared = last.messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_result' && b.content === CLEARED_RESULT_TEXT) : []
    )
    expect(cleared.length).toBe(last.contextEdits?.clearedToolUses)
    expect(last.inputTokens).toBeLessThan(20_000)
  })

  it("falls back to clearing here for a model without it, and `auto` asks only Anthropic's own API", () => {
    const s = { ...DEFAULT_CONTEXT_SETTINGS }
    expect(contextOptionsFor('claude-3-7-sonnet-20250219', { ...s, toolResultClearing: 'api' }, { baseURL: 'https://api.anthropic.com' }).clearing.mode).toBe(
      'local'
    )
    expect(contextOptionsFor(MODEL, s, { baseURL: 'https://api.anthropic.com' }).clearing.mode).toBe('api')
    expect(contextOptionsFor(MODEL, s, { baseURL: 'https://gateway.example.com' }).clearing.mode).toBe('local')
    expect(contextOptionsFor(MODEL, { ...s, toolResultClearing: 'off' }, { baseURL: 'https://api.anthropic.com' }).clearing.mode).toBe('off')
  })
})

describe('the scripted server', () => {
  it("refuses a request past its window with the API's own 400 body", async () => {
    model = await startScriptedModel({ respond: () => reply.text('never'), contextWindow: 1_000 })
    const res = await fetch(`${model.server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'z'.repeat(8_000) }] })
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { request_id: string }
    expect(body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/^prompt is too long: \d+ tokens > 1000 maximum$/) }
    })
    expect(body.request_id).toMatch(/^req_/)
  })

  it("accepts Claude Code's clear_thinking edit and drops old turns' thinking as the API does; refuses the field without its beta header", async () => {
    model = await startScriptedModel({ respond: () => reply.text('ok') })
    const post = (headers: Record<string, string>, keep: unknown) =>
      fetch(`${model!.server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', ...headers },
        body: JSON.stringify({
          model: MODEL,
          max_tokens: 10,
          context_management: { edits: [{ type: 'clear_thinking_20251015', keep }] },
          messages: [
            { role: 'user', content: 'a' },
            {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: 'old', signature: 's' },
                { type: 'text', text: 'b' }
              ]
            },
            { role: 'user', content: 'c' },
            {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: 'new', signature: 's' },
                { type: 'text', text: 'd' }
              ]
            },
            { role: 'user', content: 'e' }
          ]
        })
      })
    expect((await post({ 'anthropic-beta': 'context-management-2025-06-27' }, { type: 'thinking_turns', value: 1 })).status).toBe(200)
    const seen = model.server.messageRequests().at(-1)!
    expect(seen.messages[1].content.map((b: any) => b.type)).toEqual(['text'])
    expect(seen.messages[3].content.map((b: any) => b.type)).toEqual(['thinking', 'text'])
    const refused = await post({}, 'all')
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('context_management: Extra inputs are not permitted')
  })

  it('reports the input as it counts it (system, tools and messages; uncached, written or read), so a response says how large the context is', async () => {
    model = await startScriptedModel({ respond: () => reply.text('ok') })
    const small = await model.client.stream({ model: MODEL, system: 'x', messages: [{ role: 'user', content: 'hi' }] })
    const large = await model.client.stream({ model: MODEL, system: 'x', messages: [{ role: 'user', content: 'hi '.repeat(4_000) }] })
    // The size is all of the input: uncached, written to the prompt cache and read from it (the large one is written).
    const size = (u: typeof small.usage) => u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens
    expect(large.usage.cacheWriteTokens).toBeGreaterThan(0)
    expect(size(large.usage) - size(small.usage)).toBeGreaterThan(2_900)
    expect(size(large.usage) - size(small.usage)).toBeLessThan(3_100)
  })
})
