// Where the request body puts its prompt-cache breakpoints: the stable prefix (shared tools, system prompt)
// apart from the moving tail (the previous request's end, the last message), never more than four.
import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../shared/events'
import { buildRequestBody, previousTail } from './request-body'
import type { ApiToolSpec } from './types'

const tool = (name: string): ApiToolSpec => ({ name, description: `${name} tool`, input_schema: { type: 'object' } })
const tools = ['Read', 'Glob', 'Agent', 'TaskOutput'].map(tool)
const marked = (blocks: any[] | undefined) => (blocks ?? []).flatMap((b, i) => (b.cache_control ? [i] : []))
const markedMessages = (messages: any[]) =>
  messages.flatMap((m, i) => (Array.isArray(m.content) ? m.content.flatMap((b: any, j: number) => (b.cache_control ? [`${i}.${j}`] : [])) : []))
const count = (body: any) => marked(body.tools).length + marked(body.system).length + markedMessages(body.messages).length

function conversation(turns: number, parallel = 1): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'task' }] }]
  for (let t = 0; t < turns; t++) {
    const ids = Array.from({ length: parallel }, (_, k) => `t${t}_${k}`)
    out.push({
      role: 'assistant',
      content: [{ type: 'text', text: 'working' }, ...ids.map((id) => ({ type: 'tool_use' as const, id, name: 'Read', input: {} }))]
    })
    out.push({ role: 'user', content: ids.map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' })) })
  }
  return out
}

describe('prompt-cache breakpoints in the request body', () => {
  it('marks the last shared tool, the end of the system prompt and the first message on a first turn', () => {
    const body: any = buildRequestBody({ model: 'm', system: 'You are an agent.', tools, sharedTools: 3, messages: conversation(0) })
    expect(marked(body.tools)).toEqual([2])
    expect(marked(body.system)).toEqual([0])
    expect(markedMessages(body.messages)).toEqual(['0.0'])
  })

  it('marks the previous request’s last message, the latest reply and the new message, however many blocks the turn added', () => {
    const messages = conversation(3, 16) // the last turn added 16 tool_use and 16 tool_result blocks
    const body: any = buildRequestBody({ model: 'm', system: 'sys', tools, sharedTools: 3, messages })
    expect(previousTail(messages)).toBe(messages.length - 3)
    expect(markedMessages(body.messages)).toEqual([`${messages.length - 3}.15`, `${messages.length - 2}.16`, `${messages.length - 1}.15`])
    // The tools' breakpoint serves other agents' first requests only: here it gives way.
    expect(marked(body.tools)).toEqual([])
    expect(count(body)).toBe(4)
  })

  it('never uses more than four, and none when caching is off; the conversation is not touched', () => {
    for (let turns = 0; turns < 6; turns++) {
      const messages = conversation(turns, 3)
      const before = JSON.stringify(messages)
      const body: any = buildRequestBody({
        model: 'm',
        system: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' }
        ],
        tools,
        sharedTools: tools.length,
        messages
      })
      expect(count(body)).toBeLessThanOrEqual(4)
      expect(marked(body.system)).toEqual([1])
      expect(marked(body.tools)).toEqual(turns === 0 ? [tools.length - 1] : [])
      expect(count(buildRequestBody({ model: 'm', system: 'a', tools, sharedTools: 2, messages, promptCaching: false }))).toBe(0)
      expect(JSON.stringify(messages)).toBe(before)
    }
  })

  it('puts no breakpoint on tools when none is shared, and skips a trailing thinking block', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'question' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'answer' },
          { type: 'thinking', thinking: 'later thought', signature: 's' }
        ]
      }
    ]
    const body: any = buildRequestBody({ model: 'm', tools, messages: [...messages, { role: 'user', content: 'more' }] })
    expect(marked(body.tools)).toEqual([])
    expect(body.messages[0].content).toEqual([{ type: 'text', text: 'question', cache_control: { type: 'ephemeral' } }])
    expect(body.messages[1].content.map((b: any) => !!b.cache_control)).toEqual([true, false]) // the reply, before its thinking
    expect(body.messages[2].content[0].cache_control).toEqual({ type: 'ephemeral' })
    // A conversation that ends on the assistant's turn: the breakpoint goes on the block before its thinking.
    const ending: any = buildRequestBody({ model: 'm', messages })
    expect(ending.messages[1].content.map((b: any) => !!b.cache_control)).toEqual([true, false])
  })

  it('places them as if the conversation ended where the request says (a summary request): the question after it is not marked', () => {
    const messages = conversation(3)
    const request: ChatMessage[] = [...messages, { role: 'user', content: [{ type: 'text', text: 'Summarise the conversation.' }] }]
    const body: any = buildRequestBody({ model: 'm', system: 'sys', tools, sharedTools: 3, messages: request, cacheBreakpointAt: messages.length - 1 })
    const asTurn: any = buildRequestBody({ model: 'm', system: 'sys', tools, sharedTools: 3, messages })
    expect(markedMessages(body.messages)).toEqual(markedMessages(asTurn.messages))
    expect(markedMessages(body.messages)).toEqual([`${messages.length - 3}.0`, `${messages.length - 2}.1`, `${messages.length - 1}.0`])
    expect(count(body)).toBe(4)
  })

  it('after a compaction, marks the new conversation as a first turn: the summary message, with the shared tools', () => {
    const compacted: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summary of the conversation so far.' },
          { type: 'text', text: 'Continue.' }
        ]
      }
    ]
    const body: any = buildRequestBody({ model: 'm', system: 'sys', tools, sharedTools: 3, messages: compacted })
    expect(marked(body.tools)).toEqual([2])
    expect(markedMessages(body.messages)).toEqual(['0.1'])
  })
})
