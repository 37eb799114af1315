// The loop end to end: real SDK, real HTTP, scripted model, small real tools built with defineTool.
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AgentEvent } from '../../../shared/events'
import { block, reply, scriptTurns, startScriptedModel, type Respond, type ScriptedModel } from '../model/scripted'
import { defineTool, type Tool } from '../tools/define-tool'
import { runAgentLoop } from './agent-loop'
import type { AgentLoopOptions } from './types'

let model: ScriptedModel | undefined
afterEach(async () => {
  await model?.close()
  model = undefined
})

async function run(respond: Respond, opts: Partial<AgentLoopOptions> = {}) {
  model = await startScriptedModel({ respond })
  const events: AgentEvent[] = []
  const result = await runAgentLoop(
    {
      agentId: 'agent-1',
      parentAgentId: 'main',
      parentToolUseId: 'toolu_parent',
      sessionId: 'session-1',
      client: model.client,
      model: 'claude-sonnet-5-5',
      systemPrompt: 'You are a test agent.',
      prompt: 'Do the thing.',
      tools: [],
      cwd: '/tmp',
      ...opts
    },
    (e) => events.push(e)
  )
  return { result, events, requests: model.server.messageRequests() }
}

const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type)

// A tool that records how many of its kind run at once, and when each call started and ended.
function probe(name: string, safe: boolean, log: Array<{ name: string; id: string; start: number; end: number }>, live = { now: 0, max: 0 }): Tool {
  return defineTool({
    name,
    description: `${name} test tool`,
    schema: z.object({ label: z.string(), ms: z.number().default(20) }),
    readOnly: safe,
    concurrencySafe: safe,
    async execute(input, ctx) {
      const start = performance.now()
      live.max = Math.max(live.max, ++live.now)
      await new Promise((r) => setTimeout(r, input.ms))
      live.now--
      log.push({ name, id: input.label, start, end: performance.now() })
      ctx.onUpdate?.({ progress: 'done' })
      return { content: `${name}:${input.label}`, details: { label: input.label } }
    }
  })
}

describe('runAgentLoop', () => {
  it('streams text and ends with the final text, every event tagged with the agent ids', async () => {
    const { result, events } = await run(scriptTurns(reply.with({ textChunk: 6 }, block.thinking('Hmm.'), block.text('All done, nothing to change.'))))
    expect(result).toMatchObject({ status: 'completed', result: 'All done, nothing to change.', numTurns: 1, toolUses: 0, stopReason: 'end_turn' })
    expect(events.map((e) => e.type).filter((t, i, a) => t !== a[i - 1])).toEqual([
      'turn_start',
      'message',
      'model_request',
      'thinking_delta',
      'text_delta',
      'usage',
      'message',
      'turn_end'
    ])
    expect(of(events, 'model_request')).toEqual([expect.objectContaining({ model: 'claude-sonnet-5-5', attempt: 1 })])
    expect(of(events, 'text_delta').length).toBeGreaterThan(3)
    expect(
      of(events, 'text_delta')
        .map((e) => e.text)
        .join('')
    ).toBe('All done, nothing to change.')
    for (const e of events)
      expect(e).toMatchObject({ agentId: 'agent-1', parentAgentId: 'main', parentToolUseId: 'toolu_parent', sessionId: 'session-1', ts: expect.any(Number) })
    expect(result.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Do the thing.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Hmm.', signature: 'scripted-signature' },
          { type: 'text', text: 'All done, nothing to change.' }
        ]
      }
    ])
  })

  it('round-trips a tool call whose input arrives split mid-token', async () => {
    const log: Parameters<typeof probe>[2] = []
    const { result, events, requests } = await run(
      scriptTurns(reply.with({ jsonChunk: 2 }, block.text('Checking.'), block.toolUse('lookup', { label: 'alpha-β', ms: 1 }, 'toolu_a')), (req) =>
        reply.text(`Got ${req.toolResults[0].content}`)
      ),
      { tools: [probe('lookup', true, log)] }
    )
    expect(result).toMatchObject({ status: 'completed', result: 'Got lookup:alpha-β', numTurns: 2, toolUses: 1 })
    expect(of(events, 'tool_start')).toEqual([expect.objectContaining({ toolUseId: 'toolu_a', name: 'lookup' })])
    const fragments = of(events, 'tool_input_delta').map((e) => e.partialJson)
    expect(fragments.length).toBeGreaterThan(5)
    expect(fragments.join('')).toBe('{"label":"alpha-β","ms":1}')
    expect(of(events, 'tool_run')).toEqual([expect.objectContaining({ toolUseId: 'toolu_a', input: { label: 'alpha-β', ms: 1 } })])
    expect(of(events, 'tool_update')).toEqual([expect.objectContaining({ toolUseId: 'toolu_a', details: { progress: 'done' } })])
    expect(of(events, 'tool_end')).toEqual([
      expect.objectContaining({ toolUseId: 'toolu_a', isError: false, output: 'lookup:alpha-β', details: { label: 'alpha-β' } })
    ])
    expect(requests[0].toolNames).toEqual(['lookup'])
    expect(requests[0].tools[0].input_schema).toMatchObject({ type: 'object', properties: { label: { type: 'string' } } })
    expect(requests[1].toolResults).toEqual([{ toolUseId: 'toolu_a', content: 'lookup:alpha-β', isError: false }])
  })

  it('runs consecutive concurrency-safe calls together, others alone, and answers in the order asked', async () => {
    const log: Parameters<typeof probe>[2] = []
    const call = (name: string, label: string, ms: number) => ({ name, input: { label, ms } })
    const { result, requests } = await run(
      scriptTurns(
        reply.toolUses([
          call('read', 'r1', 80),
          call('read', 'r2', 10),
          call('read', 'r3', 40),
          call('write', 'w1', 10),
          call('write', 'w2', 10),
          call('read', 'r4', 10)
        ]),
        reply.text('done')
      ),
      { tools: [probe('read', true, log), probe('write', false, log)] }
    )
    expect(result.status).toBe('completed')
    const at = (id: string) => log.find((l) => l.id === id)!
    // r1..r3 overlap: each started before the slowest (r1) ended
    expect(at('r2').start).toBeLessThan(at('r1').end)
    expect(at('r3').start).toBeLessThan(at('r1').end)
    // the writes wait for the reads before them, and for each other; r4 waits for the writes
    expect(at('w1').start).toBeGreaterThanOrEqual(at('r1').end)
    expect(at('w2').start).toBeGreaterThanOrEqual(at('w1').end)
    expect(at('r4').start).toBeGreaterThanOrEqual(at('w2').end)
    expect(requests[1].toolResults.map((r) => r.content)).toEqual(['read:r1', 'read:r2', 'read:r3', 'write:w1', 'write:w2', 'read:r4'])
  })

  it('starts calls as they stream when asked: only the first batch, the same order rules and cap, every result in the order asked', async () => {
    const log: Parameters<typeof probe>[2] = []
    const live = { now: 0, max: 0 }
    const call = (name: string, label: string, ms: number) => ({ name, input: { label, ms } })
    const offered: string[] = []
    const { result, events, requests } = await run(
      scriptTurns(
        reply.toolUses([call('read', 'r1', 60), call('read', 'r2', 60), call('read', 'r3', 10), call('write', 'w1', 10), call('read', 'r4', 10)]),
        reply.text('done')
      ),
      {
        tools: [probe('read', true, log, live), probe('write', false, log, live)],
        maxToolConcurrency: 2,
        startEarly: (c) => (offered.push((c.input as { label: string }).label), true)
      }
    )
    expect(result.status).toBe('completed')
    // r1 and r2 started before the reply was complete; r3 waited for the cap, w1 and what follows it for the reply's end.
    const replyAt = events.findIndex((e) => e.type === 'message' && e.message.role === 'assistant')
    const early = events.slice(0, replyAt).flatMap((e) => (e.type === 'tool_run' ? [(e.input as { label: string }).label] : []))
    expect(early).toEqual(['r1', 'r2'])
    expect(offered).toEqual(['r1', 'r2'])
    expect(live.max).toBe(2)
    const at = (id: string) => log.find((l) => l.id === id)!
    expect(at('w1').start).toBeGreaterThanOrEqual(Math.max(at('r1').end, at('r2').end, at('r3').end))
    expect(at('r4').start).toBeGreaterThanOrEqual(at('w1').end)
    expect(requests[1].toolResults.map((r) => r.content)).toEqual(['read:r1', 'read:r2', 'read:r3', 'write:w1', 'read:r4'])
    // The reply was recorded up to each call before it started; the reply itself follows whole.
    expect(of(events, 'reply_blocks').map((e) => e.blocks.length)).toEqual([1, 1])
  })

  it('holds back a call its caller says must wait for the reply’s end, and then runs it with the rest', async () => {
    const call = (label: string) => ({ name: 'read', input: { label, ms: 5 } })
    const { events, requests } = await run(scriptTurns(reply.toolUses([call('a'), call('b'), call('c')]), reply.text('done')), {
      tools: [probe('read', true, [])],
      startEarly: (c) => (c.input as { label: string }).label !== 'b'
    })
    const replyAt = events.findIndex((e) => e.type === 'message' && e.message.role === 'assistant')
    const runs = events.flatMap((e, i) => (e.type === 'tool_run' ? [[(e.input as { label: string }).label, i < replyAt]] : []))
    expect(Object.fromEntries(runs)).toEqual({ a: true, b: false, c: true })
    expect(requests[1].toolResults.map((r) => r.content)).toEqual(['read:a', 'read:b', 'read:c'])
  })

  it('caps concurrent safe calls when asked', async () => {
    const live = { now: 0, max: 0 }
    const calls = Array.from({ length: 6 }, (_, i) => ({ name: 'read', input: { label: `r${i}`, ms: 15 } }))
    const { requests } = await run(scriptTurns(reply.toolUses(calls), reply.text('done')), { tools: [probe('read', true, [], live)], maxToolConcurrency: 2 })
    expect(live.max).toBe(2)
    expect(requests[1].toolResults.map((r) => r.content)).toEqual(calls.map((c) => `read:${c.input.label}`))
  })

  it('refuses a tool the agent does not have, naming the ones it has, and carries on', async () => {
    const { result, events, requests } = await run(
      scriptTurns(
        reply.toolUses([
          { name: 'Bash', input: { command: 'rm -rf /' } },
          { name: 'read', input: { label: 'ok', ms: 1 } }
        ]),
        reply.text('fine')
      ),
      { tools: [probe('read', true, []), probe('write', false, [])] }
    )
    expect(result.status).toBe('completed')
    expect(requests[1].toolResults[0]).toEqual({
      toolUseId: expect.any(String),
      isError: true,
      content: 'No tool named "Bash" is available to this agent. The tools available to you are: read, write.'
    })
    expect(requests[1].toolResults[1]).toMatchObject({ content: 'read:ok', isError: false })
    expect(of(events, 'tool_end')[0]).toMatchObject({ name: 'Bash', isError: true })
  })

  it('answers unparseable or invalid input with an error the model can act on', async () => {
    const { result, requests } = await run(
      scriptTurns(
        reply.message(block.toolUseRaw('read', '{"label": "x", "ms": 1', 't_bad'), block.toolUse('read', { ms: 'slow' }, 't_invalid')),
        reply.text('retrying later')
      ),
      { tools: [probe('read', true, [])] }
    )
    expect(result.status).toBe('completed')
    const [bad, invalid] = requests[1].toolResults
    expect(bad.isError).toBe(true)
    expect(bad.content).toMatch(/^The input for read was not valid JSON \(.+\)\. Call read again with a JSON object as its input\.$/s)
    expect(invalid.isError).toBe(true)
    expect(invalid.content).toMatch(/Invalid input for read:\n- label: .*\n- ms: /)
  })

  it('asks beforeToolCall before running, and reports a denial to the model', async () => {
    const asked: unknown[] = []
    const { requests } = await run(
      scriptTurns(
        reply.toolUses([
          { name: 'write', input: { label: 'no', ms: 1 } },
          { name: 'write', input: { label: 'yes', ms: 1 } }
        ]),
        reply.text('ok')
      ),
      {
        tools: [probe('write', false, [])],
        beforeToolCall: async (tool, input: any) => {
          asked.push([tool.name, input.label])
          return input.label === 'no'
            ? { behavior: 'deny', message: 'The user denied write for "no".' }
            : { behavior: 'allow', updatedInput: { label: 'yes-edited', ms: 1 } }
        }
      }
    )
    expect(asked).toEqual([
      ['write', 'no'],
      ['write', 'yes']
    ])
    expect(requests[1].toolResults.map((r) => [r.content, r.isError])).toEqual([
      ['The user denied write for "no".', true],
      ['write:yes-edited', false]
    ])
  })

  it('stops at maxTurns, says so, and keeps the history valid', async () => {
    const { result, requests } = await run(
      scriptTurns(
        reply.toolUse('read', { label: 'a', ms: 1 }, { text: 'Looking at a.' }),
        reply.toolUse('read', { label: 'b', ms: 1 }, { text: 'Now b.' }),
        reply.text('never reached')
      ),
      { tools: [probe('read', true, [])], maxTurns: 2 }
    )
    expect(result.status).toBe('max_turns')
    expect(result.numTurns).toBe(2)
    expect(result.result).toBe('Now b.\n\n[Stopped after reaching the limit of 2 turns before finishing the task.]')
    expect(requests).toHaveLength(2)
    const last = result.messages[result.messages.length - 1]
    expect(last.role).toBe('user')
    expect(last.content).toEqual([{ type: 'tool_result', tool_use_id: expect.any(String), content: 'read:b' }])
  })

  it('re-injects the critical system reminder into every turn', async () => {
    const reminder = 'Never touch files outside src/.'
    const { requests, result } = await run(
      scriptTurns(reply.toolUse('read', { label: 'a', ms: 1 }), reply.toolUse('read', { label: 'b', ms: 1 }), reply.text('done')),
      { tools: [probe('read', true, [])], criticalSystemReminder: reminder }
    )
    expect(result.status).toBe('completed')
    expect(requests).toHaveLength(3)
    requests.forEach((req, i) => {
      const last = req.messages[req.messages.length - 1]
      expect(last.role).toBe('user')
      expect(last.content[last.content.length - 1].text).toBe(`<system-reminder>\n${reminder}\n</system-reminder>`)
      // one per turn so far: the history keeps earlier reminders, so the cached prefix never changes
      expect(JSON.stringify(req.messages).split(reminder).length - 1).toBe(i + 1)
    })
  })

  it('delivers inbox messages at the start of the next turn, and before finishing', async () => {
    const inbox: string[][] = [[], ['note from the lead: also check b'], ['one more thing']]
    const { requests, result } = await run(
      scriptTurns(reply.toolUse('read', { label: 'a', ms: 1 }), reply.text('checked b too'), reply.text('and the last thing')),
      {
        tools: [probe('read', true, [])],
        drainInbox: () => inbox.shift() ?? []
      }
    )
    expect(result).toMatchObject({ status: 'completed', result: 'and the last thing', numTurns: 3 })
    expect(requests[1].toolResults).toHaveLength(1)
    expect(requests[1].lastUserText).toBe('note from the lead: also check b')
    expect(requests[2].lastUserText).toBe('one more thing')
  })

  it('adds up usage over calls and reports each call', async () => {
    const usage = { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 50, cache_creation_input_tokens: 5 }
    const { result, events } = await run(scriptTurns(reply.toolUse('read', { label: 'a', ms: 1 }, { usage }), reply.text('done', { usage })), {
      tools: [probe('read', true, [])]
    })
    expect(of(events, 'usage')).toHaveLength(2)
    // One request per call, each before its reply.
    expect(events.map((e) => e.type).filter((t) => t === 'model_request' || t === 'usage')).toEqual(['model_request', 'usage', 'model_request', 'usage'])
    expect(of(events, 'usage')[0]).toMatchObject({
      model: 'claude-sonnet-5-5',
      usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 50, cacheWriteTokens: 5 }
    })
    expect(result.usage).toMatchObject({ inputTokens: 200, outputTokens: 20, cacheReadTokens: 100, cacheWriteTokens: 10 })
    expect(result.usage.costUsd).toBeCloseTo(2 * of(events, 'usage')[0].usage.costUsd, 12)
  })

  it('asks the model to continue when a reply is cut off by max_tokens', async () => {
    const { result, requests } = await run(scriptTurns(reply.text('The first half', { stopReason: 'max_tokens' }), reply.text('and the second half.')))
    expect(result).toMatchObject({ status: 'completed', result: 'and the second half.', numTurns: 2 })
    expect(requests[1].lastUserText).toMatch(/cut off because it hit the output token limit/)
  })

  it('passes model, system prompt, thinking, effort and max tokens through to the API', async () => {
    const { requests } = await run(scriptTurns(reply.text('ok')), {
      model: 'claude-opus-5-5',
      systemPrompt: [
        { type: 'text', text: 'Block one.' },
        { type: 'text', text: 'Block two.' }
      ],
      thinking: { type: 'enabled', budget_tokens: 2048 },
      effort: 'high',
      maxTokens: 4096
    })
    const body = requests[0].body
    expect(body).toMatchObject({
      model: 'claude-opus-5-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      output_config: { effort: 'high' },
      stream: true
    })
    expect(requests[0].system).toBe('Block one.\nBlock two.')
  })

  it('fails clearly without a prompt', async () => {
    const { result, requests } = await run(scriptTurns(reply.text('x')), { prompt: '  ' })
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/no prompt/)
    expect(requests).toHaveLength(0)
  })

  it('continues a resumed conversation from its history', async () => {
    const history = [
      { role: 'user' as const, content: 'First task' },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'First answer' }] }
    ]
    const { result, events, requests } = await run(scriptTurns(reply.text('unused'), reply.text('Second answer')), { messages: history, prompt: 'Follow-up' })
    expect(result.result).toBe('Second answer')
    expect(result.messages).toHaveLength(4)
    expect(requests[0].messages).toHaveLength(3)
    expect(of(events, 'message').map((e) => e.message.role)).toEqual(['user', 'assistant']) // history is not re-emitted
  })
})
