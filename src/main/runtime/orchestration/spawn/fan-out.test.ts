// The subagent system end to end: the real SDK over HTTP to the scripted server, real tools on real files.
import { mkdirSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEndEvent, AgentEvent, AgentStartEvent } from '../../../../shared/events'
import { reply, scriptByAgent, startScriptedModel, type AgentScript, type ScriptedModel } from '../../model/scripted'
import { AgentSession } from '../session/session'
import type { AgentSessionOptions } from '../session/session-options'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'

let model: ScriptedModel | null = null
afterEach(async () => {
  await model?.close()
  model = null
})

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fanout-fanout-'))
  for (const area of ['alpha', 'beta', 'gamma']) {
    mkdirSync(join(dir, area))
    writeFileSync(join(dir, area, 'notes.txt'), `The ${area} module handles ${area} things.\n`)
  }
  return dir
}

/** `server`: the scripted server's options, or (most tests) just its agents' scripts. */
async function session(opts: Partial<AgentSessionOptions> & { cwd: string }, server: Parameters<typeof startScriptedModel>[0] | AgentScript[]) {
  model = await startScriptedModel(Array.isArray(server) ? { respond: scriptByAgent(server) } : server)
  const home = mkdtempSync(join(tmpdir(), 'fanout-home-'))
  const s = await AgentSession.create({ client: model.client, home, ripgrep: false, ...opts })
  const events: AgentEvent[] = []
  s.bus.subscribe((e) => events.push(e))
  return { s, events, server: model.server }
}

const starts = (events: AgentEvent[]) => events.filter((e): e is AgentStartEvent => e.type === 'agent_start')
const ends = (events: AgentEvent[]) => events.filter((e): e is AgentEndEvent => e.type === 'agent_end')

describe('fan-out', () => {
  it('runs three Explore agents in parallel; each Globs and Reads real files and its report reaches the parent in order', async () => {
    const cwd = project()
    const areas = ['alpha', 'beta', 'gamma']
    const { s, events, server } = await session(
      { cwd },
      {
        latencyMs: 15,
        respond: scriptByAgent([
          scriptedAgent('explorer', /Survey the (\w+) folder/, [
            (req) => reply.toolUse('Glob', { pattern: `${/Survey the (\w+)/.exec(req.firstUserText)![1]}/**/*.txt` }),
            (req) => reply.toolUse('Read', { file_path: req.toolResults[0].content.trim().split('\n')[0] }),
            (req) =>
              reply.text(
                `Report: ${req.toolResults[0].content
                  .split('\n')[0]
                  .replace(/^\s*\d+\s*/, '')
                  .trim()}`
              )
          ]),
          mainAgent([
            reply.toolUses(
              areas.map((a) => ({
                name: 'Agent',
                input: { description: `Survey ${a}`, prompt: `Survey the ${a} folder and report.`, subagent_type: 'Explore' }
              }))
            ),
            (req) => reply.text(`Summary:\n${req.toolResults.map((r) => r.content.split('\n')[0]).join('\n')}`)
          ])
        ])
      }
    )
    const result = await s.run('Look around the project.')
    expect(result.status).toBe('completed')
    expect(result.result).toBe(
      'Summary:\nReport: The alpha module handles alpha things.\nReport: The beta module handles beta things.\nReport: The gamma module handles gamma things.'
    )
    const children = starts(events).filter((e) => e.parentAgentId === s.mainAgentId)
    expect(children.map((c) => c.agentType)).toEqual(['Explore', 'Explore', 'Explore'])
    expect(children.every((c) => c.depth === 1)).toBe(true)
    // Parallel: all three started before the first of them ended.
    const firstChildEnd = events.findIndex((e) => e.type === 'agent_end' && e.parentAgentId === s.mainAgentId)
    expect(events.filter((e, i) => e.type === 'agent_start' && e.parentAgentId === s.mainAgentId && i < firstChildEnd)).toHaveLength(3)
    // Explore is read-only: no Edit/Write/Agent reached the model, and its prompt skips CLAUDE.md but has the environment.
    const exploreRequest = server.requests.find((r) => r.firstUserText.includes('Survey the alpha'))!
    expect(exploreRequest.toolNames).toEqual(expect.arrayContaining(['Glob', 'Grep', 'Read', 'Bash']))
    for (const t of ['Edit', 'Write', 'Agent', 'NotebookEdit']) expect(exploreRequest.toolNames).not.toContain(t)
    expect(exploreRequest.system).toContain(cwd)
    // The parent's Agent tool describes the available agents in Claude Code's listing format.
    const mainRequest = server.requests.find((r) => r.system.includes('lead agent in Fanout'))!
    const agentTool = mainRequest.tools.find((t) => t.name === 'Agent')!
    expect(agentTool.description).toMatch(/^- Explore: .*\(Tools: All tools except Agent, Edit, Write, NotebookEdit, ExitPlanMode\)$/m)
    // Tool results carry the id to continue the agent and its usage.
    const agentResult = events.find((e) => e.type === 'tool_end' && e.name === 'Agent')
    expect(agentResult && 'output' in agentResult ? agentResult.output : '').toMatch(
      /agentId: a[0-9a-f]{16}[\s\S]*<usage>tokens: \d+ in, \d+ out; tool_uses: \d+; duration_ms: \d+; cost_usd: [\d.]+<\/usage>/
    )
  })

  it('refuses a tool the definition does not grant, whatever the model asks, and the file stays untouched', async () => {
    const cwd = project()
    const { s, events } = await session({ cwd }, [
      {
        name: 'explorer',
        match: 'Sneaky task',
        turns: [reply.toolUse('Write', { file_path: join(cwd, 'pwned.txt'), content: 'x' }), reply.text('I could not write.')]
      },
      mainAgent([reply.toolUse('Agent', { description: 'Sneak', prompt: 'Sneaky task', subagent_type: 'Explore' }), reply.text('ok')])
    ])
    await s.run('go')
    expect(existsSync(join(cwd, 'pwned.txt'))).toBe(false)
    const refused = events.find((e) => e.type === 'tool_end' && e.name === 'Write')
    expect(refused).toMatchObject({ isError: true })
    expect(refused && 'output' in refused ? refused.output : '').toMatch(/Write/)
  })

  it('nests agents to the depth limit and keeps the Agent tool from the deepest level', async () => {
    const cwd = project()
    const { s, events, server } = await session({ cwd, limits: { maxDepth: 2 } }, [
      { name: 'grandchild', match: 'Level two task', turns: [reply.text('level two done')] },
      {
        name: 'child',
        match: 'Level one task',
        turns: [
          reply.toolUse('Agent', { description: 'Go deeper', prompt: 'Level two task' }),
          (req) => reply.text(`child got: ${req.toolResults[0].content.split('\n')[0]}`)
        ]
      },
      mainAgent([reply.toolUse('Agent', { description: 'Go down', prompt: 'Level one task' }), (req) => reply.text(req.toolResults[0].content.split('\n')[0])])
    ])
    const result = await s.run('go')
    expect(result.result).toBe('child got: level two done')
    const depths = starts(events).map((e) => [e.agentType, e.depth])
    expect(depths).toEqual([
      ['main', 0],
      ['general-purpose', 1],
      ['general-purpose', 2]
    ])
    const deepest = server.requests.find((r) => r.firstUserText.includes('Level two task'))!
    expect(deepest.toolNames).not.toContain('Agent')
    const middle = server.requests.find((r) => r.firstUserText.includes('Level one task'))!
    expect(middle.toolNames).toContain('Agent')
  })

  it('reports limits to the parent instead of spawning: unknown type, too many agents', async () => {
    const cwd = project()
    const { s, events } = await session({ cwd, limits: { maxAgentsPerSession: 1 } }, [
      { name: 'child', match: 'Small task', turns: [reply.text('small done')] },
      mainAgent([
        reply.toolUses([
          { name: 'Agent', input: { description: 'Bad type', prompt: 'x', subagent_type: 'no-such-agent' } },
          { name: 'Agent', input: { description: 'First', prompt: 'Small task' } }
        ]),
        reply.toolUse('Agent', { description: 'Second', prompt: 'Small task' }),
        reply.text('done')
      ])
    ])
    await s.run('go')
    const agentEnds = events
      .filter((e) => e.type === 'tool_end' && e.name === 'Agent')
      .map((e) => (e.type === 'tool_end' ? [e.isError, e.output.split('\n')[0]] : []))
    expect(agentEnds[0]).toEqual([true, expect.stringMatching(/There is no agent type 'no-such-agent'\. Available agent types: .*general-purpose/)])
    expect(agentEnds[1]).toEqual([false, 'small done'])
    expect(agentEnds[2]).toEqual([true, expect.stringMatching(/already created 1 subagents, the limit is 1/)])
  })

  it('never runs more subagents at once than the concurrency limit; the rest queue', async () => {
    const cwd = project()
    const { s, events } = await session(
      { cwd, limits: { maxConcurrent: 2 } },
      {
        latencyMs: 10,
        respond: scriptByAgent([
          { name: 'worker', match: /Task number \d/, turns: [reply.text('ok')] },
          mainAgent([
            reply.toolUses([1, 2, 3, 4, 5].map((n) => ({ name: 'Agent', input: { description: `Task ${n}`, prompt: `Task number ${n}` } }))),
            reply.text('all done')
          ])
        ])
      }
    )
    await s.run('go')
    let running = 0
    let peak = 0
    for (const e of events) {
      if (e.parentAgentId !== s.mainAgentId) continue
      if (e.type === 'agent_start') peak = Math.max(peak, ++running)
      if (e.type === 'agent_end') running--
    }
    expect(peak).toBe(2)
    expect(ends(events).filter((e) => e.parentAgentId === s.mainAgentId && e.status === 'completed')).toHaveLength(5)
    expect(events.some((e) => e.type === 'status' && e.status === 'queued')).toBe(true)
  })

  it('stops a subagent at its max_turns and says so in its result', async () => {
    const cwd = project()
    const { s, events } = await session({ cwd }, [
      {
        name: 'child',
        match: 'Long task',
        turns: [reply.toolUse('Glob', { pattern: '**/*' }), reply.toolUse('Glob', { pattern: '*' }), reply.text('never')]
      },
      mainAgent([reply.toolUse('Agent', { description: 'Long', prompt: 'Long task', max_turns: 1 }), reply.text('ok')])
    ])
    await s.run('go')
    const childEnd = ends(events).find((e) => e.parentAgentId === s.mainAgentId)!
    expect(childEnd.status).toBe('max_turns')
    const toolEnd = events.find((e) => e.type === 'tool_end' && e.name === 'Agent')
    expect(toolEnd && 'output' in toolEnd ? toolEnd.output : '').toMatch(/limit of 1 turns/)
  })

  it('stopping the main agent stops every running descendant', async () => {
    const cwd = project()
    const { s, events } = await session({ cwd }, [
      // Words: the session holds back an unfinished word (up to 512 characters, a key may be cut in two), so
      // one 2000-character word would reach the bus only after 10 s or more of streaming (30 s and more on a
      // loaded machine, past the test's timeout).
      { name: 'slow', match: /Slow task \d/, turns: [reply.shaped({ textChunk: 1, chunkDelayMs: 20 }, reply.text('slow '.repeat(400)))] },
      mainAgent([
        reply.toolUses([1, 2, 3].map((n) => ({ name: 'Agent', input: { description: `Slow ${n}`, prompt: `Slow task ${n}` } }))),
        reply.text('unreachable')
      ])
    ])
    const run = s.run('go')
    await new Promise<void>((resolve) => {
      const off = s.bus.subscribe((e) => {
        if (e.type === 'text_delta' && e.parentAgentId === s.mainAgentId) {
          off()
          resolve()
        }
      })
    })
    s.stop()
    const result = await run
    expect(result.status).toBe('stopped')
    const childEnds = ends(events).filter((e) => e.parentAgentId === s.mainAgentId)
    expect(childEnds).toHaveLength(3)
    expect(childEnds.every((e) => e.status === 'stopped')).toBe(true)
    expect(s.registry.all().every((a) => a.status === 'stopped')).toBe(true)
  })
})
