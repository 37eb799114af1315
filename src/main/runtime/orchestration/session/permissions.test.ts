// Permission requests through a session: events answered by respondPermission, modes inherited by
// subagents, settings rules (deny always inherited), bubble mode, headless runs and background agents.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, PermissionRequestEvent, ToolEndEvent } from '../../../../shared/events'
import { reply, scriptByAgent } from '../../model/scripted'
import { closeFixtures, makeFixture, starts, waitForEvent } from '../testing/session-fixture'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const toolEnds = (events: AgentEvent[], name: string) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)
const requests = (events: AgentEvent[]) => events.filter((e): e is PermissionRequestEvent => e.type === 'permission_request')

describe('permissions', () => {
  it('asks through permission_request events; allow runs the call, deny refuses it, allow_always stops asking', async () => {
    const f = await makeFixture({
      respond: scriptByAgent({
        'lead agent in Fanout': [
          reply.toolUse('Bash', { command: 'touch first.txt' }),
          reply.toolUse('Bash', { command: 'touch second.txt' }),
          reply.toolUse('Bash', { command: 'mkdir -p logs' }),
          reply.toolUse('Bash', { command: 'mkdir -p logs/more' }),
          reply.text('done')
        ]
      })
    })
    const { session: s, events } = f
    const answers = ['allow', 'deny', 'allow_always'] as const
    let asked = 0
    s.bus.subscribe((e) => {
      if (e.type === 'permission_request') queueMicrotask(() => s.respondPermission(e.requestId, answers[asked++]))
    })
    await s.run('Make some files.')
    expect(existsSync(join(f.cwd, 'first.txt'))).toBe(true)
    expect(existsSync(join(f.cwd, 'second.txt'))).toBe(false)
    expect(existsSync(join(f.cwd, 'logs', 'more'))).toBe(true)
    // Three requests: the fourth call was covered by the rule "allow always" added.
    const asks = requests(events)
    expect(asks.map((r) => [r.toolName, r.agentId, r.requestingAgentId])).toEqual([
      ['Bash', s.mainAgentId, s.mainAgentId],
      ['Bash', s.mainAgentId, s.mainAgentId],
      ['Bash', s.mainAgentId, s.mainAgentId]
    ])
    expect(asks[0]).toMatchObject({ input: { command: 'touch first.txt' }, reason: 'Bash wants to run: touch first.txt', toolUseId: expect.any(String) })
    expect(toolEnds(events, 'Bash')[1].output).toMatch(/The user denied permission to use Bash/)
    // The agent shows as waiting while a request is open, then running again.
    const statuses = events.filter((e) => e.type === 'status' && e.agentId === s.mainAgentId).map((e) => (e.type === 'status' ? e.status : ''))
    expect(statuses.slice(0, 2)).toEqual(['waiting_permission', 'running'])
    expect(events.filter((e) => e.type === 'permission_response').map((e) => (e.type === 'permission_response' ? e.decision : ''))).toEqual([
      'allow',
      'deny',
      'allow_always'
    ])
    expect(s.pendingPermissions()).toEqual([])
    expect(() => s.respondPermission('perm-unknown', 'allow')).toThrow('No permission request perm-unknown is waiting')
  })

  it('"Always allow" names its rule and answers the waiting requests the rule covers, not the others', async () => {
    const worker = (n: number, command: string) => ({ name: `w${n}`, match: `Task ${n}.`, turns: [reply.toolUse('Bash', { command }), reply.text('ran')] })
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          worker(1, 'npm test'),
          worker(2, 'npm test -- --grep lexer'),
          worker(3, 'rm -f build.log'),
          mainAgent([
            reply.toolUses([1, 2, 3].map((n) => ({ name: 'Agent', input: { description: `Task ${n}`, prompt: `Task ${n}.`, subagent_type: 'worker' } }))),
            reply.text('done')
          ])
        ])
      },
      { files: { '.claude/agents/worker.md': '---\nname: worker\ndescription: Runs commands\ntools: Bash\n---\nYou run what you are asked.' } }
    )
    const { session: s, events } = f
    const run = s.run('Run the three tasks.')
    while (s.pendingPermissions().length < 3) await new Promise((r) => setTimeout(r, 10))
    const pending = s.pendingPermissions()
    const byCommand = (c: string) => pending.find((p) => (p.input as { command: string }).command === c)!
    expect(byCommand('npm test').suggestedRules).toEqual(['Bash(npm test:*)'])
    expect(byCommand('rm -f build.log').suggestedRules).toEqual(['Bash(rm -f build.log)']) // rm is never widened to a prefix

    s.respondPermission(byCommand('npm test').requestId, 'allow_always')
    // The second npm test is allowed by the new rule at once; rm still waits for its own answer.
    expect(s.pendingPermissions().map((p) => (p.input as { command: string }).command)).toEqual(['rm -f build.log'])
    const answered = events.filter((e) => e.type === 'permission_response').map((e) => (e.type === 'permission_response' ? [e.requestId, e.decision] : []))
    expect(answered).toEqual([
      [byCommand('npm test').requestId, 'allow_always'],
      [byCommand('npm test -- --grep lexer').requestId, 'allow']
    ])
    s.respondPermission(byCommand('rm -f build.log').requestId, 'deny')
    await run
    expect(toolEnds(events, 'Bash').filter((e) => /denied/.test(e.output))).toHaveLength(1)
  })

  it('subagents inherit a permissive parent mode, and settings deny rules hold for every agent, even in bypassPermissions', async () => {
    const f = await makeFixture(
      [
        scriptedAgent('child', 'Tidy up', [
          reply.toolUses([
            { name: 'Write', input: { file_path: 'notes.md', content: 'tidy' } },
            { name: 'Bash', input: { command: 'rm -f keep.txt' } }
          ]),
          reply.text('tidied')
        ]),
        mainAgent([reply.toolUse('Agent', { description: 'Tidy', prompt: 'Tidy up.', subagent_type: 'planner' }), reply.text('ok')])
      ],
      {
        permissionMode: 'bypassPermissions',
        files: {
          'keep.txt': 'precious',
          '.claude/settings.json': JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }),
          '.claude/agents/planner.md': '---\nname: planner\ndescription: Plans\npermissionMode: plan\n---\nYou plan.'
        }
      }
    )
    await f.session.run('go')
    const child = f.session.registry.all().find((h) => h.agentType === 'planner')!
    expect(child.permissionMode).toBe('bypassPermissions')
    expect(existsSync(join(f.cwd, 'notes.md'))).toBe(true)
    expect(existsSync(join(f.cwd, 'keep.txt'))).toBe(true)
    expect(toolEnds(f.events, 'Bash')[0].output).toMatch(/denied by the rule "Bash\(rm:\*\)" in project settings/)
    expect(requests(f.events)).toEqual([])
  })

  it('bubble: a subagent asks on its parent, where the person is watching', async () => {
    const f = await makeFixture(
      [
        {
          name: 'child',
          match: 'Create the marker',
          turns: [reply.toolUse('Bash', { command: 'touch marker.txt' }), (req) => reply.text(req.toolResults[0].isError ? 'was denied' : 'made it')]
        },
        mainAgent([
          reply.toolUse('Agent', { description: 'Marker', prompt: 'Create the marker.', subagent_type: 'bubbler' }),
          (req) => reply.text(req.toolResults[0].content.split('\n')[0])
        ])
      ],
      { files: { '.claude/agents/bubbler.md': '---\nname: bubbler\ndescription: Asks upward\npermissionMode: bubble\n---\nYou bubble.' } }
    )
    const { session: s, events } = f
    const run = s.run('go')
    const ask = await waitForEvent<PermissionRequestEvent>(s, events, (e) => e.type === 'permission_request')
    const child = starts(events).find((e) => e.agentType === 'bubbler')!
    expect(ask).toMatchObject({ agentId: s.mainAgentId, requestingAgentId: child.agentId, toolName: 'Bash' })
    expect(s.registry.get(child.agentId)?.status).toBe('waiting_permission')
    expect(s.pendingPermissions().map((p) => p.requestId)).toEqual([ask.requestId])
    s.respondPermission(ask.requestId, 'deny')
    expect((await run).result).toBe('was denied')
    expect(existsSync(join(f.cwd, 'marker.txt'))).toBe(false)
  })

  it('headless sessions and background agents never ask: the call is denied with a reason that says how to allow it', async () => {
    const script = scriptByAgent([
      { name: 'bg', match: 'Background chore', turns: [reply.toolUse('Bash', { command: 'touch bg.txt' }), (req) => reply.text(req.toolResults[0].content)] },
      mainAgent([
        reply.toolUse('Agent', { description: 'Chore', prompt: 'Background chore', run_in_background: true }),
        reply.text('launched'),
        reply.text('heard back')
      ])
    ])
    const f = await makeFixture({ respond: script })
    await f.session.run('go')
    await f.session.idle()
    expect(requests(f.events)).toEqual([])
    expect(existsSync(join(f.cwd, 'bg.txt'))).toBe(false)
    const bgEnd = f.events.find((e) => e.type === 'agent_end' && e.agentId !== f.session.mainAgentId)
    expect(bgEnd && bgEnd.type === 'agent_end' ? bgEnd.result : '').toMatch(/^Bash needs approval and this run is headless, so it was denied/)

    const denied: Array<[string, string]> = []
    const h = await makeFixture(
      { respond: scriptByAgent({ 'lead agent in Fanout': [reply.toolUse('Bash', { command: 'touch x.txt' }), reply.text('ok')] }) },
      { headless: true, onPermissionDenied: (_message, tool, agentId) => denied.push([tool, agentId]) }
    )
    await h.session.run('go')
    expect(denied).toEqual([['Bash', h.session.mainAgentId]])
    expect(requests(h.events)).toEqual([])
    expect(toolEnds(h.events, 'Bash')[0].output).toMatch(/headless, so it was denied \(Bash wants to run: touch x\.txt\)\. Allow it with --permission-mode/)
  })

  it('stopping an agent that waits for approval ends the request', async () => {
    const f = await makeFixture({
      respond: scriptByAgent({ 'lead agent in Fanout': [reply.toolUse('Bash', { command: 'touch y.txt' }), reply.text('never')] })
    })
    const run = f.session.run('go')
    const ask = await waitForEvent<PermissionRequestEvent>(f.session, f.events, (e) => e.type === 'permission_request')
    f.session.stop()
    expect((await run).status).toBe('stopped')
    expect(f.session.pendingPermissions()).toEqual([])
    expect(f.events.find((e) => e.type === 'permission_response')).toMatchObject({
      requestId: ask.requestId,
      decision: 'deny',
      reason: 'the agent was stopped'
    })
    expect(() => f.session.respondPermission(ask.requestId, 'allow')).toThrow(/answered already, or its agent stopped/)
  })
})
