// `fanout run` where the surroundings fail: a data folder it cannot write, a reader that closes the pipe.
// Each ends with one clear line (or quietly, for the pipe) and a non-zero status, never a stack trace.
import { spawn } from 'node:child_process'
import { writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cliProject, ensureCliBundle, repoRoot, runCli } from '../../../test/support/cli'
import { reply, startScriptedServer, type ScriptedServer } from '../runtime/model/scripted'

let server: ScriptedServer | null = null
beforeAll(() => ensureCliBundle(), 60_000)
afterEach(async () => {
  await server?.close()
  server = null
})

describe('fanout run when its surroundings fail', () => {
  it('an unwritable data folder is one line before any work starts: no answer, no model call, no stack', async () => {
    const { project, dataDir, env } = cliProject('fanout-datadir-', {})
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(join(dataDir, 'sessions'), 'a file where the sessions folder belongs')
    server = await startScriptedServer({ respond: () => reply.text('This answer must not be printed.') })
    const r = await runCli(['run', '-p', 'hi', '--cwd', project], { env: env(server.url) })
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      `fanout run: Cannot record sessions in the data folder ${dataDir}: ${join(dataDir, 'sessions')} is a file, not a folder. Fix that, or set FANOUT_DATA_DIR to a folder you can write to.\n`
    )
    expect(server.messageRequests()).toHaveLength(0)
  })

  it('a reader that closes the pipe early (| head -2) ends the run quietly, its agents stopped', async () => {
    const { project, env } = cliProject('fanout-pipe-', {})
    // A long streamed answer: events keep coming after the reader has gone.
    server = await startScriptedServer({ respond: () => ({ ...reply.text('word '.repeat(400)), textChunk: 5, chunkDelayMs: 2 }) })
    const child = spawn(process.execPath, [join(repoRoot, 'bin/fanout'), 'run', '-p', 'talk', '--cwd', project, '--output-format', 'stream-json'], {
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
    expect(lines.map((l) => JSON.parse(l).type)).toEqual(['agent_start', 'turn_start'])
    expect(stderr).toBe('')
    expect(code).toBe(141)
  })

  it('--resume of a session another process runs is refused, naming that process', async () => {
    const { project, env } = cliProject('fanout-owned-', {})
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    server = await startScriptedServer({
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
    expect(second.stderr).toMatch(new RegExp(`^fanout run: Session ${sessionId} is being run by fanout run \\(pid ${first.pid}\\) since \\d\\d:\\d\\d:\\d\\d\\. Wait for it to finish or stop it there\\.\\n$`))
    release()
    await done
    expect(JSON.parse(out).result).toBe('answer to first')
    // Once the first process is done, the session is free again.
    const third = await runCli(['run', '--resume', sessionId, '-p', 'third', '--output-format', 'json'], { env: env(server.url) })
    expect(third.code).toBe(0)
    expect(JSON.parse(third.stdout).result).toBe('answer to third')
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
