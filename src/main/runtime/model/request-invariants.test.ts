// The rules a request's tool calls keep, checked before a request is sent and on every request tests record.
import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../shared/events'
import { assertSendable, conversationViolations } from './request-invariants'

const call = (id: string): ChatMessage => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Glob', input: {} }] })
const answer = (...ids: string[]): ChatMessage => ({
  role: 'user',
  content: ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' }))
})
const ask: ChatMessage = { role: 'user', content: 'Go.' }

describe('conversationViolations', () => {
  it('accepts calls each answered once in the next message, with more user messages after', () => {
    expect(conversationViolations([ask, call('a'), answer('a'), { role: 'user', content: 'continue' }, call('b'), answer('b')])).toEqual([])
  })

  it('names a tool_use id sent twice (a transcript line written twice), an unanswered call and a double or stray answer', () => {
    expect(conversationViolations([ask, call('a'), answer('a'), call('a'), answer('a')])).toEqual(['message 3: tool_use id a is used twice'])
    expect(conversationViolations([ask, call('a'), ask])).toEqual(['message 2: tool call a is answered 0 times (once expected)'])
    expect(conversationViolations([ask, call('a'), answer('a', 'a')])).toEqual(['message 2: tool call a is answered 2 times (once expected)'])
    expect(conversationViolations([ask, call('a'), answer('a', 'z')])).toEqual(['message 2: a tool_result answers z, which the message before did not call'])
    expect(conversationViolations([ask, call('a')])).toEqual(['the conversation ends with tool calls a unanswered'])
  })

  it('a request that breaks them is refused before it is sent, saying what is wrong', () => {
    expect(() => assertSendable([ask, call('a'), answer('a'), call('a'), answer('a')])).toThrow(
      /^Fanout built a request the Messages API would reject, so it was not sent .*tool_use id a is used twice/
    )
  })
})
