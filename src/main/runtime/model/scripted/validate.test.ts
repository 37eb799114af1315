// The scripted server refuses what the API refuses, and takes what it takes: here, mid-conversation system
// messages, which newer models accept (Claude Code sends them, and falls back when refused).
import { describe, expect, it } from 'vitest'
import { validateMessagesBody } from './parse-request'

const body = (model: string, extra: object[] = []) => ({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, ...extra] })

describe('validateMessagesBody', () => {
  it('takes a system message mid-conversation on the models that accept one, and refuses it on the others', () => {
    const system = { role: 'system', content: [{ type: 'text', text: 'From now on, answer in French.' }] }
    for (const model of ['claude-sonnet-5-5', 'claude-opus-4-8', 'claude-opus-5', 'claude-fable-5'])
      expect(validateMessagesBody(body(model, [system]))).toBeNull()
    for (const model of ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-7'])
      expect(validateMessagesBody(body(model, [system]))).toMatch(/role: Input should be 'user' or 'assistant'$/)
    expect(validateMessagesBody(body('claude-sonnet-5-5', [{ role: 'system', content: [{ type: 'image', source: {} }] }]))).toMatch(
      /non-empty text blocks only/
    )
    expect(validateMessagesBody(body('claude-sonnet-5-5', [{ role: 'tool', content: 'x' }]))).toMatch(/'user' or 'assistant' or 'system'/)
  })

  it('takes max_tokens 0 (a pre-warm) and refuses a negative or fractional one', () => {
    expect(validateMessagesBody({ ...body('claude-sonnet-5-5'), max_tokens: 0 })).toBeNull()
    expect(validateMessagesBody({ ...body('claude-sonnet-5-5'), max_tokens: -1 })).toMatch(/max_tokens/)
    expect(validateMessagesBody({ ...body('claude-sonnet-5-5'), max_tokens: 1.5 })).toMatch(/max_tokens/)
  })
})
