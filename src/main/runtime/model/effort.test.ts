// The effort mapping, model by model (see the table at the top of effort.ts).
import { describe, expect, it } from 'vitest'
import { effortRequest, modelCapabilities, readEffort } from './effort'

describe('effortRequest', () => {
  it('sends output_config.effort with adaptive thinking on models that have both', () => {
    for (const model of ['claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-4-8', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-opus-5', 'claude-mythos-preview', 'claude-fable-5-2'])
      expect(effortRequest(model, 'medium'), model).toEqual({ effort: 'medium', thinking: { type: 'adaptive' } })
    expect(effortRequest('claude-opus-5-5', 'max')).toEqual({ effort: 'max', thinking: { type: 'adaptive' } })
  })

  it('Opus 4.5: effort without adaptive thinking, and max becomes high', () => {
    expect(effortRequest('claude-opus-4-5-20251101', 'low')).toEqual({ effort: 'low' })
    expect(effortRequest('claude-opus-4-5', 'max')).toEqual({ effort: 'high' })
  })

  it('models with extended thinking but no effort parameter get a thinking budget per level', () => {
    expect(effortRequest('claude-sonnet-4-5-20250929', 'high')).toEqual({ thinking: { type: 'enabled', budget_tokens: 16_384 } })
    expect(effortRequest('claude-haiku-4-5', 'medium')).toEqual({ thinking: { type: 'enabled', budget_tokens: 4_096 } })
    expect(effortRequest('claude-3-7-sonnet-20250219', 'max')).toEqual({ thinking: { type: 'enabled', budget_tokens: 31_999 } })
    expect(effortRequest('claude-sonnet-4-5', 'low')).toEqual({})
  })

  it('a number is a thinking budget where manual thinking exists, else the nearest level', () => {
    expect(effortRequest('claude-sonnet-4-6', 8000)).toEqual({ thinking: { type: 'enabled', budget_tokens: 8000 } })
    expect(effortRequest('claude-sonnet-4-5', 100)).toEqual({ thinking: { type: 'enabled', budget_tokens: 1_024 } })
    expect(effortRequest('claude-sonnet-4-5', 90_000, 32_000)).toEqual({ thinking: { type: 'enabled', budget_tokens: 31_999 } })
    expect(effortRequest('claude-opus-4-7', 8000)).toEqual({ effort: 'medium', thinking: { type: 'adaptive' } })
    expect(effortRequest('claude-opus-5-5', 2000)).toEqual({ effort: 'low', thinking: { type: 'adaptive' } })
  })

  it('sends nothing for models without these settings, and for values it cannot read', () => {
    for (const model of ['claude-3-5-haiku-20241022', 'gpt-4o', 'my-gateway/model', 'claude-3-opus-20240229']) expect(effortRequest(model, 'high'), model).toEqual({})
    expect(effortRequest('claude-opus-4-6', undefined)).toEqual({})
    expect(effortRequest('claude-opus-4-6', 'extreme')).toEqual({})
  })

  it('reads effort as agent files write it', () => {
    expect(readEffort('High')).toBe('high')
    expect(readEffort(' 8000 ')).toBe(8000)
    expect(readEffort(0)).toBeUndefined()
    expect(modelCapabilities('claude-opus-4-20250514')).toEqual({ effort: false, maxEffort: false, adaptive: false, manualThinking: true, contextManagement: true })
  })

  it('knows which models clear old tool results on the API side (context_management)', () => {
    for (const model of ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-haiku-4-5-20251001', 'claude-sonnet-5-5', 'claude-opus-5-5'])
      expect(modelCapabilities(model).contextManagement, model).toBe(true)
    for (const model of ['claude-3-7-sonnet-20250219', 'claude-3-5-haiku-latest', 'claude-haiku-4-0', 'gpt-4o', 'my-gateway-model'])
      expect(modelCapabilities(model).contextManagement, model).toBe(false)
  })
})
