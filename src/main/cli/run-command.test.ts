// `fanout run` end to end: the real CLI process, the real SDK over HTTP to the scripted server, real files.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cliProject, ensureCliBundle, runCli } from '../../../test/support/cli'
import { byAttempt, reply, scriptByAgent, startScriptedServer, type ScriptedServer } from '../runtime/model/scripted'

let server: ScriptedServer | null = null
beforeAll(() => ensureCliBundle(), 60_000)
afterEach(async () => {
  await server?.close()
  server = null
})

const setup = () => cliProject('fanout-run-', { 'readme.txt': 'Project readme.\n' })

const fanOutScript = () =>
  scriptByAgent([
    { name: 'child', match: 'List the files', turns: [reply.toolUse('Glob', { pattern: '*' }), (req) => reply.text(`Files: ${req.toolResults[0].content.trim()}`)] },
    { name: 'main', match: 'lead agent in Fanout', turns: [reply.toolUse('Agent', { description: 'List files', prompt: 'List the files', subagent_type: 'Explore' }), reply.text('There is one readme.')] }
  ])

describe('fanout run', () => {
  it('prints one JSON result with the answer, usage and what the subagents did, and records transcripts', async () => {
    const { project, env, dataDir } = setup()
    server = await startScriptedServer({ respond: fanOutScript() })
    const r = await runCli(['run', '-p', 'What is in this project?', '--cwd', project, '--output-format', 'json'], { env: env(server.url) })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({
      result: 'There is one readme.',
      is_error: false,
      num_turns: 2,
      subagents: { spawned: 1, completed: 1, failed: 0, max_depth: 1, by_type: { Explore: 1 } }
    })
    expect(out.session_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(out.usage.outputTokens).toBeGreaterThan(0)
    // Each agent's own usage, cache reads and writes apart, and its cost; they add up to the run's.
    expect(out.agents).toHaveLength(2)
    expect(out.agents.map((a: any) => a.agent_type)).toContain('Explore')
    expect(out.usage.cacheWriteTokens).toBeGreaterThan(0)
    for (const a of out.agents) expect(a.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), cacheReadTokens: expect.any(Number), cacheWriteTokens: expect.any(Number), costUsd: a.cost_usd })
    expect(out.agents.reduce((n: number, a: any) => n + a.cost_usd, 0)).toBeCloseTo(out.total_cost_usd, 9)
    expect(out.agents.reduce((n: number, a: any) => n + a.usage.cacheWriteTokens, 0)).toBe(out.usage.cacheWriteTokens)
    expect(out.duration_ms).toBeGreaterThan(0)
    const agents = readdirSync(join(dataDir, 'sessions', out.session_id, 'agents')).filter((f) => f.endsWith('.jsonl'))
    expect(agents).toHaveLength(2)
  })

  it('stream-json prints every event as a JSON line, the subagent\'s included, then the result', async () => {
    const { project, env } = setup()
    server = await startScriptedServer({ respond: fanOutScript() })
    const r = await runCli(['run', '-p', 'What is here?', '--cwd', project, '--output-format', 'stream-json'], { env: env(server.url) })
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
    const types = lines.map((l) => l.type)
    expect(types[0]).toBe('agent_start')
    expect(types.at(-1)).toBe('result')
    const childStart = lines.find((l) => l.type === 'agent_start' && l.depth === 1)
    expect(childStart).toMatchObject({ agentType: 'Explore', description: 'List files' })
    expect(lines.some((l) => l.type === 'tool_end' && l.name === 'Glob' && l.agentId === childStart.agentId && l.output.includes('readme.txt'))).toBe(true)
  })

  it('says on stderr when it retries, so a slow or unreachable endpoint is not a silent wait', async () => {
    const { project, env } = setup()
    server = await startScriptedServer({ respond: scriptByAgent([{ name: 'main', match: 'lead agent in Fanout', turns: [byAttempt(reply.overloaded(), reply.text('Done.'))] }]) })
    const r = await runCli(['run', '-p', 'Go', '--cwd', project], { env: env(server.url) })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('Done.\n')
    expect(r.stderr).toMatch(/^fanout: Overloaded \(529\): .*Retrying in .* \(attempt 2 of 9\)\.\n$/)
  })

  it('text output prints the answer; a failing model gives a non-zero exit and says why', async () => {
    const { project, env } = setup()
    server = await startScriptedServer({ respond: () => reply.badRequest('prompt is too long: 300000 tokens > 200000 maximum') })
    const r = await runCli(['run', '-p', 'hi', '--cwd', project], { env: env(server.url) })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/failed: .*prompt is too long/)
  })

  it('reads the prompt from stdin, and refuses bad options with usage', async () => {
    const { project, env } = setup()
    server = await startScriptedServer({ respond: (req) => reply.text(`You said: ${req.firstUserText}`) })
    const ok = await runCli(['run', '--cwd', project], { env: env(server.url), input: 'piped prompt\n' })
    expect(ok.stdout.trim()).toBe('You said: piped prompt')
    const bad = await runCli(['run', '-p', 'x', '--output-format', 'xml'], { env: env(server.url) })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--output-format must be text, json or stream-json, not 'xml'/)
    const noKey = await runCli(['run', '-p', 'x', '--cwd', project], { env: { ...env(server.url), ANTHROPIC_API_KEY: '' } })
    expect(noKey.code).toBe(1)
    expect(noKey.stderr).toMatch(/No Anthropic credentials/)
  })

  it('headless: a tool that needs approval is denied with a reason, and nothing is written', async () => {
    const { project, env } = setup()
    server = await startScriptedServer({
      respond: scriptByAgent([
        { name: 'main', match: 'lead agent in Fanout', turns: [reply.toolUse('Write', { file_path: join(project, 'new.txt'), content: 'x' }), (req) => reply.text(`Tool said: ${req.toolResults[0].content}`)] }
      ])
    })
    const r = await runCli(['run', '-p', 'write a file', '--cwd', project], { env: env(server.url) })
    expect(existsSync(join(project, 'new.txt'))).toBe(false)
    expect(r.stdout).toMatch(/Tool said: .*(approval|headless)/i)
    const allowed = await runCli(['run', '-p', 'write a file', '--cwd', project, '--permission-mode', 'acceptEdits'], { env: env(server.url) })
    expect(allowed.code).toBe(0)
    expect(existsSync(join(project, 'new.txt'))).toBe(true)
  })

  it('--resume continues a recorded session: the main agent sees its earlier conversation', async () => {
    const { project, env } = setup()
    server = await startScriptedServer({ respond: (req) => reply.text(`answer ${req.messages.length}: ${req.lastUserText.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim()}`) })
    const first = await runCli(['run', '-p', 'first question', '--cwd', project, '--output-format', 'json'], { env: env(server.url) })
    const { session_id, result } = JSON.parse(first.stdout)
    expect(result).toBe('answer 1: first question')
    const second = await runCli(['run', '--resume', session_id, '-p', 'second question', '--output-format', 'json'], { env: env(server.url) })
    expect(second.stderr).toBe('')
    expect(JSON.parse(second.stdout)).toMatchObject({ session_id, result: 'answer 3: second question' })
    const missing = await runCli(['run', '--resume', 'no-such-session', '-p', 'x'], { env: env(server.url) })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/no-such-session/)
  })
})
