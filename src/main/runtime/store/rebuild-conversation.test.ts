import { describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../shared/events'
import { appendUserText, INTERRUPTED_TOOL_RESULT, rebuildConversation, repairConversation, repairedHistory } from './rebuild-conversation'
import { eventsFor } from './test-fixtures'

const f = eventsFor({ sessionId: 's', agentId: 'a', parentAgentId: null, parentToolUseId: null })
const user = (content: ChatMessage['content']): ChatMessage => ({ role: 'user', content })
const assistant = (content: ChatMessage['content']): ChatMessage => ({ role: 'assistant', content })
const toolUse = (id: string) => ({ type: 'tool_use' as const, id, name: 'Read', input: { file_path: '/x' } })
const result = (id: string, content = 'ok') => ({ type: 'tool_result' as const, tool_use_id: id, content })
const interrupted = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: INTERRUPTED_TOOL_RESULT, is_error: true })

describe('rebuildConversation', () => {
  it('returns the messages of a finished transcript unchanged and in order, ignoring other events', () => {
    const msgs = [
      user('Find it'),
      assistant([{ type: 'thinking', thinking: 'hm', signature: 'sig' }, toolUse('t1')]),
      user([result('t1')]),
      assistant('Found.')
    ]
    const events = [f.start(), f.turn(1), ...msgs.flatMap((m) => [f.text('x'), f.message(m)]), f.end()]
    const notes: string[] = []
    const out = rebuildConversation(events, { onRepair: (n) => notes.push(n) })
    expect(out).toEqual(msgs)
    expect(out[1]).toBe(msgs[1])
    expect(notes).toEqual([])
  })

  it('a reply whose calls started while it streamed: its whole message replaces the blocks recorded on the way; cut off, those blocks are the reply', () => {
    const head = (blocks: ChatMessage['content']) => ({ ...f.message(user('')), type: 'reply_blocks' as const, blocks: blocks as never })
    const whole = assistant([{ type: 'text', text: 'Two agents' }, toolUse('t1'), toolUse('t2'), toolUse('t3')])
    const finished = [
      f.message(user('Go')),
      head([{ type: 'text', text: 'Two agents' }, toolUse('t1')]),
      head([toolUse('t2')]),
      f.message(whole),
      f.message(user([result('t1'), result('t2'), result('t3')]))
    ]
    expect(rebuildConversation(finished)).toEqual([user('Go'), whole, user([result('t1'), result('t2'), result('t3')])])
    // A crash before the reply was complete: the blocks recorded so far stand for it, their calls answered.
    const cut = finished.slice(0, 3)
    expect(rebuildConversation(cut)).toEqual([
      user('Go'),
      assistant([{ type: 'text', text: 'Two agents' }, toolUse('t1'), toolUse('t2')]),
      user([interrupted('t1'), interrupted('t2')])
    ])
    // A compaction after them starts over from its own messages.
    expect(rebuildConversation([...cut, { ...f.message(user('')), type: 'compaction' as const, messages: [user('Summary')] } as never])).toEqual([
      user('Summary')
    ])
  })

  it('answers tool calls left dangling by a transcript that ends mid-turn with error results', () => {
    const events = [f.message(user('Go')), f.message(assistant([{ type: 'text', text: 'Reading' }, toolUse('t1'), toolUse('t2')]))]
    const notes: string[] = []
    const out = rebuildConversation(events, { onRepair: (n) => notes.push(n) })
    expect(out).toEqual([
      user('Go'),
      assistant([{ type: 'text', text: 'Reading' }, toolUse('t1'), toolUse('t2')]),
      user([interrupted('t1'), interrupted('t2')])
    ])
    expect(notes).toEqual(['message 2: added interrupted results for unanswered tool calls t1, t2'])
    // Resuming adds the new prompt to that same user turn, after the results, as the API requires.
    expect(appendUserText(out, 'Continue').at(-1)).toEqual(user([interrupted('t1'), interrupted('t2'), { type: 'text', text: 'Continue' }]))
  })

  it('fills in missing results, drops orphans and duplicates, and puts results before other content', () => {
    const { messages, repairs } = repairConversation([
      user('Go'),
      assistant([toolUse('t1'), toolUse('t2')]),
      user([{ type: 'text', text: 'note' }, result('t2'), result('t9'), result('t2', 'again')]),
      assistant([]),
      assistant([toolUse('t3')]),
      assistant('after a lost result message')
    ])
    expect(messages).toEqual([
      user('Go'),
      assistant([toolUse('t1'), toolUse('t2')]),
      user([interrupted('t1'), result('t2'), { type: 'text', text: 'note' }]),
      assistant([toolUse('t3')]),
      user([interrupted('t3')]),
      assistant('after a lost result message')
    ])
    expect(repairs).toHaveLength(5)
  })

  it('appends a plain user turn after an assistant reply', () => {
    expect(appendUserText([user('a'), assistant('b')], 'c')).toEqual([user('a'), assistant('b'), user('c')])
  })
})

describe('repairedHistory', () => {
  const call = (id: string): ChatMessage => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Glob', input: {} }] })
  const answer = (id: string): ChatMessage => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] })

  it('repairs an old history once, gives the same repaired messages again, and repairs anew after an append', () => {
    // An old transcript wrote the assistant message twice: the copy is dropped on every read.
    const history: ChatMessage[] = [{ role: 'user', content: 'Go.' }, call('a'), call('a'), answer('a')]
    const first = repairedHistory(history)
    expect(first).toEqual(repairConversation(history).messages)
    const second = repairedHistory(history)
    // The same repair, not a new one: the very message objects the first read made.
    expect(second).not.toBe(first)
    second.forEach((m, i) => expect(m).toBe(first[i]))
    // An append (in place, as the agent's handle grows) invalidates it.
    history.push(call('b'))
    const third = repairedHistory(history)
    expect(third).toHaveLength(first.length + 2)
    expect(third.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', is_error: true }] })
    // A message replaced at the end (same length) invalidates it too.
    history[history.length - 1] = call('c')
    expect(JSON.stringify(repairedHistory(history))).toContain('"tool_use_id":"c"')
  })
})
