// The effort mapping, model by model (see the table at the top of effort.ts). The defaults are what Claude
// Code 2.1.328 sends for each model with no effort set (recorded by the differential kit, test/differential).
import { describe, expect, it } from 'vitest'
import { effortLevel, effortRequest, modelCapabilities, modelMaxTokens, readEffort, type EffortOptions } from './effort'

/** The thinking and effort settings, without max_tokens. */
const sent = (model: string, effort: unknown, opts?: EffortOptions) => {
  const { maxTokens: _m, ...rest } = effortRequest(model, effort, opts)
  return rest
}

describe('effortRequest', () => {
  it('sends output_config.effort with adaptive thinking on models that have both', () => {
    for (const model of [
      'claude-opus-4-6',
      'claude-sonnet-4-6',
      'claude-opus-4-8',
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-opus-5',
      'claude-mythos-preview',
      'claude-fable-5-2'
    ])
      expect(sent(model, 'medium'), model).toEqual({ effort: 'medium', thinking: { type: 'adaptive' } })
    expect(sent('claude-opus-5-5', 'max')).toEqual({ effort: 'max', thinking: { type: 'adaptive' } })
  })

  it('no effort set: each model gets the default Claude Code sends for it', () => {
    expect(effortRequest('claude-opus-5-5', undefined)).toEqual({ maxTokens: 128_000, effort: 'medium', thinking: { type: 'adaptive' } })
    expect(effortRequest('claude-sonnet-5-5', undefined)).toEqual({ maxTokens: 128_000, effort: 'medium', thinking: { type: 'adaptive' } })
    expect(effortRequest('claude-haiku-5-5', undefined)).toEqual({ maxTokens: 128_000, effort: 'medium', thinking: { type: 'adaptive' } })
    expect(effortRequest('claude-opus-4-7', undefined)).toEqual({ maxTokens: 64_000, effort: 'xhigh', thinking: { type: 'adaptive' } })
    expect(effortRequest('claude-sonnet-4-6', undefined)).toEqual({ maxTokens: 32_000, effort: 'high', thinking: { type: 'adaptive' } })
    expect(effortRequest('claude-opus-4-5', undefined)).toEqual({ maxTokens: 32_000, effort: 'high', thinking: { type: 'enabled', budget_tokens: 31_999 } })
    expect(effortRequest('claude-sonnet-4-5', undefined)).toEqual({ maxTokens: 32_000, thinking: { type: 'enabled', budget_tokens: 31_999 } })
    expect(effortRequest('claude-haiku-4-5', undefined)).toEqual({ maxTokens: 32_000, thinking: { type: 'enabled', budget_tokens: 31_999 } })
    expect(effortRequest('claude-3-7-sonnet-20250219', undefined)).toEqual({ maxTokens: 32_000 })
    // An effort it cannot read is no effort: the model's default.
    expect(sent('claude-opus-4-6', 'extreme')).toEqual({ effort: 'high', thinking: { type: 'adaptive' } })
  })

  it('thinking turned off: disabled where the model thinks with a budget; adaptive models keep adaptive thinking', () => {
    expect(sent('claude-sonnet-4-5', undefined, { thinking: false })).toEqual({ thinking: { type: 'disabled' } })
    expect(sent('claude-sonnet-4-5', 8000, { thinking: false })).toEqual({ thinking: { type: 'disabled' } })
    expect(sent('claude-opus-5-5', undefined, { thinking: false })).toEqual({ effort: 'medium', thinking: { type: 'adaptive' } })
  })

  it('a level the model lacks falls to the nearest one below it', () => {
    expect(sent('claude-opus-4-5-20251101', 'low')).toEqual({ effort: 'low' })
    expect(sent('claude-opus-4-5', 'max')).toEqual({ effort: 'high' })
    expect(sent('claude-sonnet-4-6', 'xhigh')).toEqual({ effort: 'high', thinking: { type: 'adaptive' } })
    expect(sent('claude-opus-5-5', 'xhigh')).toEqual({ effort: 'xhigh', thinking: { type: 'adaptive' } })
    expect(sent('claude-opus-4-7', 'max')).toEqual({ effort: 'max', thinking: { type: 'adaptive' } })
  })

  it('models with extended thinking but no effort parameter get a thinking budget per level', () => {
    expect(sent('claude-sonnet-4-5-20250929', 'high')).toEqual({ thinking: { type: 'enabled', budget_tokens: 16_384 } })
    expect(sent('claude-haiku-4-5', 'medium')).toEqual({ thinking: { type: 'enabled', budget_tokens: 4_096 } })
    expect(sent('claude-3-7-sonnet-20250219', 'max')).toEqual({ thinking: { type: 'enabled', budget_tokens: 31_999 } })
    expect(sent('claude-sonnet-4-5', 'low')).toEqual({})
  })

  it('a number is a thinking budget where manual thinking exists, else the nearest level', () => {
    expect(sent('claude-sonnet-4-6', 8000)).toEqual({ thinking: { type: 'enabled', budget_tokens: 8000 } })
    expect(sent('claude-sonnet-4-5', 100)).toEqual({ thinking: { type: 'enabled', budget_tokens: 1_024 } })
    expect(sent('claude-sonnet-4-5', 90_000, { maxTokens: 32_000 })).toEqual({ thinking: { type: 'enabled', budget_tokens: 31_999 } })
    expect(sent('claude-opus-4-7', 8000)).toEqual({ effort: 'medium', thinking: { type: 'adaptive' } })
    expect(sent('claude-opus-5-5', 2000)).toEqual({ effort: 'low', thinking: { type: 'adaptive' } })
  })

  it('sends nothing for models without these settings', () => {
    for (const model of ['claude-3-5-haiku-20241022', 'gpt-4o', 'my-gateway/model', 'claude-3-opus-20240229']) {
      expect(sent(model, 'high'), model).toEqual({})
      expect(sent(model, undefined), model).toEqual({})
    }
  })

  it('reads effort as agent files write it; hooks see the level sent', () => {
    expect(readEffort('High')).toBe('high')
    expect(readEffort('XHigh')).toBe('xhigh')
    expect(readEffort(' 8000 ')).toBe(8000)
    expect(readEffort(0)).toBeUndefined()
    expect(modelCapabilities('claude-opus-4-20250514')).toMatchObject({
      effort: false,
      maxEffort: false,
      adaptive: false,
      manualThinking: true,
      contextManagement: true
    })
    expect(effortLevel('claude-opus-5-5', undefined)).toBe('medium')
    expect(effortLevel('claude-sonnet-4-5', 'high')).toBeUndefined()
    expect(modelMaxTokens('claude-fable-5-2')).toBe(128_000)
  })

  it('knows which models clear old tool results on the API side (context_management)', () => {
    for (const model of ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001', 'claude-sonnet-5-5', 'claude-opus-5-5'])
      expect(modelCapabilities(model).contextManagement, model).toBe(true)
    for (const model of ['claude-3-7-sonnet-20250219', 'claude-3-5-haiku-latest', 'claude-haiku-4-0', 'gpt-4o', 'my-gateway-model'])
      expect(modelCapabilities(model).contextManagement, model).toBe(false)
  })
})
