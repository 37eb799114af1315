// Forks: a subagent that starts from its parent's conversation, by `subagent_type: "fork"` or a definition
// with `forkContext: true`.
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ChatMessage, ToolEndEvent } from '../../../../shared/events'
import { reply } from '../../model/scripted'
import { readTranscript, rebuildConversation, transcriptPath } from '../../store'
import { forkMessages } from './fork'
import { closeFixtures, makeFixture, starts } from '../testing/session-fixture'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const toolEnds = (events: AgentEvent[], name: string) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)

describe('forkMessages', () => {
  it('keeps the parent thread up to the spawning turn, answers every call of that turn, then enters the sub-agent context', () => {
    const parent: ChatMessage[] = [
      { role: 'user', content: 'Plan the release.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'CHANGELOG.md' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '## 1.2.0' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Splitting the work.' },
          { type: 'tool_use', id: 't2', name: 'Agent', input: { subagent_type: 'fork', prompt: 'Draft notes' } },
          { type: 'tool_use', id: 't3', name: 'Agent', input: { subagent_type: 'fork', prompt: 'Check CI' } }
        ]
      }
    ]
    const { history, prompt } = forkMessages(parent, 't3', 'Check CI')
    expect(history).toEqual(parent)
    expect(prompt[0]).toEqual({ type: 'tool_result', tool_use_id: 't2', content: expect.stringContaining('not by you') })
    expect(prompt[1]).toEqual({ type: 'tool_result', tool_use_id: 't3', content: expect.stringContaining('This call started you') })
    expect(prompt[2]).toEqual({
      type: 'text',
      text: expect.stringMatching(/^Context: The 4 messages above are from the parent thread[\s\S]*Entered sub-agent context\.[\s\S]*Your task:\nCheck CI$/)
    })
  })
})

describe('fork', () => {
  it('subagent_type "fork" copies the caller: its conversation, system prompt, model and tools, but refuses the Agent tool', async () => {
    const f = await makeFixture(
      [
        scriptedAgent('fork', (req) => JSON.stringify(req.messages).includes('Entered sub-agent context'), [
          // req.turn counts the inherited assistant turns too: the fork's first own call is turn 2.
          reply.text('unused'),
          reply.text('unused'),
          reply.toolUse('Agent', { description: 'Nested', prompt: 'x' }),
          (req) => reply.text(`Refused as expected: ${req.toolResults[0].content.split('.')[0]}`)
        ]),
        mainAgent([
          reply.toolUse('Read', { file_path: 'plan.md' }),
          reply.toolUse('Agent', { description: 'Side quest', prompt: 'Check the plan for typos.', subagent_type: 'fork' }),
          (req) => reply.text(req.toolResults[0].content.split('\n')[0])
        ])
      ],
      { files: { 'plan.md': 'Step one: ship it.\n' } }
    )
    const result = await f.session.run('Review the plan.')
    expect(result.result).toBe("Refused as expected: A forked agent cannot use Agent: it is in your tool list only so that your prompt matches your parent's")
    const requests = f.model.server.messageRequests()
    const mainReq = requests.find((r) => r.system.includes('lead agent in Fanout') && r.turn === 1)!
    const forkReq = requests.find((r) => r.lastUserText.includes('Entered sub-agent context'))!
    expect(forkReq.system).toBe(mainReq.system)
    expect(forkReq.model).toBe(mainReq.model)
    // The very tools of its parent, so that its prompt begins as the parent's did (and reads its cache).
    expect(forkReq.body.tools).toEqual(mainReq.body.tools)
    // The fork sees what the parent read, then its entry message.
    expect(forkReq.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    expect(JSON.stringify(forkReq.messages[2])).toContain('Step one: ship it.')
    expect(forkReq.lastUserText).toMatch(/^Context: The 4 messages above are from the parent thread/)
    expect(forkReq.toolResults).toEqual([expect.objectContaining({ content: expect.stringContaining('This call started you'), isError: false })])
    const fork = starts(f.events).find((e) => e.agentType === 'fork')!
    expect(fork.depth).toBe(1)
    expect(fork.tools).not.toContain('Agent')
    // Its transcript holds the inherited thread, so it could be resumed after a restart with full context.
    await f.session.flush()
    const transcript = await readTranscript(transcriptPath(f.dataDir, f.session.sessionId, fork.agentId))
    const rebuilt = rebuildConversation(transcript.events)
    expect(JSON.stringify(rebuilt[2])).toContain('Step one: ship it.')
    expect(rebuilt.length).toBeGreaterThanOrEqual(5)
  })

  it('a forkContext definition sees the parent thread, runs on the parent model, with its own prompt', async () => {
    const f = await makeFixture(
      [
        scriptedAgent('reviewer', 'You are the context reviewer', [
          reply.text('unused'),
          (req) =>
            reply.text(JSON.stringify(req.messages).includes('The launch code is 7-7-3') ? 'I can see the code from the parent thread.' : 'I see nothing')
        ]),
        mainAgent([
          reply.toolUse('Agent', { description: 'Review', prompt: 'Review what we discussed.', subagent_type: 'ctx-reviewer' }),
          (req) => reply.text(req.toolResults[0].content.split('\n')[0])
        ])
      ],
      {
        model: 'haiku',
        files: {
          '.claude/agents/ctx-reviewer.md':
            '---\nname: ctx-reviewer\ndescription: Reviews with the parent context\nforkContext: true\nmodel: opus\ntools: Read\n---\nYou are the context reviewer.'
        }
      }
    )
    const result = await f.session.run('The launch code is 7-7-3. Have it reviewed.')
    expect(result.result).toBe('I can see the code from the parent thread.')
    const req = f.model.server.messageRequests().find((r) => r.system.includes('You are the context reviewer'))!
    expect(req.model).toBe('claude-haiku-5-5')
    expect(req.toolNames).toEqual(['Read'])
    expect(toolEnds(f.events, 'Agent')[0].isError).toBe(false)
  })
})
