// `fanout run --coordinator`: the real CLI process runs the main agent as the coordinator — its own prompt,
// orchestration tools only, phase events in the stream — and `--teams` gives a plain main agent TeamCreate.
import { describe, expect, it } from 'vitest'
import { cliProject, runCli, useCliServers } from '../../../test/support/cli'
import { reply, scriptByAgent, type ScriptedServer } from '../runtime/model/scripted'

let server: ScriptedServer
const serve = useCliServers()

const setup = () => cliProject('fanout-coord-', { 'notes.txt': 'Notes.\n' })

describe('fanout run --coordinator', () => {
  it('streams phase events from a coordinator that has orchestration tools only', async () => {
    const { project, env } = setup()
    server = await serve({
      respond: scriptByAgent([
        {
          name: 'explorer',
          match: 'Find the notes',
          turns: [reply.toolUse('Glob', { pattern: '*.txt' }), (req) => reply.text(`Found ${req.toolResults[0].content.trim()}`)]
        },
        {
          name: 'coordinator',
          match: 'You are the coordinator of a crew',
          turns: [
            reply.toolUses([
              { name: 'SetPhase', input: { phase: 'research', note: 'find the notes' } },
              { name: 'Agent', input: { description: 'Find notes', prompt: 'Find the notes file.', subagent_type: 'Explore' } }
            ]),
            reply.toolUse('SetPhase', { phase: 'synthesis' }),
            (req) => reply.text(`Nothing to change. ${req.messages.length} messages so far.`)
          ]
        }
      ])
    })
    const r = await runCli(['run', '-p', 'Where are the notes?', '--cwd', project, '--coordinator', '--output-format', 'events'], { env: env(server.url) })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'phase').map((l) => [l.phase, l.note ?? null])).toEqual([
      ['research', 'find the notes'],
      ['synthesis', null]
    ])
    const main = lines.find((l) => l.type === 'agent_start' && l.depth === 0)
    expect(main.agentType).toBe('coordinator')
    expect(main.tools).toContain('SetPhase')
    for (const t of ['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep']) expect(main.tools).not.toContain(t)
    expect(lines.at(-1)).toMatchObject({ type: 'result', is_error: false, subagent_stats: { spawned: 1, by_type: { Explore: 1 } } })
    // The coordinator made three model calls over the run (Claude Code's num_turns counts them all).
    expect(lines.at(-1).num_turns).toBe(3)
  })

  it('--teams gives the plain main agent the team tools; without it there are none', async () => {
    const { project, env } = setup()
    server = await serve({ respond: scriptByAgent([{ name: 'main', match: 'lead agent in Fanout', turns: [reply.text('ok')] }]) })
    const tools = async (extra: string[]) => {
      const r = await runCli(['run', '-p', 'hi', '--cwd', project, '--output-format', 'stream-json', ...extra], { env: env(server!.url) })
      expect(r.code).toBe(0)
      const init = JSON.parse(r.stdout.split('\n')[0])
      expect(init).toMatchObject({ type: 'system', subtype: 'init' })
      return init.tools as string[]
    }
    expect(await tools(['--teams'])).toEqual(expect.arrayContaining(['Read', 'Agent', 'TeamCreate', 'TaskList', 'TaskCreate', 'RequestShutdown']))
    expect(await tools([])).not.toContain('TeamCreate')
  })

  it('refuses a value after --coordinator with a usage error', async () => {
    const r = await runCli(['run', '-p', 'x', '--coordinator=yes'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/--coordinator/)
  })
})
