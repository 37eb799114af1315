import { afterEach, describe, expect, it } from 'vitest'
import { createModelClient, DEFAULT_MODEL_ALIASES, refreshModelAliases, resolveModel, UnknownModelError, aliasesFromListing, costOf } from './index'
import { scriptTurns, startScriptedServer, type ScriptedServer } from './scripted'

describe('resolveModel', () => {
  const parent = 'claude-opus-5-5'

  it('maps aliases to the configured ids', () => {
    expect(resolveModel({ definition: 'haiku', parent })).toBe('claude-haiku-5-5')
    expect(resolveModel({ definition: 'Sonnet', parent })).toBe('claude-sonnet-5-5')
    expect(resolveModel({ definition: 'haiku', parent, aliases: { ...DEFAULT_MODEL_ALIASES, haiku: 'my-haiku-id' } })).toBe('my-haiku-id')
  })

  it('orders per-call override > definition > parent', () => {
    expect(resolveModel({ override: 'haiku', definition: 'sonnet', parent })).toBe('claude-haiku-5-5')
    expect(resolveModel({ definition: 'sonnet', parent })).toBe('claude-sonnet-5-5')
    expect(resolveModel({ parent })).toBe(parent)
    expect(resolveModel({ override: '', definition: null, parent })).toBe(parent)
  })

  it('treats inherit as the parent model, at any level', () => {
    expect(resolveModel({ definition: 'inherit', parent })).toBe(parent)
    expect(resolveModel({ override: 'inherit', definition: 'haiku', parent })).toBe(parent)
    expect(resolveModel({ definition: 'inherit', parent: 'sonnet' })).toBe('claude-sonnet-5-5')
  })

  it('resolves every alias Claude Code 2.1.328 accepts, with or without its [1m] suffix', () => {
    expect(resolveModel({ definition: 'fable', parent })).toBe('claude-fable-5-2')
    expect(resolveModel({ definition: 'Fable[1m]', parent })).toBe('claude-fable-5-2')
    expect(resolveModel({ definition: 'fable', parent, aliases: { ...DEFAULT_MODEL_ALIASES, fable: 'claude-fable-6' } })).toBe('claude-fable-6')
    expect(resolveModel({ definition: 'best', parent })).toBe('claude-opus-5-5')
    expect(resolveModel({ definition: 'opusplan', parent })).toBe('claude-sonnet-5-5')
    expect(resolveModel({ definition: 'sonnet[1m]', parent })).toBe('claude-sonnet-5-5')
    expect(resolveModel({ definition: 'opus[1m]', parent })).toBe('claude-opus-5-5')
    expect(resolveModel({ definition: 'haiku[1M]', parent })).toBe('claude-haiku-5-5')
    expect(resolveModel({ definition: 'claude-sonnet-4-6[1m]', parent })).toBe('claude-sonnet-4-6')
    expect(resolveModel({ definition: 'default', parent })).toBe(parent)
  })

  it('passes full ids through, including gateway-style ids', () => {
    for (const id of ['claude-sonnet-4-5-20250929', 'us.anthropic.claude-opus-4', 'openrouter/anthropic/claude', 'llama3:8b'])
      expect(resolveModel({ definition: id, parent })).toBe(id)
  })

  it('rejects an unknown alias, naming where it came from and the valid ones', () => {
    expect(() => resolveModel({ definition: 'gpt', parent })).toThrow(UnknownModelError)
    expect(() => resolveModel({ definition: 'gpt', parent })).toThrow(
      'Unknown model "gpt" (the agent definition\'s model field). Use one of haiku, sonnet, opus, fable, best, opusplan, inherit, or a full model id such as claude-sonnet-5-5.'
    )
    expect(() => resolveModel({ override: 'turbo', parent })).toThrow(/the model requested for this call/)
  })
})

describe('aliasesFromListing', () => {
  it('picks the newest active model of each family and keeps the rest', () => {
    const aliases = aliasesFromListing([
      { id: 'claude-sonnet-5-5', createdAt: '2026-10-01T00:00:00Z', line: 'sonnet', lifecycle: 'active' },
      { id: 'claude-sonnet-6-0', createdAt: '2027-02-01T00:00:00Z', line: 'sonnet', lifecycle: 'active' },
      { id: 'claude-sonnet-7-0-preview', createdAt: '2027-05-01T00:00:00Z', line: 'sonnet', lifecycle: 'retired' },
      { id: 'claude-haiku-6-1' },
      { id: 'claude-haiku-6-0' }
    ])
    expect(aliases).toEqual({ sonnet: 'claude-sonnet-6-0', haiku: 'claude-haiku-6-1', opus: 'claude-opus-5-5' })
  })
})

describe('refreshModelAliases', () => {
  let server: ScriptedServer | undefined
  afterEach(() => server?.close())

  it('refreshes from GET /v1/models', async () => {
    server = await startScriptedServer({
      respond: scriptTurns(),
      models: [
        { id: 'claude-opus-6-0', line: 'opus', created_at: '2027-01-01T00:00:00Z' },
        { id: 'claude-opus-5-5', line: 'opus', created_at: '2026-06-01T00:00:00Z' }
      ]
    })
    const client = createModelClient({ apiKey: 'k', baseURL: server.url })
    const r = await refreshModelAliases(client)
    expect(r).toEqual({ refreshed: true, aliases: { ...DEFAULT_MODEL_ALIASES, opus: 'claude-opus-6-0' } })
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/models'])
  })

  it('keeps the current table when the endpoint has no model list', async () => {
    server = await startScriptedServer({ respond: scriptTurns(), models: null })
    const client = createModelClient({ apiKey: 'k', baseURL: server.url })
    const r = await refreshModelAliases(client, { ...DEFAULT_MODEL_ALIASES, haiku: 'x-1' })
    expect(r.refreshed).toBe(false)
    expect(r.aliases.haiku).toBe('x-1')
    expect(r.error).toMatch(/Could not list models at http:\/\/127\.0\.0\.1:\d+: Not found \(404\)/)
  })
})

describe('costOf', () => {
  it('prices by family and gives 0 for unknown models', () => {
    const tokens = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 0, cacheWriteTokens: 0 }
    expect(costOf('claude-haiku-5-5', tokens)).toBeCloseTo(6)
    expect(costOf('claude-opus-5-5', tokens)).toBeCloseTo(30)
    expect(costOf('llama3:8b', tokens)).toBe(0)
  })
})
