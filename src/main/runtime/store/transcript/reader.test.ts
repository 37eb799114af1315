import { readFile, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/events'
import { JsonlWriter } from '../jsonl-writer'
import { eventsFor, tempDataDir } from '../test-fixtures'
import { makeHeader, mergeDeltas } from './format'
import { readTranscript } from './reader'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const ref = { sessionId: 's1', agentId: 'a1', parentAgentId: null, parentToolUseId: null }

async function writeTranscript(file: string, events: AgentEvent[]): Promise<void> {
  const w = new JsonlWriter<AgentEvent>(file, { header: () => makeHeader(events[0]), merge: mergeDeltas })
  for (const e of events) w.append(e)
  await w.close()
}

describe('readTranscript', () => {
  it('reads the header and every event back in order', async () => {
    const f = eventsFor(ref)
    const events = [f.start(), f.turn(1), f.message({ role: 'user', content: 'hi' }), f.end()]
    const file = join(dir, 'a1.jsonl')
    await writeTranscript(file, events)
    const t = await readTranscript(file)
    expect(t.header).toMatchObject({ type: 'header', version: 2, agentId: 'a1', sessionId: 's1', parentAgentId: null, createdAt: events[0].ts })
    expect(t.events).toEqual(events)
    expect(t.issues).toEqual([])
  })

  it('after a crash mid-write: every complete line is read and the torn last line is skipped with a note', async () => {
    const f = eventsFor(ref)
    const events = [f.start(), f.turn(1), f.message({ role: 'assistant', content: [{ type: 'text', text: 'héllo wörld' }] }), f.end()]
    const file = join(dir, 'a1.jsonl')
    await writeTranscript(file, events)
    const text = await readFile(file, 'utf8')
    const cut = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n', text.length - 2))) + 20 // 20 bytes into the last line
    await truncate(file, cut)
    const t = await readTranscript(file)
    expect(t.events).toEqual(events.slice(0, 3))
    expect(t.issues).toHaveLength(1)
    expect(t.issues[0]).toMatchObject({ line: 5, kind: 'torn-last-line' })
    expect(t.issues[0].message).toContain(`${file}:5: incomplete last line`)
  })

  it('reports a corrupt line in the middle with its line number and reads on', async () => {
    const f = eventsFor(ref)
    const a = f.start()
    const b = f.end()
    const file = join(dir, 'x.jsonl')
    await writeFile(file, [JSON.stringify(makeHeader(a)), JSON.stringify(a), '{"type":"text_delta", garbage', '[1,2]', JSON.stringify(b), ''].join('\n'))
    const t = await readTranscript(file)
    expect(t.events).toEqual([a, b])
    expect(t.issues.map((i) => [i.line, i.kind])).toEqual([
      [3, 'corrupt-line'],
      [4, 'not-an-event']
    ])
  })

  it('reads a file without a header, and says so', async () => {
    const f = eventsFor(ref)
    const a = f.start()
    const file = join(dir, 'nohdr.jsonl')
    await writeFile(file, JSON.stringify(a) + '\n')
    const t = await readTranscript(file)
    expect(t.header).toBeNull()
    expect(t.events).toEqual([a])
    expect(t.issues[0].kind).toBe('missing-header')
  })

  it('accepts a complete last line that only lacks its newline', async () => {
    const f = eventsFor(ref)
    const a = f.start()
    const file = join(dir, 'nonl.jsonl')
    await writeFile(file, JSON.stringify(makeHeader(a)) + '\n' + JSON.stringify(a))
    expect((await readTranscript(file)).events).toEqual([a])
  })

  it('names the file when it does not exist', async () => {
    await expect(readTranscript(join(dir, 'nope.jsonl'))).rejects.toThrow(`Transcript not found: ${join(dir, 'nope.jsonl')}`)
  })

  it('coalesces consecutive deltas of a batch into one line with identical text', async () => {
    const f = eventsFor(ref)
    const words = 'The quick brown fox jumps over the lazy dog'.split(/(?= )/)
    const deltas = words.map((w) => f.text(w))
    const input: AgentEvent[] = [
      f.start(),
      ...deltas,
      f.ev({ type: 'tool_input_delta', toolUseId: 't1', partialJson: '{"pa' }),
      f.ev({ type: 'tool_input_delta', toolUseId: 't1', partialJson: 'th":1}' }),
      f.ev({ type: 'tool_input_delta', toolUseId: 't2', partialJson: '{}' }),
      f.text('!')
    ]
    const file = join(dir, 'd.jsonl')
    await writeTranscript(file, input)
    const t = await readTranscript(file)
    expect(t.events.map((e) => e.type)).toEqual(['agent_start', 'text_delta', 'tool_input_delta', 'tool_input_delta', 'text_delta'])
    const text = t.events
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e.type === 'text_delta' ? e.text : ''))
      .join('')
    expect(text).toBe('The quick brown fox jumps over the lazy dog!')
    expect(t.events[2]).toMatchObject({ toolUseId: 't1', partialJson: '{"path":1}' })
    expect(t.events[1].ts).toBe(deltas[0].ts)
    // The caller's objects (the bus hands the same ones to the UI) are never mutated, however many merge.
    expect(deltas.map((d) => (d.type === 'text_delta' ? d.text : ''))).toEqual(words)
    expect(input[input.length - 2]).toMatchObject({ partialJson: '{}' })
  })

  it('for a replay, leaves out the deltas a later assistant message repeats, keeping the reply still streaming', async () => {
    const f = eventsFor(ref)
    const input: AgentEvent[] = [
      f.start(),
      f.text('Reading '),
      f.ev({ type: 'tool_start', toolUseId: 't1', name: 'Read' }),
      f.ev({ type: 'tool_input_delta', toolUseId: 't1', partialJson: '{}' }),
      f.message({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading ' },
          { type: 'tool_use', id: 't1', name: 'Read', input: {} }
        ]
      }),
      f.ev({ type: 'tool_end', toolUseId: 't1', name: 'Read', isError: false, output: 'x', durationMs: 3 }),
      f.text('Half a rep'),
      f.ev({ type: 'usage', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 }, model: 'm' }),
      f.text('ly')
    ]
    // As the recorder writes them (type first: deltas are dropped unparsed), and in another key order.
    for (const events of [input.map(({ type, ...rest }) => ({ type, ...rest }) as AgentEvent), input]) {
      const file = join(dir, `replay-${events[0].type === input[0].type && Object.keys(events[0])[0]}.jsonl`)
      await writeTranscript(file, events)
      const all = await readTranscript(file)
      const replay = await readTranscript(file, { skipSettledDeltas: true })
      expect(replay.events.map((e) => e.type)).toEqual(['agent_start', 'tool_start', 'message', 'tool_end', 'text_delta', 'usage', 'text_delta'])
      expect(replay.events).toEqual(all.events.filter((e, i) => i > 4 || !['text_delta', 'tool_input_delta'].includes(e.type)))
      expect(replay.issues).toEqual([])
    }
  })

  it('reads 100,000 events back intact', async () => {
    const f = eventsFor(ref)
    const events: AgentEvent[] = [f.start()]
    for (let i = 0; i < 100_000; i++)
      events.push(i % 2 ? f.ev({ type: 'turn_start', turn: i }) : f.ev({ type: 'status', status: 'running', detail: `step ${i}` }))
    const file = join(dir, 'big.jsonl')
    await writeTranscript(file, events)
    const t = await readTranscript(file)
    expect(t.events.length).toBe(100_001)
    expect(t.events[99_999]).toEqual(events[99_999])
    expect(t.issues).toEqual([])
  })
})
