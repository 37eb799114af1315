// Where no sandbox can start (here: bubblewrap missing), nothing that leaned on it runs unasked: read-only
// commands and allowed commands ask (headless: are denied), the person is told once why, and what a person
// approves runs as they saw it. `fanout run` says so on stderr, once.
import { existsSync, mkdirSync, symlinkSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { ErrorEvent } from '../../src/shared/events'
import { startScriptedModel } from '../../src/main/runtime/model/scripted'
import { reply } from '../../src/main/runtime/model/scripted/reply'
import { closeFixtures, makeFixture, waitForEvent } from '../../src/main/runtime/orchestration/testing/session-fixture'
import { rulesFrom } from '../../src/main/runtime/permissions'
import { SandboxRuntime } from '../../src/main/runtime/security/sandbox/sandbox-runtime'
import { createBashTool } from '../../src/main/runtime/tools/bash'
import { makeTempDir, toolContext } from '../../src/main/runtime/tools/test-kit'
import { cliProject, ensureCliBundle, runCli } from '../support/cli'
import { makeWorld, runCampaign, snapshot, diff } from './attack-kit'
import { runTool } from '../../src/main/runtime/tool-call/execute'

const noBwrap = () => new SandboxRuntime({ bwrapPath: '/nonexistent/bwrap' })
afterEach(() => closeFixtures())

describe('without a sandbox', () => {
  it('reports why it is unavailable', async () => {
    expect(await noBwrap().ready()).toEqual({ available: false, reason: expect.stringContaining('bubblewrap not found at /nonexistent/bwrap') })
    expect(await new SandboxRuntime({ disabledReason: 'turned off' }).ready()).toEqual({ available: false, reason: 'turned off' })
  })

  it('headless: read-only and allowed commands are denied, not run unsandboxed; the notice comes once', async () => {
    const world = await makeWorld()
    const before = snapshot(world.project)
    const { verdicts, fixture } = await runCampaign({
      world,
      session: { permissionMode: 'default', sandboxRuntime: noBwrap(), permissionRules: rulesFrom({ allow: ['Bash(touch:*)'] }, 'cli') },
      attacks: [
        { id: 'ls', tool: 'Bash', input: { command: 'ls' } },
        { id: 'allowed', tool: 'Bash', input: { command: 'touch made.txt' } },
        { id: 'read', tool: 'Read', input: { file_path: 'README.md' } }
      ]
    })
    expect(verdicts[0]).toMatchObject({ isError: true, result: expect.stringContaining('sandbox is unavailable') })
    expect(verdicts[1]).toMatchObject({ isError: true, result: expect.stringContaining('headless') })
    expect(verdicts[2]).toMatchObject({ isError: false })
    expect(diff(before, snapshot(world.project))).toEqual([])
    const notices = fixture.events.filter((e): e is ErrorEvent => e.type === 'error' && e.notice === true)
    expect(notices).toHaveLength(1)
    expect(notices[0].message).toMatch(/The Bash sandbox is unavailable: bubblewrap not found.*are denied in this headless run/)
  })

  it('with a person: it asks, saying why, and runs what the person approved', async () => {
    const world = await makeWorld()
    const f = await makeFixture(
      { respond: (req) => (req.turn === 0 ? reply.toolUse('Bash', { command: 'git status --short && echo fine' }) : reply.text('done')) },
      { cwd: world.project, root: world.root, sandboxRuntime: noBwrap(), permissionMode: 'plan' }
    )
    const run = f.session.run('go')
    const ask = await waitForEvent(f.session, f.events, (e) => e.type === 'permission_request')
    expect(ask.type === 'permission_request' && ask.reason).toContain('the Bash sandbox is unavailable')
    f.session.respondPermission((ask as { requestId: string }).requestId, 'allow')
    await run
    const end = f.events.find((e) => e.type === 'tool_end')
    expect(end?.type === 'tool_end' && end.output).toContain('fine')
  })

  it('a call granted a sandbox that cannot start is refused by Bash itself', async () => {
    const { dir, cleanup } = makeTempDir()
    try {
      const r = await runTool(createBashTool({ cwd: dir, sandbox: { runtime: noBwrap() } }), { command: 'echo hi' }, toolContext({ sandbox: 'read-only' }))
      expect(r).toMatchObject({ isError: true, content: expect.stringContaining('the sandbox is unavailable') })
    } finally {
      cleanup()
    }
  })
})

describe('fanout run without bubblewrap', () => {
  const tmp = makeTempDir('fanout-nobwrap-')
  afterAll(() => tmp.cleanup())

  it('says once why, and denies the read-only commands it would have sandboxed', async () => {
    ensureCliBundle()
    // A PATH with everything a run needs but bubblewrap.
    const bin = join(tmp.dir, 'bin')
    mkdirSync(bin)
    for (const tool of ['git', 'rg', 'socat', 'bash', 'sh', 'env', 'ls']) {
      const found = (process.env.PATH ?? '')
        .split(delimiter)
        .map((d) => join(d, tool))
        .find((p) => existsSync(p))
      if (found) symlinkSync(found, join(bin, tool))
    }
    symlinkSync(process.execPath, join(bin, 'node'))
    const model = await startScriptedModel({
      respond: (req) => (req.turn < 2 ? reply.toolUse('Bash', { command: req.turn === 0 ? 'ls' : 'git status' }) : reply.text('ok'))
    })
    try {
      const p = cliProject('fanout-nobwrap-cli-', { 'README.md': 'x\n' })
      const r = await runCli(['run', '-p', 'look', '--permission-mode', 'plan', '--cwd', p.project], { env: { ...p.env(model.server.url), PATH: bin } })
      expect(r.code).toBe(0)
      expect(r.stderr.match(/The Bash sandbox is unavailable/g)).toHaveLength(1)
      expect(r.stderr).toContain('bubblewrap (bwrap) is not installed')
      expect(r.stderr).toContain('apt-get install bubblewrap socat')
      expect(model.server.requests.at(-1)?.toolResults[0]?.content).toContain('sandbox is unavailable')
    } finally {
      await model.close()
    }
  }, 60_000)
})
