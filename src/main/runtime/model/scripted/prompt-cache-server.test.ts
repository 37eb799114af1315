// The simulated cache seen through the real SDK over HTTP: usage in message_start as the API reports it, an
// entry readable only once the response that wrote it has begun, and max_tokens: 0 pre-warming.
import Anthropic from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelRequest } from '../types'
import { reply } from './reply'
import { startScriptedModel, type ScriptedModel } from './fixture'

const system = `You are a test agent. ${'Follow the rules. '.repeat(400)}`
const request = (task: string): ModelRequest => ({ model: 'claude-sonnet-5-5', system, messages: [{ role: 'user', content: task }], tools: [] })

let model: ScriptedModel | undefined
afterEach(async () => {
  await model?.close()
  model = undefined
})

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setImmediate(r))
}

describe('the scripted server’s prompt cache over HTTP', () => {
  it('reports the split in message_start, and a sibling sent before the first response began reads nothing', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    model = await startScriptedModel(
      {
        respond: async (req) => {
          if (req.firstUserText === 'first') await held
          return reply.text('ok')
        }
      },
      { cacheSharing: 'off' }
    ) // the client would hold the sibling back until the first response began
    const first = model.client.stream(request('first'))
    await until(() => model!.server.messageRequests().length === 1)
    const early = await model.client.stream(request('second'))
    expect(early.usage.cacheReadTokens).toBe(0)
    expect(early.usage.cacheWriteTokens).toBeGreaterThan(1000)
    release()
    const firstDone = await first
    expect(firstDone.usage.cacheWriteTokens).toBe(early.usage.cacheWriteTokens)
    const late = await model.client.stream(request('third'))
    // Everything up to the system prompt's breakpoint is read; only the task is written.
    expect(late.usage.cacheReadTokens).toBeGreaterThan(1000)
    expect(late.usage.cacheWriteTokens).toBeLessThan(10)
    const reqs = model.server.messageRequests()
    expect(reqs.map((r) => r.cache?.read)).toEqual([0, 0, late.usage.cacheReadTokens])
    // Billed at the real prices: reads at a tenth of the input price, writes at 1.25 times.
    const p = 3 / 1e6
    expect(late.usage.costUsd).toBeCloseTo(
      late.usage.inputTokens * p + late.usage.cacheReadTokens * p * 0.1 + late.usage.cacheWriteTokens * p * 1.25 + late.usage.outputTokens * 15e-6,
      9
    )
  })

  it('pre-warms with max_tokens: 0 (no output, usage filled) and refuses it with stream: true', async () => {
    model = await startScriptedModel({ respond: () => reply.text('answered') })
    const sdk = new Anthropic({ apiKey: 'k', baseURL: model.server.url, maxRetries: 0 })
    const body = {
      model: 'claude-sonnet-5-5',
      system: [{ type: 'text' as const, text: system, cache_control: { type: 'ephemeral' as const } }],
      messages: [{ role: 'user' as const, content: 'warmup' }]
    }
    const warm = await sdk.messages.create({ ...body, max_tokens: 0 })
    expect(warm.content).toEqual([])
    expect(warm.stop_reason).toBe('max_tokens')
    expect(warm.usage.output_tokens).toBe(0)
    expect(warm.usage.cache_creation_input_tokens).toBeGreaterThan(1000)
    expect((warm.usage as any).cache_creation).toEqual({ ephemeral_5m_input_tokens: warm.usage.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 })
    const real = await sdk.messages.create({ ...body, messages: [{ role: 'user', content: 'the real question' }], max_tokens: 100 })
    expect(real.usage.cache_read_input_tokens).toBe(warm.usage.cache_creation_input_tokens)
    await expect(sdk.messages.create({ ...body, max_tokens: 0, stream: true })).rejects.toThrow(/max_tokens: 0 cannot be used with stream/)
    await expect(sdk.messages.create({ ...body, max_tokens: 0, thinking: { type: 'enabled', budget_tokens: 1024 } })).rejects.toThrow(/extended thinking/)
  })

  it('keeps entries apart per API key, and can be turned off', async () => {
    model = await startScriptedModel({ respond: () => reply.text('ok') })
    await model.client.stream(request('a'))
    const same = await model.client.stream(request('b'))
    expect(same.usage.cacheReadTokens).toBeGreaterThan(0)
    const { createModelClient } = await import('../client')
    const other = createModelClient({ apiKey: 'another-workspace', baseURL: model.server.url, maxRetries: 0 })
    expect((await other.stream(request('c'))).usage.cacheReadTokens).toBe(0)
    await model.close()
    model = await startScriptedModel({ respond: () => reply.text('ok'), promptCache: false })
    await model.client.stream(request('a'))
    const off = await model.client.stream(request('b'))
    expect(off.usage).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 })
  })
})
