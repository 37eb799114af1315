// `fanout run` where the surroundings fail: a data folder it cannot write, a reader that closes the pipe, a
// runaway agent, a session another process runs.
// Each ends with one clear line (or quietly, for the pipe) and a non-zero status, never a stack trace.
import { spawn } from 'node:child_process'
import { writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliProject, repoRoot, runCli, useCliServers } from '../../../test/support/cli'
import { reply, scriptByAgent, type ScriptedServer } from '../runtime/model/scripted'

let server: ScriptedServer
const serve = useCliServers()

describe('fanout run when its surroundings fail', () => {
  it('an unwritable data folder is one line before any work starts: no answer, no model call, no stack', async () => {
    const { project, dataDir, env } = cliProject('fanout-datadir-', {})
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(join(dataDir, 'sessions'), 'a file where the sessions folder belongs')
    server = await serve({ respond: () => reply.text('This answer must not be printed.') })
    const r = await runCli(['run', '-p', 'hi', '--cwd', project], { env: env(server.url) })
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      `fanout run: Cannot record sessions in the data folder ${dataDir}: ${join(dataDir, 'sessions')} is a file, not a folder. Fix that, or set FANOUT_DATA_DIR to a folder you can write to.\n`
    )
    expect(server.messageRequests()).toHaveLength(0)
  })

  it.each([
    ['stream-json', ['system', 'assistant']],
    ['events', ['agent_start', 'turn_start']]
  ])('a reader that closes the pipe early (%s | head -2) ends the run quietly, its agents stopped', async (format, firstTwo) => {
    const { project, env } = cliProject('fanout-pipe-', {})
    // A long run: lines keep coming after the reader has gone (a tool call, then a long streamed answer).
    server = await serve({
      respond: (req) =>
        req.messages.length === 1
          ? reply.toolUse('Glob', { pattern: '*' }, { text: 'Looking.' })
          : { ...reply.text('word '.repeat(400)), textChunk: 5, chunkDelayMs: 2 }
    })
    const child = spawn(process.execPath, [join(repoRoot, 'bin/fanout'), 'run', '-p', 'talk', '--cwd', project, '--output-format', format], {
      env: { ...process.env, ...env(server.url) },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    let seen = ''
    const lines = await new Promise<string[]>((resolve) => {
      child.stdout.on('data', (d) => {
        seen += d
        const got = seen.split('\n')
        if (got.length > 2) {
          child.stdout.destroy() // what `head -2` does once it has its two lines
          resolve(got.slice(0, 2))
        }
      })
    })
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(lines.map((l) => JSON.parse(l).type)).toEqual(firstTwo)
    expect(stderr).toBe('')
    expect(code).toBe(141)
  })

  it("a runaway guard is named in the JSON result: the main agent's as `limit`, each subagent's in subagent_stats.limited", async () => {
    const { project, env } = cliProject('fanout-guard-', {})
    server = await serve({
      respond: scriptByAgent([
        { name: 'stuck', match: 'Use the frobnicator', turns: [], then: (req) => reply.toolUse('Frobnicate', { attempt: req.turn }) },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('Agent', { description: 'Frobnicate', prompt: 'Use the frobnicator', subagent_type: 'general-purpose' })],
          then: reply.toolUse('Glob', { pattern: '*' })
        }
      ])
    })
    const r = await runCli(['run', '-p', 'Go.', '--cwd', project, '--output-format', 'json', '--max-turns', '3'], { env: env(server.url) })
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ subtype: 'error_max_turns', is_error: true, status: 'max_turns', limit: 'max_turns' })
    expect(out.subagent_stats.limited).toEqual([
      {
        agent_id: expect.any(String),
        agent_type: 'general-purpose',
        status: 'failed',
        limit: 'no_progress',
        reason: expect.stringMatching(/^Stopped for making no progress: the same failing Frobnicate call 5 turns in a row/)
      }
    ])
  })

  it('--resume of a session another process runs is refused, naming that process', async () => {
    const { project, env } = cliProject('fanout-owned-', {})
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    server = await serve({
      respond: async (req) => {
        if (req.firstUserText === 'first') await held
        return reply.text(`answer to ${req.lastUserText}`)
      }
    })
    const first = spawn(process.execPath, [join(repoRoot, 'bin/fanout'), 'run', '-p', 'first', '--cwd', project, '--output-format', 'json'], {
      env: { ...process.env, ...env(server.url) },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    first.stdout.on('data', (d) => (out += d))
    const done = new Promise((r) => first.on('close', r))
    while (server.messageRequests().length === 0) await new Promise((r) => setTimeout(r, 20))
    const { sessionId } = await findSession(env(server.url).FANOUT_DATA_DIR)
    const second = await runCli(['run', '--resume', sessionId, '-p', 'second'], { env: env(server.url) })
    expect(second.code).toBe(1)
    expect(second.stdout).toBe('')
    expect(second.stderr).toMatch(
      new RegExp(
        `^fanout run: Session ${sessionId} is being run by fanout run \\(pid ${first.pid}\\) since \\d\\d:\\d\\d:\\d\\d\\. Wait for it to finish or stop it there\\.\\n$`
      )
    )
    release()
    await done
    expect(JSON.parse(out).result).toBe('answer to first')
    // Once the first process is done, the session is free again.
    const third = await runCli(['run', '--resume', sessionId, '-p', 'third', '--output-format', 'json'], { env: env(server.url) })
    expect(third.code).toBe(0)
    expect(JSON.parse(third.stdout).result).toBe('answer to third')
  })

  it('a run that fails while a Bash call is still streaming (its sandbox starting) ends at once, saying why', async () => {
    const { project, env } = cliProject('fanout-bash-cut-', {})
    // The Bash call's block starts (the sandbox starts with it), then the stream fails for good.
    server = await serve({ respond: () => reply.errorAfter(1, reply.toolUse('Bash', { command: 'echo hi' }), 'invalid_request_error') })
    const started = Date.now()
    const r = await runCli(['run', '-p', 'test it', '--cwd', project], { env: env(server.url), timeoutMs: 30_000 })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/invalid_request_error|invalid request/i)
    // Not held open by the sandbox's proxies: the process ends with the run (a hold would last until killed).
    expect(Date.now() - started).toBeLessThan(25_000)
  })
})

async function findSession(dataDir: string): Promise<{ sessionId: string }> {
  const { readdirSync, existsSync } = await import('node:fs')
  for (;;) {
    const dir = join(dataDir, 'sessions')
    const ids = existsSync(dir) ? readdirSync(dir) : []
    if (ids.length && existsSync(join(dir, ids[0], 'owner.lock'))) return { sessionId: ids[0] }
    await new Promise((r) => setTimeout(r, 20))
  }
}
