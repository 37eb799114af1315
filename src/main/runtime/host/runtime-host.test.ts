// The host the UI drives, over the real runtime: sessions with subagents, permission requests answered
// from the UI, settings and the write-only key, reopening after a restart, and the scripted demo.
import { cpSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { folders, host, mainEnded, until } from '../../../../test/support/host'
import type { PermissionRequestEvent } from '../../../shared/events'
import { reply, scriptByAgent, type Respond } from '../model/scripted'
import { markWriterDead } from '../store/test-fixtures'

describe('LocalRuntimeHost', () => {
  it('runs a session with a subagent, streams its events, lists it and replays it in time order', async () => {
    const { h, events, notices, dirs } = await host(
      scriptByAgent([
        { name: 'child', match: 'Read the main file', turns: [reply.toolUse('Read', { file_path: 'src/main.ts' }), reply.text('It exports answer = 42.')] },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('Agent', { description: 'Read main', prompt: 'Read the main file', subagent_type: 'Explore' }), reply.text('The answer is 42.')]
        }
      ])
    )
    const { sessionId } = await h.handlers['session.start']({ prompt: 'What does main.ts export?', cwd: dirs.cwd })
    await until(() => mainEnded(events, sessionId), 'the main agent to finish')
    const child = events.find((e) => e.type === 'agent_start' && e.depth === 1)
    expect(child).toMatchObject({ agentType: 'Explore', description: 'Read main' })
    expect(notices.some((n) => n.type === 'session_updated' && n.session.sessionId === sessionId)).toBe(true)

    const { sessions } = await h.handlers['sessions.list']({})
    expect(sessions[0]).toMatchObject({ sessionId, title: 'What does main.ts export?', agentCount: 2, status: 'completed' })
    // Replayed as the page shows it: the events of both transcripts folded in time order.
    const { view, olderItems, more } = await h.handlers['sessions.open']({ sessionId })
    expect(view.agentOrder).toEqual([view.rootAgentId, child!.agentId])
    expect(view.agents[child!.agentId]).toMatchObject({ parentId: view.rootAgentId, status: 'completed' })
    const mainTexts = view.items[view.rootAgentId!].flatMap((i) => (i.kind === 'text' ? [i.text] : []))
    expect(mainTexts.at(-1)).toBe('The answer is 42.')
    expect(view.tools[child!.parentToolUseId!]).toMatchObject({ name: 'Agent', status: 'done', childAgentId: child!.agentId })
    expect([olderItems, more]).toEqual([{}, null]) // a short session comes whole
    await expect(h.handlers['sessions.open']({ sessionId: 'no-such-session' })).rejects.toMatchObject({ code: 'not_found' })
  })

  it("effort per session: the new-session form's choice, else the defaultEffort setting, else the model's own", async () => {
    const { h, events, dirs, server } = await host(scriptByAgent([{ name: 'main', match: 'lead agent in Fanout', turns: [reply.text('ok')] }]))
    const effortOf = async (start: Parameters<(typeof h.handlers)['session.start']>[0]) => {
      const before = server!.messageRequests().length
      const { sessionId } = await h.handlers['session.start'](start)
      await until(() => mainEnded(events, sessionId), 'the main agent to finish')
      return server!.messageRequests()[before].body.output_config
    }
    expect(await effortOf({ prompt: 'a', cwd: dirs.cwd })).toEqual({ effort: 'medium' })
    expect(await effortOf({ prompt: 'b', cwd: dirs.cwd, effort: 'xhigh' })).toEqual({ effort: 'xhigh' })
    const { settings } = await h.handlers['settings.update']({ defaultEffort: 'low' })
    expect(settings.defaultEffort).toBe('low')
    expect(await effortOf({ prompt: 'c', cwd: dirs.cwd })).toEqual({ effort: 'low' })
    expect(await effortOf({ prompt: 'd', cwd: dirs.cwd, effort: 'high' })).toEqual({ effort: 'high' })
    expect((await h.handlers['settings.update']({ defaultEffort: null })).settings.defaultEffort).toBeNull()
  })

  it('asks the UI before writing a file, and writes it only once allowed', async () => {
    const { h, events, dirs } = await host(
      scriptByAgent([
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('Write', { file_path: 'notes.txt', content: 'hello' }), (req) => reply.text(`Write said: ${req.toolResults[0].content}`)]
        }
      ])
    )
    const { sessionId } = await h.handlers['session.start']({ prompt: 'Write notes.txt', cwd: dirs.cwd })
    await until(() => events.some((e) => e.type === 'permission_request'), 'a permission request')
    const request = events.find((e): e is PermissionRequestEvent => e.type === 'permission_request')!
    expect(request).toMatchObject({ toolName: 'Write', sessionId })
    expect(existsSync(join(dirs.cwd, 'notes.txt'))).toBe(false)
    await h.handlers['permission.respond']({ requestId: request.requestId, decision: 'allow' })
    await until(() => mainEnded(events, sessionId), 'the main agent to finish')
    expect(readFileSync(join(dirs.cwd, 'notes.txt'), 'utf8')).toBe('hello')
    await expect(h.handlers['permission.respond']({ requestId: request.requestId, decision: 'allow' })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('keeps the key write-only: settings say whether there is one, never what it is', async () => {
    const { h } = await host(null)
    expect((await h.handlers['settings.get']({})).settings).toMatchObject({ hasApiKey: false, apiKeySource: 'none', defaultModel: 'sonnet' })
    const after = await h.handlers['settings.setApiKey']({ apiKey: 'sk-ant-secret-123' })
    expect(after.settings).toMatchObject({ hasApiKey: true, apiKeySource: 'stored' })
    expect(JSON.stringify(after)).not.toContain('secret')
    const updated = await h.handlers['settings.update']({ limits: { maxConcurrentAgents: 4, maxBudgetUsd: 2.5 }, modelAliases: { sonnet: 'gateway/sonnet' } })
    expect(updated.settings.limits).toMatchObject({ maxConcurrentAgents: 4, maxBudgetUsd: 2.5 })
    expect(updated.settings.modelAliases.sonnet).toBe('gateway/sonnet')
  })

  it('says plainly when there is no key to start a real session', async () => {
    const { h, dirs } = await host(null)
    await expect(h.handlers['session.start']({ prompt: 'hi', cwd: dirs.cwd })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/no Anthropic API key yet. Add one in Settings/)
    })
  })

  it('reopens a session after a restart and continues the main agent with its history', async () => {
    const dirs = folders()
    const respond: Respond = (req) =>
      reply.text(req.turn === 0 && req.messages.length === 1 ? 'first answer' : `second answer, after ${req.messages.length} messages`)
    const first = await host(respond, dirs)
    const { sessionId } = await first.h.handlers['session.start']({ prompt: 'first question', cwd: dirs.cwd })
    await until(() => mainEnded(first.events, sessionId), 'the first run')
    await first.h.close()

    const second = await host(respond, dirs)
    expect((await second.h.handlers['sessions.list']({})).sessions.map((s) => s.sessionId)).toContain(sessionId)
    await second.h.handlers['session.sendPrompt']({ sessionId, prompt: 'second question' })
    await until(() => mainEnded(second.events, sessionId), 'the second run')
    const end = second.events.find((e) => e.type === 'agent_end' && e.parentAgentId === null)
    expect(end && 'result' in end ? end.result : '').toBe('second answer, after 3 messages')
  })

  it('reopens a session a crash cut off as interrupted, and resumes its agents when asked, once', async () => {
    const dirs = folders()
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const respond = scriptByAgent([
      {
        name: 'child',
        match: 'Map the callers',
        turns: [
          async () => {
            await held // the first process never hears back
            return reply.text('unused')
          },
          reply.text('Mapped after the restart.')
        ]
      },
      {
        name: 'main',
        match: 'lead agent in Fanout',
        turns: [reply.toolUse('Agent', { description: 'Map callers', prompt: 'Map the callers' })],
        then: reply.text('Done, with the map.')
      }
    ])
    const first = await host(respond, dirs)
    const { sessionId } = await first.h.handlers['session.start']({ prompt: 'Map the parser callers', cwd: dirs.cwd })
    await until(() => first.events.some((e) => e.type === 'turn_start' && e.parentAgentId !== null), 'the subagent to start')
    await first.h.handlers['sessions.open']({ sessionId }) // flushes what it wrote
    // The crash: a copy of its data whose writer is gone.
    const crashed = { ...dirs, dataDir: join(dirs.tmp, 'crashed') }
    cpSync(dirs.dataDir, crashed.dataDir, { recursive: true })
    await markWriterDead(crashed.dataDir, sessionId)
    release()

    const second = await host(respond, crashed)
    expect((await second.h.handlers['sessions.list']({})).sessions[0]).toMatchObject({ sessionId, status: 'interrupted', agentCount: 2 })
    const { view } = await second.h.handlers['sessions.open']({ sessionId })
    expect(Object.values(view.agents).map((a) => a.status)).toEqual(['interrupted', 'interrupted'])
    // Nothing runs, so Stop has nothing to stop, and says so in words.
    await expect(second.h.handlers['agent.stop']({ sessionId, agentId: view.rootAgentId! })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('nothing to stop here')
    })
    const report = await second.h.handlers['session.resumeInterrupted']({ sessionId })
    expect(report.problems).toEqual([])
    expect(report.resumed).toHaveLength(2)
    // The subagent finishes and reports; the main agent, woken by the report, finishes last.
    const ended = () => second.events.filter((e) => e.type === 'agent_end')
    await until(() => ended().some((e) => e.parentAgentId !== null) && ended().at(-1)!.parentAgentId === null, 'the resumed agents to finish')
    expect(ended().map((e) => (e.type === 'agent_end' ? e.status : ''))).toEqual(ended().map(() => 'completed'))
    const after = await second.h.handlers['sessions.open']({ sessionId })
    expect(Object.values(after.view.agents).map((a) => a.status)).toEqual(['completed', 'completed'])
    expect(after.session).toMatchObject({ status: 'completed', agentCount: 2 }) // as the listing counted them before
    await expect(second.h.handlers['session.resumeInterrupted']({ sessionId })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('runs the scripted demo over the folder with real tools, four agents side by side', async () => {
    const dirs = folders()
    const { h, events } = await host(null, dirs)
    const { sessionId } = await h.handlers['demo.start']({ cwd: dirs.cwd })
    // The size check asks for approval like any command that is not read-only.
    await until(() => events.some((e) => e.type === 'permission_request'), 'the demo permission request', 30_000)
    const request = events.find((e): e is PermissionRequestEvent => e.type === 'permission_request')!
    expect(request.toolName).toBe('Bash')
    await h.handlers['permission.respond']({ requestId: request.requestId, decision: 'allow' })
    await until(() => mainEnded(events, sessionId), 'the demo to finish', 60_000)
    const children = events.filter((e) => e.type === 'agent_start' && e.depth === 1)
    expect(children).toHaveLength(4)
    const end = events.find((e) => e.type === 'agent_end' && e.parentAgentId === null)
    const summary = end && 'result' in end ? end.result : ''
    expect(summary).toContain('Here is the tour')
    expect(summary).toContain(
      '**Survey the source code:** 1 source file. The newest source file that is not a test, `src/main.ts`, starts with `export const answer = 42`.'
    )
    expect(summary).toMatch(/\*\*Measure the folder:\*\* the folder has \d+ entries at the top level \(hidden ones aside\) and takes \S+ on disk; Node v\d+/)
    const title = 'Scripted demo: Give me a tour of this folder: what is in it, how it is organised, and anything notable.'
    expect((await h.handlers['sessions.list']({})).sessions.find((s) => s.sessionId === sessionId)).toMatchObject({ demo: true, title })

    // A follow-up gets the scripted demo's answer; the session does not fail.
    const answered = (n: number) => events.filter((e) => e.type === 'agent_end' && e.sessionId === sessionId && e.parentAgentId === null).length >= n
    await h.handlers['session.sendPrompt']({ sessionId, prompt: 'Now list the biggest files' })
    await until(() => answered(2), 'the answer to the follow-up')
    const last = events.filter((e) => e.type === 'agent_end' && e.parentAgentId === null).at(-1)!
    expect(last).toMatchObject({ status: 'completed', result: expect.stringContaining('You asked: “Now list the biggest files”.') })
    // The demo's own words are not taken for its key: nothing of them is redacted.
    expect(last).toMatchObject({ result: expect.stringContaining('This session is a **scripted demo**') })
    expect(JSON.stringify(events)).not.toContain('[REDACTED]')

    // After a restart the demo reopens under the same title, and a follow-up still gets the demo's answer.
    await h.close()
    const again = await host(null, dirs)
    expect((await again.h.handlers['sessions.list']({})).sessions.find((s) => s.sessionId === sessionId)).toMatchObject({ demo: true, title })
    const reopened = await again.h.handlers['sessions.open']({ sessionId })
    expect(reopened.session.title).toBe(title)
    // Its panels come back in the order the agents started in live.
    const liveOrder = [...new Set(events.filter((e) => e.type === 'agent_start' && e.sessionId === sessionId).map((e) => e.agentId))]
    expect(reopened.view.agentOrder).toEqual(liveOrder)
    await again.h.handlers['session.sendPrompt']({ sessionId, prompt: 'And the tests?' })
    await until(() => again.events.some((e) => e.type === 'agent_end' && e.parentAgentId === null), 'the answer after the restart')
    expect(again.events.find((e) => e.type === 'agent_end' && e.parentAgentId === null)).toMatchObject({
      status: 'completed',
      result: expect.stringContaining('You asked: “And the tests?”.')
    })
    expect((await again.h.handlers['sessions.list']({})).sessions.find((s) => s.sessionId === sessionId)).toMatchObject({ demo: true, title })
  }, 90_000)
})
