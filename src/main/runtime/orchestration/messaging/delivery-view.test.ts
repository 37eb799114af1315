// The envelopes delivery.ts and the team manager write for the model, read back by the UI's parser
// (src/shared/view/inbox-message.ts): what the screen shows keeps the words and drops every tag, id,
// worktree path and usage line. Written against the real formatters, so a change to them fails here.
import { describe, expect, it } from 'vitest'
import { emptyUsage } from '../../../../shared/usage'
import { inboxPreview, parseInbox } from '../../../../shared/view/inbox-message'
import type { AgentHandle } from '../runs/agent-registry'
import { formatAgentMessage, formatTaskNotification } from './delivery'
import type { ChildResult } from '../types'

const handle = { id: 'ab6a51d09fd4663bd', agentType: 'general-purpose', name: 'ada', description: 'ada · team lexer-crew' } as AgentHandle
const result = (over: Partial<ChildResult> = {}): ChildResult => ({
  status: 'completed',
  result: 'Nothing left for me: every task is claimed or completed.\n\nSecond paragraph.',
  numTurns: 5,
  toolUses: 4,
  usage: { ...emptyUsage(), inputTokens: 4981, outputTokens: 206, costUsd: 0.018033 },
  durationMs: 9282,
  messages: [],
  model: 'claude-sonnet-5-5',
  stopReason: 'end_turn',
  worktree: { path: '/tmp/x/.fanout-worktrees/tiny-parser/ab6a51d09fd4663bd', branch: 'fanout/ab6a51d09fd4663bd', kept: true, commit: '36b9ac68b359aa' },
  ...over
})

const PROTOCOL =
  /<\/?(task-notification|task-id|agent-type|usage|result|agent-message|team-request|team-response)|agentId:|cost_usd|worktree:|ab6a51d09fd4663bd/

describe('delivered envelopes as the UI shows them', () => {
  it('a task notification is its agent, how it ended and its own words only', () => {
    const m = parseInbox(formatTaskNotification(handle, result()), handle.id)
    expect(m).toEqual({
      type: 'report',
      agentId: handle.id,
      agentType: 'general-purpose',
      name: 'ada',
      status: 'completed',
      text: 'Nothing left for me: every task is claimed or completed.\n\nSecond paragraph.'
    })
    expect(inboxPreview(m)).not.toMatch(PROTOCOL)
    expect(inboxPreview(m)).toBe('Finished — Nothing left for me: every task is claimed or completed.')
  })

  it('failed, stopped and forwarded reports keep their status and note, never the metadata', () => {
    const failed = parseInbox(
      formatTaskNotification(handle, { ...result({ status: 'failed', error: 'Overloaded' }), worktree: { path: '/tmp/wt', branch: 'fanout/x', kept: false } }),
      handle.id
    )
    expect(failed).toMatchObject({ type: 'report', status: 'failed' })
    expect(failed.type === 'report' && failed.text).toMatch(/^The general-purpose agent failed: Overloaded/)
    expect(inboxPreview(failed)).not.toMatch(PROTOCOL)
    const forwarded = parseInbox(formatTaskNotification({ ...handle, name: undefined } as AgentHandle, result({ status: 'stopped' }), 'gone-agent'), handle.id)
    expect(forwarded).toMatchObject({ type: 'report', status: 'stopped', note: expect.stringContaining('no longer running') })
    expect(forwarded).not.toHaveProperty('name')
  })

  it('a message from the person is just its text; from an agent, its sender, summary and text', () => {
    expect(parseInbox(formatAgentMessage('user', 'Please continue.'), 'user')).toEqual({ type: 'person', text: 'Please continue.' })
    expect(parseInbox(formatAgentMessage('ada "the <lexer>" & co', 'Line\nand column.', 'positions'), 'w1')).toEqual({
      type: 'agent',
      fromName: 'ada "the <lexer>" & co',
      summary: 'positions',
      text: 'Line\nand column.'
    })
  })

  it('team requests and answers read as what they ask or say', () => {
    const request =
      '<team-request id="plan-1a2b3c" type="plan_approval" from="ada">\n1. Track columns\n</team-request>\nRead the plan and answer with RespondToRequest (request_id: "plan-1a2b3c", approve: true or false, and a response if you have one).'
    expect(parseInbox(formatAgentMessage('ada', request, 'plan for approval plan-1a2b3c'), 'w1')).toMatchObject({
      type: 'agent',
      text: 'Plan for approval: 1. Track columns'
    })
    const answer = '<team-response request="shutdown-1" type="shutdown" approved="true" from="bo">\nbye\n</team-response>\nbo agreed to shut down.'
    expect(parseInbox(formatAgentMessage('bo', answer), 'w2')).toMatchObject({ type: 'agent', text: 'Agreed to shut down: bye' })
  })
})
