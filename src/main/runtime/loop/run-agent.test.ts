import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { reply, scriptByAgent, startScriptedModel, type ScriptedModel } from '../model/scripted'
import { agentEventStream } from './event-stream'
import { runAgent, type RunAgentOptions } from './run-agent'

let model: ScriptedModel | undefined
afterEach(async () => {
  await model?.close()
  model = undefined
})

const options = (m: ScriptedModel, extra: Partial<RunAgentOptions> = {}): RunAgentOptions => ({
  agentId: 'explore-1',
  parentAgentId: 'main',
  parentToolUseId: 'toolu_9',
  sessionId: 's',
  client: m.client,
  model: 'claude-haiku-5-5',
  systemPrompt: 'You are Explore.',
  prompt: 'Find the config loader\nand report where it is.',
  tools: [],
  cwd: '/repo',
  agentType: 'Explore',
  depth: 1,
  maxTurns: 5,
  ...extra
})

describe('runAgent', () => {
  it('wraps the loop in agent_start and agent_end', async () => {
    model = await startScriptedModel({
      respond: scriptByAgent([{ name: 'explore', match: 'You are Explore.', turns: [reply.text('It is in src/config.ts.')] }])
    })
    const events: AgentEvent[] = []
    const result = await runAgent(options(model, { color: 'blue', finalize: async () => ({ worktree: { path: '/wt', branch: 'b', kept: false } }) }), (e) =>
      events.push(e)
    )
    expect(events[0]).toMatchObject({
      type: 'agent_start',
      agentId: 'explore-1',
      parentAgentId: 'main',
      parentToolUseId: 'toolu_9',
      agentType: 'Explore',
      description: 'Find the config loader',
      prompt: 'Find the config loader\nand report where it is.',
      model: 'claude-haiku-5-5',
      cwd: '/repo',
      depth: 1,
      maxTurns: 5,
      color: 'blue',
      tools: []
    })
    expect(events.at(-1)).toMatchObject({
      type: 'agent_end',
      status: 'completed',
      result: 'It is in src/config.ts.',
      numTurns: 1,
      toolUses: 0,
      usage: result.usage,
      worktree: { path: '/wt', branch: 'b', kept: false }
    })
  })

  it('reports a failure in agent_end instead of throwing', async () => {
    model = await startScriptedModel({ respond: () => reply.badRequest('prompt is too long') })
    const events: AgentEvent[] = []
    const result = await runAgent(options(model), (e) => events.push(e))
    expect(result.status).toBe('failed')
    expect(events.at(-1)).toMatchObject({ type: 'agent_end', status: 'failed', error: 'Invalid request (400): prompt is too long' })
  })
})

describe('agentEventStream', () => {
  it('yields the same events as the push sink, then ends, with the result', async () => {
    model = await startScriptedModel({ respond: () => reply.text('streamed', { textChunk: 2 }) })
    const pushed: AgentEvent[] = []
    await runAgent(options(model), (e) => pushed.push(e))

    const stream = agentEventStream(options(model), runAgent)
    const pulled: AgentEvent[] = []
    for await (const e of stream) pulled.push(e)
    const shape = (es: AgentEvent[]) => es.map((e) => e.type + ('text' in e ? `:${e.text}` : ''))
    expect(shape(pulled)).toEqual(shape(pushed))
    expect(pulled.at(-1)).toMatchObject({ type: 'agent_end', result: 'streamed' })
    expect((await stream.result).result).toBe('streamed')
  })
})
