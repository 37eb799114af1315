// The rules a request's tool calls keep, checked before a request is sent and on every request tests record.
import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../shared/events'
import { assertSendable, CLEARED_RESULT_PREFIX, conversationViolations, HistoryRewriteError, historyRewrites, SentHistory } from './request-invariants'

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

describe('SentHistory: an agent never rewrites what it sent', () => {
  const said = (text: string): ChatMessage => ({ role: 'assistant', content: [{ type: 'text', text }] })

  it('accepts requests that extend the last one (its unanswered last message may gain a turn)', () => {
    const h = new SentHistory()
    h.check([ask])
    h.check([ask, said('hi'), { role: 'user', content: 'more' }])
    // The last message was never answered: a prompt may be merged into it (after a failed request).
    expect(() =>
      h.check([
        ask,
        said('hi'),
        {
          role: 'user',
          content: [
            { type: 'text', text: 'more' },
            { type: 'text', text: 'and this' }
          ]
        }
      ])
    ).not.toThrow()
  })

  it('refuses a request that changes, drops or reorders an answered message, and says which', () => {
    const h = new SentHistory()
    h.check([ask, call('a'), answer('a')])
    const rewritten: ChatMessage = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'a different answer' }] }
    expect(() => h.check([ask, call('a'), rewritten, said('x'), ask])).not.toThrow() // the last message was unanswered
    expect(() => h.check([ask, call('a'), answer('a'), said('x'), ask])).toThrow(HistoryRewriteError)
    expect(() => h.check([ask, call('a'), answer('a'), said('x'), ask])).toThrow(/message 2 differs from what its previous request sent/)
    expect(() => h.check([ask])).toThrow(/it sends 1 messages, its previous request had 4 already answered/)
  })

  it('allows an old tool result cleared to save room, either way, and anything after a compaction', () => {
    const h = new SentHistory()
    h.check([ask, call('a'), answer('a'), said('x'), ask])
    const stub: ChatMessage = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'a', content: `${CLEARED_RESULT_PREFIX} to keep the context small]` }]
    }
    h.check([ask, call('a'), stub, said('x'), ask, said('y'), ask])
    h.check([ask, call('a'), answer('a'), said('x'), ask, said('y'), ask])
    h.compacted()
    expect(() => h.check([{ role: 'user', content: 'Summary of the conversation' }])).not.toThrow()
  })
})

describe('historyRewrites (the same check tests run over a request log)', () => {
  it('is empty for an extension and names the first rewritten message', () => {
    expect(historyRewrites([ask, call('a'), answer('a')], [ask, call('a'), answer('a'), call('b')])).toEqual([])
    expect(historyRewrites([ask, call('a'), answer('a')], [ask, call('b'), answer('b')])).toEqual([
      'message 1 differs from what its previous request sent (history rewritten)'
    ])
  })
})
