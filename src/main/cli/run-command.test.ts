// `fanout run` end to end: the real CLI process, the real SDK over HTTP to the scripted server, real files.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { cliProject, repoRoot, runCli, useCliServers } from '../../../test/support/cli'
import { byAttempt, reply, scriptByAgent, scriptLead, type ScriptedServer } from '../runtime/model/scripted'

let server: ScriptedServer
const serve = useCliServers()

const setup = () => cliProject('fanout-run-', { 'readme.txt': 'Project readme.\n' })

const fanOutScript = () =>
  scriptByAgent([
    {
      name: 'child',
      match: 'List the files',
      turns: [reply.toolUse('Glob', { pattern: '*' }), (req) => reply.text(`Files: ${req.toolResults[0].content.trim()}`)]
    },
    {
      name: 'main',
      match: 'lead agent in Fanout',
      turns: [reply.toolUse('Agent', { description: 'List files', prompt: 'List the files', subagent_type: 'Explore' }), reply.text('There is one readme.')]
    }
  ])

describe('fanout run', () => {
  it("prints one JSON result in Claude Code's schema, with what the subagents did, and records transcripts", async () => {
    const { project, env, dataDir } = setup()
    server = await serve({ respond: fanOutScript() })
    const r = await runCli(['run', '-p', 'What is in this project?', '--cwd', project, '--output-format', 'json'], { env: env(server.url) })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({
      type: 'result',
      subtype: 'success',
      result: 'There is one readme.',
      is_error: false,
      num_turns: 2,
      stop_reason: 'end_turn',
      terminal_reason: 'completed',
      permission_denials: [],
      status: 'completed',
      subagent_stats: { spawned: 1, completed: 1, failed: 0, max_depth: 1, by_type: { Explore: 1 }, requested: { foreground: 1, background: 0 } }
    })
    expect(out.session_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(Object.keys(out.usage)).toEqual(expect.arrayContaining(['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens']))
    expect(out.usage.output_tokens).toBeGreaterThan(0)
    const models = Object.values(out.modelUsage) as Array<{ outputTokens: number; costUSD: number }>
    expect(models.reduce((n, m) => n + m.outputTokens, 0)).toBeGreaterThan(out.usage.output_tokens)
    // total_cost_usd is rounded to the millionth: up to half of one off the sum, which toBeCloseTo(…, 6) does not allow.
    expect(out.total_cost_usd).toBeCloseTo(
      models.reduce((n, m) => n + m.costUSD, 0),
      5
    )
    // Each agent's own usage, cache reads and writes apart, and its cost; they add up to the run's.
    expect(out.agents).toHaveLength(2)
    expect(out.agents.map((a: any) => a.agent_type)).toContain('Explore')
    for (const a of out.agents)
      expect(a.usage).toEqual({
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        cache_read_input_tokens: expect.any(Number),
        cache_creation_input_tokens: expect.any(Number)
      })
    // The total is rounded to the micro-dollar (as Claude Code prints it), each agent's cost to the nano-dollar.
    expect(Math.abs(out.agents.reduce((n: number, a: any) => n + a.cost_usd, 0) - out.total_cost_usd)).toBeLessThanOrEqual(0.5e-6 + 1e-9)
    const written = models.reduce((n, m: any) => n + m.cacheCreationInputTokens, 0)
    expect(written).toBeGreaterThan(0)
    expect(out.agents.reduce((n: number, a: any) => n + a.usage.cache_creation_input_tokens, 0)).toBe(written)
    expect(out.agents[0].usage).toEqual({
      input_tokens: out.usage.input_tokens,
      output_tokens: out.usage.output_tokens,
      cache_read_input_tokens: out.usage.cache_read_input_tokens,
      cache_creation_input_tokens: out.usage.cache_creation_input_tokens
    })
    expect(out.duration_ms).toBeGreaterThan(0)
    const agents = readdirSync(join(dataDir, 'sessions', out.session_id, 'agents')).filter((f) => f.endsWith('.jsonl'))
    expect(agents).toHaveLength(2)
    // The temps it made ahead of its state writes (store/temps-ahead.ts) are gone once it has exited.
    const sessionDir = join(dataDir, 'sessions', out.session_id)
    expect([...readdirSync(sessionDir), ...readdirSync(join(sessionDir, 'agents'))].filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it("stream-json speaks Claude Code's stream (system/init, assistant, user, system/task_*, result); --verbose is accepted; events has every Fanout event", async () => {
    const { project, env } = setup()
    server = await serve({ respond: fanOutScript() })
    const r = await runCli(['run', '-p', 'What is here?', '--cwd', project, '--output-format', 'stream-json', '--verbose'], { env: env(server.url) })
    expect(r.code).toBe(0)
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.map((l) => (l.subtype ? `${l.type}/${l.subtype}` : l.type))).toEqual([
      'system/init',
      'assistant',
      // Fanout's own line (docs/budgets.md): what the Agent calls will cost, before the subagent starts.
      'system/fanout_estimate',
      'system/task_started',
      'user',
      'system/task_progress',
      'assistant',
      'user',
      'system/task_updated',
      'system/task_notification',
      'user',
      'assistant',
      'result/success'
    ])
    const started = lines.find((l) => l.subtype === 'task_started')
    expect(started).toMatchObject({ subagent_type: 'Explore', description: 'List files', spawn_depth: 1, is_backgrounded: false, task_type: 'local_agent' })
    const childTool = lines.find((l) => l.type === 'user' && l.agent_id === started.task_id && l.message.content[0]?.type === 'tool_result')
    expect(childTool).toMatchObject({ parent_tool_use_id: started.tool_use_id, subagent_type: 'Explore' })
    expect(childTool.message.content[0].content).toContain('readme.txt')
    expect(childTool.tool_use_result).toMatchObject({ numFiles: 1, filenames: [join(project, 'readme.txt')] })
    expect(lines[0]).toMatchObject({ cwd: project, permissionMode: 'default', agents: expect.arrayContaining(['Explore', 'general-purpose']) })

    const events = await runCli(['run', '-p', 'What is here?', '--cwd', project, '--output-format', 'events'], { env: env(server.url) })
    const all = events.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(all[0].type).toBe('agent_start')
    expect(all.at(-1)).toMatchObject({ type: 'result', subtype: 'success' })
    const childStart = all.find((l) => l.type === 'agent_start' && l.depth === 1)
    expect(all.some((l) => l.type === 'tool_end' && l.name === 'Glob' && l.agentId === childStart.agentId && l.output.includes('readme.txt'))).toBe(true)
  })

  it("num_turns counts the main agent's turns over every run (a background report wakes it), and a resume is not a new spawn", async () => {
    const { project, env } = setup()
    server = await serve({
      respond: scriptByAgent([
        { name: 'bg', match: 'Background job', turns: [reply.text('bg report')] },
        { name: 'fg', match: 'Foreground job', turns: [reply.text('first pass')], then: reply.text('second pass') },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [
            reply.toolUse('Agent', { description: 'fg', prompt: 'Foreground job' }),
            (req) => reply.toolUse('Agent', { description: 'fg again', prompt: 'Go on.', resume: /agentId: (\w+)/.exec(req.toolResults[0].content)![1] }),
            reply.toolUse('Agent', { description: 'bg', prompt: 'Background job', run_in_background: true }),
            reply.text('waiting for the report'),
            reply.text('final answer')
          ]
        }
      ])
    })
    const r = await runCli(['run', '-p', 'Go.', '--cwd', project, '--output-format', 'json'], { env: env(server.url) })
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({
      result: 'final answer',
      num_turns: 5,
      subagent_stats: { spawned: 2, resumed: 1, started_in_background: 1, completed: 3, by_type: { 'general-purpose': 2 } }
    })
  })

  it('Ctrl-C: every agent stops, the result says stopped (error_during_execution) and the exit status is 130', async () => {
    const { project, env } = setup()
    server = await serve({
      respond: scriptLead(reply.with({ delayMs: 60_000 }, { type: 'text', text: 'too late' }))
    })
    const child = spawn(process.execPath, [join(repoRoot, 'bin/fanout'), 'run', '-p', 'Take your time.', '--cwd', project, '--output-format', 'json'], {
      env: { ...process.env, ...env(server.url) },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    child.stdout.on('data', (d) => (stdout += d))
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    await expect.poll(() => server!.messageRequests().length, { timeout: 20_000 }).toBeGreaterThan(0)
    child.kill('SIGINT')
    expect(await closed).toBe(130)
    expect(JSON.parse(stdout)).toMatchObject({
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      status: 'stopped',
      terminal_reason: 'aborted_streaming'
    })
  })

  it('says on stderr when it retries, so a slow or unreachable endpoint is not a silent wait', async () => {
    const { project, env } = setup()
    server = await serve({
      respond: scriptLead(byAttempt(reply.overloaded(), reply.text('Done.')))
    })
    const r = await runCli(['run', '-p', 'Go', '--cwd', project], { env: env(server.url) })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('Done.\n')
    expect(r.stderr).toMatch(/^fanout: Overloaded \(529\): .*Retrying in .* \(attempt 2 of 9; .* spent of at most 10 min retrying\)\.\n$/)
  })

  it('text output prints the answer; a failing model gives a non-zero exit and says why', async () => {
    const { project, env } = setup()
    server = await serve({ respond: () => reply.badRequest('prompt is too long: 300000 tokens > 200000 maximum') })
    const r = await runCli(['run', '-p', 'hi', '--cwd', project], { env: env(server.url) })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/failed: .*prompt is too long/)
  })

  it("reads the prompt from stdin, and refuses bad options in Claude Code's words", async () => {
    const { project, env } = setup()
    server = await serve({ respond: (req) => reply.text(`You said: ${req.firstUserText}`) })
    const ok = await runCli(['run', '--cwd', project], { env: env(server.url), input: 'piped prompt\n' })
    expect(ok.stdout.trim()).toBe('You said: piped prompt')
    const bad = await runCli(['run', '-p', 'x', '--output-format', 'xml'], { env: env(server.url) })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe("error: option '--output-format <format>' argument 'xml' is invalid. Allowed choices are text, json, stream-json, events.\n")
    const noKey = await runCli(['run', '-p', 'x', '--cwd', project], { env: { ...env(server.url), ANTHROPIC_API_KEY: '' } })
    expect(noKey.code).toBe(1)
    expect(noKey.stderr).toMatch(/No Anthropic credentials/)
  })

  it('headless: a tool that needs approval is denied with a reason, and nothing is written', async () => {
    const { project, env } = setup()
    server = await serve({
      respond: scriptLead(reply.toolUse('Write', { file_path: join(project, 'new.txt'), content: 'x' }), (req) =>
        reply.text(`Tool said: ${req.toolResults[0].content}`)
      )
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
    server = await serve({
      respond: (req) => reply.text(`answer ${req.messages.length}: ${req.lastUserText.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim()}`)
    })
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
