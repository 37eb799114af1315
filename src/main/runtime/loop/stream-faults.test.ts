// Stream faults as an agent meets them: a broken stream (malformed, out of order, truncated, reset, empty) is
// retried like a 5xx and what the aborted attempt streamed never shows as content; a tool call cut off by
// max_tokens is asked again once with the model's output limit, else the agent fails saying why.
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AgentEvent } from '../../../shared/events'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState } from '../../../shared/view/session-state'
import { byAttempt, reply, scriptTurns, startScriptedModel, type Respond, type ScriptedModel } from '../model/scripted'
import type { MessageReply } from '../model/scripted/types'
import { defineTool } from '../tools/define-tool'
import { runAgentLoop } from './agent-loop'
import type { AgentLoopOptions } from './types'

let model: ScriptedModel | undefined
afterEach(async () => {
  await model?.close()
  model = undefined
})

let runs = 0
const echo = defineTool({
  name: 'Echo',
  description: 'Echoes its text.',
  schema: z.object({ text: z.string() }),
  readOnly: true,
  async execute({ text }) {
    runs++
    return { content: `echo: ${text}` }
  }
})

async function run(respond: Respond, opts: Partial<AgentLoopOptions> = {}) {
  model = await startScriptedModel({ respond })
  const events: AgentEvent[] = []
  const result = await runAgentLoop(
    {
      agentId: 'main',
      parentAgentId: null,
      parentToolUseId: null,
      sessionId: 's',
      client: model.client,
      model: 'claude-haiku-5-5',
      systemPrompt: 'You are a test agent.',
      prompt: 'Go.',
      tools: [echo],
      cwd: '/tmp',
      ...opts
    },
    (e) => events.push(e)
  )
  return { result, events, requests: model.server.messageRequests() }
}

/** What the UI shows for the agent once every event is folded: its transcript items and tool cards. */
function shown(events: AgentEvent[]) {
  const s = applyEvents(emptyEventsState(), events).sessions.s
  const items = s.items.main ?? []
  return {
    texts: items.flatMap((i) => (i.kind === 'text' ? [i.text] : [])),
    tools: items.flatMap((i) => (i.kind === 'tool' ? [s.tools[i.toolUseId]] : [])),
    errors: items.flatMap((i) => (i.kind === 'error' ? [i.message] : []))
  }
}

const toolTurn = (): MessageReply =>
  reply.toolUse('Echo', { text: 'a long enough input to split into many deltas' }, { text: 'Calling Echo now.', textChunk: 4 })

describe('stream faults', () => {
  const faults: Array<[string, (r: MessageReply) => MessageReply, RegExp]> = [
    ['malformed data line', (r) => reply.malformedAfter(6, r), /malformed \(a data line is not JSON/],
    ['event out of order', (r) => reply.outOfOrderAfter(6, r), /malformed \(content_block_delta for content block 99/],
    ['truncated stream', (r) => reply.endAfter(6, r), /no message_stop event/],
    ['connection reset mid-block', (r) => reply.dropAfter(6, r), /connection dropped/],
    ['empty 200 stream', (r) => reply.emptyStream(r), /no events at all/]
  ]
  for (const [name, fault, why] of faults) {
    it(`${name}: retried like a 5xx, the tool runs once, the aborted attempt's deltas never show`, async () => {
      runs = 0
      const first = toolTurn()
      const { result, events, requests } = await run(scriptTurns(byAttempt(fault(first), first), reply.text('Done.')))
      expect(result.status).toBe('completed')
      expect(result.result).toBe('Done.')
      expect(runs).toBe(1)
      // Two attempts at the first turn (the same body), one at the second.
      expect(requests).toHaveLength(3)
      const retry = events.find((e) => e.type === 'error' && e.retrying)
      expect(retry && 'message' in retry ? retry.message : '').toMatch(why)
      // The conversation holds the call once, whole.
      const calls = result.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_use') : []))
      expect(calls).toHaveLength(1)
      // What the person sees: the text once, one tool card (done), no retry notice left once it answered.
      const view = shown(events)
      expect(view.texts).toEqual(['Calling Echo now.', 'Done.'])
      expect(view.tools.map((t) => t.status)).toEqual(['done'])
      expect(view.errors).toEqual([])
    })
  }
})

describe('max_tokens inside a tool call', () => {
  it('is asked again once with the model’s output limit, and the call runs once, whole', async () => {
    runs = 0
    const whole = reply.toolUse('Echo', { text: 'whole input' }, { text: 'Calling.' })
    const { result, events, requests } = await run(
      scriptTurns((req) => (req.maxTokens! < 128_000 ? reply.cutByMaxTokens(whole) : whole), reply.text('Done.')),
      { maxTokens: 1000 }
    )
    expect(result.status).toBe('completed')
    expect(runs).toBe(1)
    expect(requests.map((r) => r.maxTokens)).toEqual([1000, 128_000, 128_000])
    const retry = events.find((e) => e.type === 'error' && e.retrying)
    expect(retry && 'message' in retry ? retry.message : '').toBe(
      'The reply reached max_tokens (1,000) in the middle of a call to Echo. Asking again with max_tokens 128,000.'
    )
    expect(shown(events).texts).toEqual(['Calling.', 'Done.'])
  })

  it('fails the agent with the reason when the raised limit is cut too, or cannot be raised; the call never runs', async () => {
    runs = 0
    const whole = reply.toolUse('Echo', { text: 'whole input' }, { text: 'Calling.' })
    const again = await run(scriptTurns(() => reply.cutByMaxTokens(whole)))
    expect(again.requests.map((r) => r.maxTokens)).toEqual([32_000, 128_000])
    expect(again.result.status).toBe('failed')
    await model?.close()
    const { result, events, requests } = await run(
      scriptTurns(() => reply.cutByMaxTokens(whole)),
      { maxTokens: 128_000 }
    )
    expect(result.status).toBe('failed')
    expect(result.error).toBe(
      "The model's reply reached its output limit (max_tokens 128,000) in the middle of a call to Echo, so the call was not run: its input is incomplete."
    )
    expect(runs).toBe(0)
    expect(requests).toHaveLength(1)
    // The cut reply is not history: asking again (a retry) sends the same request, with no tool_use to answer.
    expect(result.messages.map((m) => m.role)).toEqual(['user'])
    expect(events.filter((e) => e.type === 'error' && !e.retrying)).toHaveLength(1)
  })

  it('a reply cut by max_tokens in its text (no tool call) still goes on as before', async () => {
    const { result, requests } = await run(scriptTurns(reply.cutByMaxTokens(reply.text('A long answer that was cut')), reply.text('…and its end.')))
    expect(result.status).toBe('completed')
    expect(requests).toHaveLength(2)
  })
})
