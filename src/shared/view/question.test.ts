import { describe, expect, it } from 'vitest'
import { endsOnQuestion } from './question'

describe('endsOnQuestion', () => {
  it('is a question when the last paragraph ends with one, past closing marks', () => {
    expect(endsOnQuestion('I found two ways.\n\nWhich one should I take?')).toBe(true)
    expect(endsOnQuestion('Shall I **merge it?**')).toBe(true)
    expect(endsOnQuestion('Done (did you want the tests too?)')).toBe(true)
  })

  it('is not when the question is earlier, inside code, or there are no words', () => {
    expect(endsOnQuestion('Why did it fail? The lexer drops positions.')).toBe(false)
    expect(endsOnQuestion('Fixed it.\n\n```ts\nconst x = a ? b : c?\n```')).toBe(false)
    expect(endsOnQuestion('')).toBe(false)
    expect(endsOnQuestion(undefined)).toBe(false)
  })
})
