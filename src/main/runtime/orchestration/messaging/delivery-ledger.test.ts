// How a reopened session answers each tool call a crash cut off, from what the transcripts say of it: a
// permission the person refused stays refused, one never answered is asked again, a message already
// delivered is not sent again, a call that never started says so, one that was running may have partly run.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/events'
import { DeliveryLedger } from './delivery-ledger'
import { sendDeliveryId } from './send-message'

const base = { agentId: 'a', parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 1 }
const run = (toolUseId: string, name: string): AgentEvent => ({ ...base, type: 'tool_run', toolUseId, name, input: {} })
const ask = (toolUseId: string, requestId: string): AgentEvent => ({
  ...base,
  type: 'permission_request',
  requestId,
  toolName: 'Bash',
  input: {},
  reason: 'asks',
  requestingAgentId: 'a',
  toolUseId
})
const answer = (requestId: string, decision: 'allow' | 'deny', feedback?: string): AgentEvent => ({
  ...base,
  type: 'permission_response',
  requestId,
  decision,
  ...(feedback ? { feedback } : {})
})

describe('answers to the calls a crash cut off', () => {
  const events: AgentEvent[] = [
    ask('t-denied', 'r1'),
    answer('r1', 'deny'),
    ask('t-denied-said', 'r4'),
    answer('r4', 'deny', 'Use the Makefile'),
    ask('t-waiting', 'r2'),
    ask('t-allowed', 'r3'),
    answer('r3', 'allow'),
    run('t-running', 'Bash'),
    run('t-done', 'Read'),
    { ...base, type: 'tool_end', toolUseId: 't-done', name: 'Read', isError: false, output: 'file contents', durationMs: 1 },
    run('t-sent', 'SendMessage'),
    run('t-unsent', 'SendMessage')
  ]
  const receiver: AgentEvent[] = [{ ...base, agentId: 'b', type: 'message_received', from: 'a', text: 'hi', deliveryId: sendDeliveryId('t-sent') }]
  const answerOf = DeliveryLedger.fromTranscripts({ a: { events }, b: { events: receiver } }).interruptedResult(events)

  it('a refused permission stays refused; one never answered did not run and will be asked again', () => {
    expect(answerOf({ id: 't-denied', name: 'Bash' })).toEqual({
      isError: true,
      content: expect.stringMatching(/^The user denied permission to use Bash for this call \(before Fanout restarted\)\. Do not retry it as is/)
    })
    // The person's words with the denial are still said after the restart.
    expect(answerOf({ id: 't-denied-said', name: 'Bash' })?.content).toMatch(/\(before Fanout restarted\)\..*\nThe user said: Use the Makefile$/s)
    expect(answerOf({ id: 't-waiting', name: 'Bash' })).toEqual({
      isError: true,
      content: expect.stringMatching(/^Bash was waiting for the user's approval when Fanout stopped .* so it did not run\. .*the user will be asked again\.$/)
    })
  })

  it('an allowed call that had not started did not run; one that was running may have partly run', () => {
    expect(answerOf({ id: 't-allowed', name: 'Bash' })).toEqual({ isError: true, content: expect.stringMatching(/^Bash did not run: Fanout stopped/) })
    expect(answerOf({ id: 't-running', name: 'Bash' })).toEqual({
      isError: true,
      content: expect.stringMatching(/was running when Fanout stopped .* it may have done part of its work\. Check what it changed/)
    })
  })

  it('a call that finished keeps its own result; a message already received is not sent again', () => {
    expect(answerOf({ id: 't-done', name: 'Read' })).toEqual({ isError: false, content: 'file contents' })
    expect(answerOf({ id: 't-sent', name: 'SendMessage' })).toEqual({
      isError: false,
      content: expect.stringMatching(/^The message was delivered before Fanout stopped .* it was not sent again\.$/)
    })
    expect(answerOf({ id: 't-unsent', name: 'SendMessage' })).toMatchObject({ isError: true, content: expect.stringMatching(/may have done part of its work/) })
  })

  it('a report recorded in an agent_end and received by nobody is owed, once; one received is not', () => {
    const report = (deliveryId: string) => ({ deliveryId, to: 'a', text: `report ${deliveryId}` })
    const child = (id: string, deliveryId: string, seq: number): AgentEvent[] => [
      {
        ...base,
        agentId: id,
        parentAgentId: 'a',
        type: 'agent_start',
        agentType: 'general-purpose',
        description: 'd',
        prompt: 'p',
        model: 'm',
        cwd: '/',
        depth: 1,
        tools: [],
        seq
      },
      {
        ...base,
        agentId: id,
        parentAgentId: 'a',
        type: 'agent_end',
        status: 'completed',
        result: 'r',
        numTurns: 1,
        toolUses: 0,
        durationMs: 1,
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
        report: report(deliveryId),
        seq: seq + 1
      } as AgentEvent
    ]
    const parent: AgentEvent[] = [{ ...base, type: 'message_received', from: 'c1', text: 'report d1', deliveryId: 'd1' }]
    const ledger = DeliveryLedger.fromTranscripts({ a: { events: parent }, c1: { events: child('c1', 'd1', 10) }, c2: { events: child('c2', 'd2', 20) } })
    expect(ledger.owedReports.map((r) => [r.from, r.report.deliveryId])).toEqual([['c2', 'd2']])
  })
})
