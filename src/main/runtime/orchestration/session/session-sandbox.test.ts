// The sandbox starts while the model is still writing a Bash call: its first start (most of a second with
// bubblewrap) overlaps the streaming of the command instead of delaying the permission question after it.
import { afterEach, describe, expect, it } from 'vitest'
import { reply } from '../../model/scripted/reply'
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
