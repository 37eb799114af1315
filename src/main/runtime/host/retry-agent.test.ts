// The Retry action (`agent.retry`) on a failed main agent and a failed subagent: it runs again from its
// conversation as it stands (the failed request is sent again, not the task from scratch), and a subagent's
// new report reaches its parent. What is not failed, or unknown, is refused with a sentence.
import { expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { HostCallError } from '../../../shared/host-call-error'
import { reply, scriptByAgent } from '../model/scripted'
import { host, until } from '../../../../test/support/host'

const ends = (events: AgentEvent[], agentId: string) =>
  events.filter((e): e is Extract<AgentEvent, { type: 'agent_end' }> => e.type === 'agent_end' && e.agentId === agentId)

it('a main agent whose model call failed is retried from its conversation: the same request goes again, then it completes', async () => {
  let failing = true
  const { h, events, server, dirs } = await host((req) =>
    failing ? reply.badRequest('scripted: the API refused this once') : reply.text(`answered: ${req.lastUserText}`)
  )
  const { sessionId } = await h.handlers['session.start']({ prompt: 'Count the files.', cwd: dirs.cwd })
  const main = () => events.find((e) => e.type === 'agent_start' && e.parentAgentId === null)?.agentId ?? ''
  await until(() => ends(events, main()).length === 1, 'the main agent to fail')
  expect(ends(events, main())[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('the API refused this once') })
  const failedBody = server!.messageRequests()[0].body

  failing = false
  await h.handlers['agent.retry']({ sessionId, agentId: main() })
  await until(() => ends(events, main()).length === 2, 'the retried main agent to end')
  expect(ends(events, main())[1].status).toBe('completed')
  // Not a fresh start: the request sent again is the one that failed, message for message.
  const again = server!.messageRequests()[1]
  expect(again.body.messages).toEqual(failedBody.messages)
  expect(ends(events, main())[1].result).toBe('answered: Count the files.')

  // A completed agent has nothing to retry.
  const refused = await h.handlers['agent.retry']({ sessionId, agentId: main() }).catch((e) => e)
  expect(refused).toBeInstanceOf(HostCallError)
  expect(refused.message).toMatch(/has not failed \(it is completed\); only a failed agent can be retried/)
  const unknown = await h.handlers['agent.retry']({ sessionId, agentId: 'agent-nobody' }).catch((e) => e)
  expect(unknown.code).toBe('not_found')
})

it('a failed subagent is retried from its conversation and its new report reaches the main agent', async () => {
  let cut = true
  const { h, events, server, dirs } = await host(
    scriptByAgent([
      {
        name: 'sub',
        match: 'SUB TASK',
        turns: [reply.toolUse('Glob', { pattern: '*' })],
        then: () => (cut ? reply.cutByMaxTokens(reply.toolUse('Glob', { pattern: '**/*.md' })) : reply.text('sub found the files'))
      },
      {
        name: 'main',
        match: 'lead agent in Fanout',
        turns: [reply.toolUse('Agent', { description: 'Sub work', prompt: 'SUB TASK', subagent_type: 'general-purpose' })],
        then: (req) => reply.text(`main heard: ${req.lastUserText.includes('sub found the files') ? 'the report' : 'the failure'}`)
      }
    ])
  )
  const { sessionId } = await h.handlers['session.start']({ prompt: 'Go.', cwd: dirs.cwd })
  const sub = () => events.find((e) => e.type === 'agent_start' && e.parentAgentId !== null)?.agentId ?? ''
  await until(
    () => sub() !== '' && ends(events, sub()).length === 1 && events.some((e) => e.type === 'agent_end' && e.parentAgentId === null),
    'the subagent to fail and the main agent to answer'
  )
  expect(ends(events, sub())[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('in the middle of a call to Glob') })
  const before = server!.messageRequests().filter((r) => r.firstUserText.includes('SUB TASK'))
  expect(before).toHaveLength(2)

  cut = false
  await h.handlers['agent.retry']({ sessionId, agentId: sub() })
  await until(() => ends(events, sub()).length === 2, 'the retried subagent to end')
  expect(ends(events, sub())[1].status).toBe('completed')
  // Its first turn (the Glob that ran) is history, not done again: the retry sends the request that failed.
  const subRequests = server!.messageRequests().filter((r) => r.firstUserText.includes('SUB TASK'))
  expect(subRequests).toHaveLength(3)
  expect(subRequests[2].body.messages).toEqual(subRequests[1].body.messages)
  // The report wakes the main agent, which hears it.
  await until(
    () => events.some((e) => e.type === 'agent_end' && e.parentAgentId === null && e.result === 'main heard: the report'),
    'the main agent to hear the report'
  )
})

it('after a restart, a main agent whose last run failed can still be retried from its conversation', async () => {
  let failing = true
  const respond = (req: { lastUserText: string }) =>
    failing ? reply.badRequest('scripted: refused before the restart') : reply.text(`answered: ${req.lastUserText}`)
  const first = await host(respond)
  const { sessionId } = await first.h.handlers['session.start']({ prompt: 'Tidy the README.', cwd: first.dirs.cwd })
  await until(() => first.events.some((e) => e.type === 'agent_end' && e.parentAgentId === null), 'the main agent to fail')
  await first.h.close()

  failing = false
  const second = await host(respond, first.dirs)
  await second.h.handlers['sessions.open']({ sessionId })
  const mainId = first.events.find((e) => e.type === 'agent_start' && e.parentAgentId === null)!.agentId
  await second.h.handlers['agent.retry']({ sessionId, agentId: mainId })
  await until(() => ends(second.events, mainId).length === 1, 'the retried main agent to end')
  expect(ends(second.events, mainId)[0]).toMatchObject({ status: 'completed', result: 'answered: Tidy the README.' })
  // The request sent again after the restart is the one that failed before it.
  expect(second.server!.messageRequests()[0].body.messages).toEqual(first.server!.messageRequests()[0].body.messages)
})
