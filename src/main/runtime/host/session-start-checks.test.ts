// session.start (and the other calls that name a folder) check what they name before anything is created
// or queued: an unknown agent, a folder that does not exist, a file, a folder this user cannot read.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dispatchCall } from '../../../shared/ipc-dispatch'
import { reply, scriptByAgent, startScriptedServer } from '../model/scripted'
import { LocalRuntimeHost } from './runtime-host'
import { hostOptions } from '../../../../test/support/host'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c()
})

async function setup() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-start-checks-')))
  const project = join(root, 'project')
  mkdirSync(join(project, '.claude', 'agents'), { recursive: true })
  writeFileSync(join(project, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews.\n---\nYou review.\n')
  writeFileSync(join(root, 'a-file.txt'), 'not a folder')
  const server = await startScriptedServer({ respond: scriptByAgent([{ match: () => true, turns: [reply.text('hi')] }]) })
  const host = new LocalRuntimeHost(hostOptions({ cwd: project, dataDir: join(root, 'data'), home: join(root, 'home') }, server.url))
  cleanup.push(async () => {
    await host.close()
    await server.close()
  })
  return { root, project, host, server }
}

describe('session.start checks what it names before anything is queued', () => {
  it('an unknown agent is refused with the agents there are; nothing is started or recorded', async () => {
    const { project, host, server } = await setup()
    const r = await dispatchCall(host, 'session.start', { prompt: 'hi', cwd: project, agent: 'no-such-agent' })
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request', fields: { agent: 'There is no agent named "no-such-agent" here.' } } })
    expect(!r.ok && r.error.message).toMatch(/^There is no agent named "no-such-agent" in .*project\. The agents here are: .*reviewer/)
    expect((await host.handlers['sessions.list']({ cwd: project })).sessions).toEqual([])
    expect(server.requests).toEqual([])
    // A known one starts.
    expect(await dispatchCall(host, 'session.start', { prompt: 'hi', cwd: project, agent: 'reviewer' })).toMatchObject({ ok: true })
  })

  it.each([
    ['a folder that does not exist', (root: string) => join(root, 'nowhere'), 'not_found', /nowhere does not exist\./],
    ['a file', (root: string) => join(root, 'a-file.txt'), 'invalid_request', /a-file\.txt is a file, not a folder\./],
    ['a path through a file', (root: string) => join(root, 'a-file.txt', 'sub'), 'invalid_request', /is not a folder: a part of its path is a file\./]
  ])('%s as cwd: refused, and nothing is started (session.start, demo.start, agents.list, mcp.list, trust.get)', async (_what, cwdOf, code, message) => {
    const { root, project, host, server } = await setup()
    const cwd = cwdOf(root)
    for (const [call, payload] of [
      ['session.start', { prompt: 'hi', cwd }],
      ['demo.start', { cwd }],
      ['agents.list', { cwd }],
      ['mcp.list', { cwd }],
      ['trust.get', { cwd }],
      ['workspace.open', { cwd }]
    ] as const) {
      const r = await dispatchCall(host, call, payload)
      expect(r, call).toMatchObject({ ok: false, error: { code, fields: { cwd: expect.any(String) } } })
      expect(!r.ok && r.error.message, call).toMatch(message)
    }
    expect((await host.handlers['sessions.list']({ cwd: project })).sessions).toEqual([])
    expect(server.requests).toEqual([])
  })

  it.skipIf(process.getuid?.() === 0)('a folder this user cannot read is refused as forbidden (skipped as root, who can read anything)', async () => {
    const { root, host } = await setup()
    const locked = join(root, 'locked')
    mkdirSync(locked)
    chmodSync(locked, 0o000)
    cleanup.push(async () => chmodSync(locked, 0o700))
    expect(await dispatchCall(host, 'session.start', { prompt: 'hi', cwd: locked })).toMatchObject({ ok: false, error: { code: 'forbidden' } })
  })
})
