// The launcher end to end: the real bin/fanout with its code cache in a folder of the test's own.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliProject, runCli, useCliServers } from '../../../test/support/cli'
import { reply, type ScriptedServer } from '../runtime/model/scripted'

let server: ScriptedServer
const serve = useCliServers()

describe('fanout with a code cache', () => {
  it('answers the same with no cache, a fresh one and a damaged one', async () => {
    const { project, dataDir, env } = cliProject('fanout-launch-', {})
    const cacheDir = join(dataDir, '..', 'code-cache')
    server = await serve({ respond: (req) => reply.text(`You said: ${req.firstUserText}`) })
    const run = () =>
      runCli(['run', '-p', 'hello', '--cwd', project, '--output-format', 'json'], { env: { ...env(server!.url), FANOUT_CODE_CACHE_DIR: cacheDir } })
    const answers: string[] = []
    for (const damage of [false, false, true]) {
      if (damage) {
        const cache = readFileSync(join(cacheDir, 'run.bin'))
        cache.fill(0x41, cache.length >> 1, (cache.length >> 1) + 64)
        writeFileSync(join(cacheDir, 'run.bin'), cache)
      }
      const r = await run()
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      answers.push(JSON.parse(r.stdout).result)
    }
    expect(answers).toEqual(['You said: hello', 'You said: hello', 'You said: hello'])
  })

  it("a usage error still exits 1 with Claude Code's message, with or without a cache", async () => {
    const { dataDir } = cliProject('fanout-launch-', {})
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['run', '--max-turns', 'zero', '-p', 'x'], { env: { FANOUT_CODE_CACHE_DIR: join(dataDir, 'cc') } })
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/--max-turns must be a whole number/)
    }
  })

  it('with --enable-source-maps, the stack of a crash points into the TypeScript sources', async () => {
    const preload = join(mkdtempSync(join(tmpdir(), 'fanout-launch-')), 'fail-writes.mjs')
    writeFileSync(preload, "process.stdout.write = () => { throw new Error('cannot write') }\n")
    const r = await runCli(['help'], { env: { NODE_OPTIONS: `--enable-source-maps --import ${preload}` } })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/cannot write[\s\S]*src\/main\/cli\/index\.ts:\d+/)
  })
})
