// What a Bash call's permission decision needs starts while the model is still writing the call: the sandbox
// (its first start takes most of a second with bubblewrap) and the shell parser (~0.1 s to load) are ready by
// the time the call is handed over, instead of delaying the permission question after it.
import { afterEach, describe, expect, it } from 'vitest'
import { reply } from '../../model/scripted/reply'
import { shellParserLoaded } from '../../permissions/shell/parse-shell'
import { SandboxRuntime, type SandboxStatus } from '../../security/sandbox/sandbox-runtime'
import { closeFixtures, makeFixture } from '../testing/session-fixture'

afterEach(() => closeFixtures())

/** A sandbox that cannot start, noting which events the session had emitted when it was first asked. */
class WatchedSandbox extends SandboxRuntime {
  seenAtStart: string[] | null = null
  constructor(private readonly seen: () => string[]) {
    super({ disabledReason: 'it is turned off for this test' })
  }
  override ready(): Promise<SandboxStatus> {
    this.seenAtStart ??= this.seen()
    return super.ready()
  }
}

describe('the session sandbox', () => {
  it('has the shell parser loaded when the call is handed over (first: the modules of this file are its own)', async () => {
    expect(shellParserLoaded()).toBe(false)
    let loadedAtRun: boolean | null = null
    const f = await makeFixture(
      {
        respond: (req) =>
          req.turn === 0 ? { ...reply.toolUse('Bash', { command: 'npm test -- --watch=false' }), jsonChunk: 4, chunkDelayMs: 20 } : reply.text('done')
      },
      { sandboxRuntime: new WatchedSandbox(() => []), headless: true }
    )
    f.session.subscribe((e) => {
      if (e.type === 'tool_run') loadedAtRun ??= shellParserLoaded()
    })
    await f.session.run('go')
    expect(loadedAtRun).toBe(true)
  })

  it('starts when a Bash call begins streaming, before the call is handed to the tool', async () => {
    const types: string[] = []
    const sandbox = new WatchedSandbox(() => [...types])
    const f = await makeFixture(
      { respond: (req) => (req.turn === 0 ? reply.toolUse('Bash', { command: 'echo hi' }) : reply.text('done')) },
      { sandboxRuntime: sandbox, permissionMode: 'bypassPermissions', headless: true }
    )
    f.session.subscribe((e) => types.push(e.type))
    await f.session.run('go')
    expect(sandbox.seenAtStart).toContain('tool_start')
    expect(sandbox.seenAtStart).not.toContain('tool_run')
  })

  it('is not started by a turn without a Bash call', async () => {
    const types: string[] = []
    const sandbox = new WatchedSandbox(() => [...types])
    const f = await makeFixture(
      { respond: (req) => (req.turn === 0 ? reply.toolUse('Glob', { pattern: '*' }) : reply.text('done')) },
      { sandboxRuntime: sandbox, headless: true }
    )
    f.session.subscribe((e) => types.push(e.type))
    await f.session.run('go')
    expect(sandbox.seenAtStart).toBeNull()
  })
})
