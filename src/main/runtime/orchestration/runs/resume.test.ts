// Resume end to end: in the same process (the Agent tool's `resume`), and after a restart from the
// transcripts and state.json files a session with a dataDir writes (AgentSession.open, resumeInterrupted).
import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ToolEndEvent } from '../../../../shared/events'
import { reply, scriptByAgent } from '../../model/scripted'
import { listAgentStates, openSession, readAgentState, readSessionIndex, transcriptPath } from '../../store'
import { foldSession } from '../../store/session-fold'
import { RESUME_AFTER_RESTART_NOTE } from './resume'
import { closeFixtures, ends, latch, makeFixture, starts, waitForEvent } from '../testing/session-fixture'
import { heldUntil, mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const agentEnds = (events: AgentEvent[]) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === 'Agent')
const idIn = (text: string) => /agentId: (a[0-9a-f]{16})/.exec(text)?.[1] ?? ''

describe('resume', () => {
  it('continues an agent with its full history through the Agent tool, and records transcripts and state.json', async () => {
    const f = await makeFixture(
      [
        scriptedAgent('reader', 'Read the secret file', [
          reply.toolUse('Read', { file_path: 'secret.txt' }),
          (req) => reply.text(`I read it: ${req.toolResults[0].content.replace(/^\s*\d+\s*/, '').trim()}`),
          (req) => {
            // The resumed run sees everything from its first run: prompt, tool call, result and answer.
            const texts = JSON.stringify(req.messages)
            return reply.text(texts.includes('swordfish') && req.lastUserText === 'Spell it backwards.' ? 'hsifdrows' : 'I do not remember')
          }
        ]),
        mainAgent([
          reply.toolUse('Agent', { description: 'Read secret', prompt: 'Read the secret file and tell me what it says.', name: 'reader' }),
          (req) => reply.toolUse('Agent', { description: 'Spell backwards', prompt: 'Spell it backwards.', resume: idIn(req.toolResults[0].content) }),
          (req) => reply.text(`Backwards: ${req.toolResults[0].content.split('\n')[0]}`)
        ])
      ],
      { files: { 'secret.txt': 'swordfish\n' }, dataDir: undefined }
    )
    const { session: s, events: events } = await f.newSession()
    const result = await s.run('What is the secret?')
    expect(result.result).toBe('Backwards: hsifdrows')
    const [first, second] = agentEnds(events)
    const id = idIn(first.output)
    expect(idIn(second.output)).toBe(id)
    expect(events.filter((e) => e.type === 'agent_start' && e.agentId === id)).toHaveLength(2)
    // The second run's request carried the first run's history, then the new prompt.
    const resumed = f.model.server.messageRequests().filter((r) => r.firstUserText.includes('Read the secret file'))
    expect(resumed[2].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    expect(JSON.stringify(resumed[2].messages[3])).toContain('I read it: swordfish')

    await s.flush()
    const state = await readAgentState(f.dataDir, s.sessionId, id)
    expect(state).toMatchObject({
      agentId: id,
      agentType: 'general-purpose',
      definition: { name: 'general-purpose', source: 'built-in' },
      status: 'completed',
      turnCount: 3,
      stoppedByUser: false,
      name: 'reader',
      parentAgentId: s.mainAgentId
    })
    expect(existsSync(transcriptPath(f.dataDir, s.sessionId, id))).toBe(true)
    const index = await readSessionIndex(f.dataDir, s.sessionId)
    expect(index?.agents[id]).toMatchObject({ runs: 2, status: 'completed' })
  })

  it('refuses to resume an agent that is still running, or one that does not exist', async () => {
    const hold = latch()
    const f = await makeFixture([
      scriptedAgent('slow', 'Slow background task', [heldUntil(hold, reply.text('slow done'))]),
      mainAgent([
        reply.toolUse('Agent', { description: 'Slow', prompt: 'Slow background task', run_in_background: true }),
        (req) =>
          reply.toolUses([
            { name: 'Agent', input: { description: 'Again', prompt: 'more', resume: JSON.parse(req.toolResults[0].content.split('\n')[0]).agentId } },
            { name: 'Agent', input: { description: 'Ghost', prompt: 'more', resume: 'a0000000000000000' } }
          ]),
        () => {
          hold.open()
          return reply.text('ok')
        },
        reply.text('report read')
      ])
    ])
    await f.session.run('go')
    await f.session.idle()
    const [, running, ghost] = agentEnds(f.events)
    expect(running.isError).toBe(true)
    expect(running.output).toMatch(/is still running\. Send it more instructions with SendMessage/)
    expect(ghost.output).toBe("There is no agent 'a0000000000000000' in this session to resume. Start a new agent with the whole task in its prompt.")
  })

  it('reopens a session after a restart: the main agent continues its conversation, and an earlier subagent resumes from disk', async () => {
    const script = scriptByAgent([
      scriptedAgent('scout', 'Find the colour', [
        reply.text('The colour is teal.'),
        (req) => reply.text(JSON.stringify(req.messages).includes('teal') ? 'Still teal, from memory.' : 'no memory')
      ]),
      mainAgent([
        reply.toolUse('Agent', { description: 'Find colour', prompt: 'Find the colour.', name: 'scout' }),
        reply.text('Noted: teal.'),
        (req) =>
          reply.toolUse('Agent', {
            description: 'Ask scout again',
            prompt: 'Is it still the same colour?',
            resume: req.firstUserText.includes('Remember the colour') ? 'scout' : 'nobody'
          }),
        (req) => reply.text(`After the restart: ${req.toolResults[0].content.split('\n')[0]}`)
      ])
    ])
    const f = await makeFixture({ respond: script })
    const { session: s1 } = await f.newSession()
    await s1.run('Remember the colour the scout finds.')
    await s1.idle()
    await s1.close()

    const { session: s2 } = await f.openSession(s1.sessionId)
    expect(s2.cwd).toBe(f.cwd)
    expect(s2.mainAgentId).toBe(s1.mainAgentId)
    const result = await s2.run('Ask the scout again.')
    // The main agent's request after the restart starts with its whole earlier conversation.
    const mainRequests = f.model.server.messageRequests().filter((r) => r.system.includes('lead agent in Fanout'))
    expect(JSON.stringify(mainRequests[2].messages[0])).toContain('Remember the colour the scout finds.')
    expect(mainRequests[2].messages).toHaveLength(5)
    // `resume: 'scout'` found the subagent by name on disk and ran it with its history.
    expect(result.result).toBe('After the restart: Still teal, from memory.')
    await s2.flush()
    const { states } = await listAgentStates(f.dataDir, s1.sessionId)
    expect(states.find((st) => st.name === 'scout')).toMatchObject({ status: 'completed', turnCount: 2 })
  })

  it('resumeInterrupted restarts what a crash cut off (main and subagent), never an agent the person stopped', async () => {
    // The restart note and A's report may reach the main agent in one message or in two runs.
    const mainAfterRestart = (req: { lastUserText: string }) =>
      reply.text(
        req.lastUserText.includes('A finished after the restart.')
          ? 'main got A'
          : req.lastUserText.includes(RESUME_AFTER_RESTART_NOTE)
            ? 'main resumed'
            : 'unexpected'
      )
    const hold = latch()
    const f = await makeFixture([
      scriptedAgent('builder', 'Build step A', [
        reply.toolUse('Glob', { pattern: '*' }, { text: 'Starting A.' }),
        async (req) => {
          if (req.lastUserText.includes(RESUME_AFTER_RESTART_NOTE)) return reply.text('A finished after the restart.')
          await hold.wait
          return reply.text('A finished before the crash (must not happen)')
        }
      ]),
      scriptedAgent('stopped-one', 'Build step B', [heldUntil(hold, reply.text('B never answers'))]),
      mainAgent([
        reply.toolUses([
          { name: 'Agent', input: { description: 'Step A', prompt: 'Build step A' } },
          { name: 'Agent', input: { description: 'Step B', prompt: 'Build step B' } }
        ]),
        mainAfterRestart,
        mainAfterRestart
      ])
    ])
    const { session: s1, events: events1 } = await f.newSession()
    void s1.run('Build both steps.')
    // A is mid-task (its second model call hangs); the person stops B.
    await waitForEvent(s1, events1, (e) => e.type === 'tool_end' && e.name === 'Glob')
    const a = s1.registry.all().find((h) => h.description === 'Step A')!
    const b = s1.registry.all().find((h) => h.description === 'Step B')!
    s1.stop(b.id)
    await waitForEvent(s1, events1, (e) => e.type === 'agent_end' && e.agentId === b.id)
    // The crash: what is on disk now is all a restart gets, and the process that wrote it is gone.
    const crashed = await f.crashCopy(s1)

    const { session: s2, events: events2 } = await f.openSession(s1.sessionId, crashed)
    // Reopened, nothing claims to run: the agents the crash cut off are interrupted, the one stopped stays stopped.
    expect(s2.mainHandle().status).toBe('interrupted')
    expect((await s2.findAgent(a.id))?.status).toBe('interrupted')
    expect((await s2.findAgent(b.id))?.status).toBe('stopped')
    await s2.flush()
    const reopened = await openSession(crashed, s1.sessionId)
    expect(reopened.index.agents[a.id].status).toBe('interrupted')
    expect(reopened.index.status).toBe('interrupted')
    const report = await s2.resumeInterrupted()
    expect(report.problems).toEqual([])
    expect(report.resumed.sort()).toEqual([a.id, s1.mainAgentId].sort())
    await s2.idle()
    expect(events2.some((e) => e.agentId === b.id)).toBe(false)
    expect(s2.lastResult?.result).toBe('main got A')
    // A continued its own conversation: its interrupted call was answered, then the restart note.
    const aResumed = f.model.server
      .messageRequests()
      .filter((r) => r.firstUserText.includes('Build step A') && r.lastUserText.includes(RESUME_AFTER_RESTART_NOTE))
    expect(aResumed).toHaveLength(1)
    expect(JSON.stringify(aResumed[0].messages)).toContain('Starting A.')
    // The main agent's unanswered Agent calls are answered with what is known: A was cut off and goes on in
    // the background (its report follows), B ended before the crash (its report is the answer).
    const mainResumed = f.model.server
      .messageRequests()
      .find((r) => r.system.includes('lead agent in Fanout') && r.lastUserText.includes(RESUME_AFTER_RESTART_NOTE))!
    const results = mainResumed.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b: { type: string }) => b.type === 'tool_result')
    expect(results.map((r: { content: string }) => r.content)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^The general-purpose agent ${a.id} that this call started was cut off when Fanout stopped .*its report reaches you as a <task-notification>`
        )
      ),
      expect.stringMatching(new RegExp(`^The general-purpose agent was stopped before it finished\\.\n\nagentId: ${b.id}`))
    ])
    expect(mainResumed.lastUserText).toContain(a.id)
    await s2.flush()
    expect(await readAgentState(crashed, s1.sessionId, b.id)).toMatchObject({ status: 'stopped', stoppedByUser: true })
    expect(await readAgentState(crashed, s1.sessionId, a.id)).toMatchObject({ status: 'completed' })
    expect(ends(events2).find((e) => e.agentId === a.id)?.status).toBe('completed')
    expect(starts(events2).filter((e) => e.agentId === s1.mainAgentId).length).toBeGreaterThanOrEqual(1)
    // The resumed agent is the same agent on the same task: its run starts under its own description,
    // and every view of the session (the fold, the index) keeps the names, the main agent's too.
    expect(starts(events2).find((e) => e.agentId === a.id)?.description).toBe('Step A')
    await s2.flush()
    const after = await openSession(crashed, s1.sessionId)
    expect(after.index.agents[a.id].description).toBe('Step A')
    expect(after.index.agents[s1.mainAgentId].description).toBe('Build both steps.')
    const view = foldSession(after)
    expect(view.agents[a.id].description).toBe('Step A')
    expect(view.agents[b.id].description).toBe('Step B')
    expect(view.agents[s1.mainAgentId].description).toBe('Build both steps.')
    expect(
      Object.values(view.agents)
        .map((x) => x.description)
        .join('\n')
    ).not.toContain('Fanout stopped')
    hold.open()
  })
})
