// The review calls' contract: every request is checked before the host sees it (paths that climb out of
// the repository, ids that could not name a branch, a merge that names nothing, a discard without the tip
// the person confirmed), and the host's answers are checked on the way out.
import { describe, expect, it } from 'vitest'
import { dispatchCall } from './ipc-dispatch'
import { createRecordingHost } from './testing/recording-host'

const cwd = '/tmp/project'
const tip = 'a'.repeat(40)

describe('review contract', () => {
  it.each([
    ['review.file', { cwd, agentId: 'a1', path: '../../etc/passwd' }, 'path'],
    ['review.file', { cwd, agentId: 'a1', path: '/etc/passwd' }, 'path'],
    ['review.file', { cwd, agentId: '../x', path: 'a.ts' }, 'agentId'],
    ['review.list', { cwd: 'relative/dir' }, 'cwd'],
    ['review.list', { cwd, agentIds: ['ok', 'not ok'] }, 'agentIds.1'],
    ['review.merge', { cwd, strategy: 'merge' }, 'agentIds'],
    ['review.merge', { cwd, agentIds: [], strategy: 'merge' }, 'agentIds'],
    ['review.merge', { cwd, all: true, strategy: 'rebase' }, 'strategy'],
    ['review.merge', { cwd, all: true, strategy: 'merge', force: true }, 'request'],
    ['review.discard', { cwd, agentId: 'a1' }, 'expectTip'],
    ['review.discard', { cwd, agentId: 'a1', expectTip: 'HEAD' }, 'expectTip'],
    ['review.openFolder', { cwd, agentId: 'a1', path: '/' }, 'request']
  ])('%s refuses %j, naming %s', async (call, payload, field) => {
    const host = createRecordingHost()
    const r = await dispatchCall(host, call, payload)
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining(field) } })
    expect(host.calls).toEqual([])
  })

  it('passes valid requests through and checks the answers', async () => {
    const host = createRecordingHost()
    expect(await dispatchCall(host, 'review.merge', { cwd, all: true, strategy: 'squash' })).toMatchObject({ ok: true, value: { outcome: { into: 'main' } } })
    expect(await dispatchCall(host, 'review.discard', { cwd, agentId: 'a1', expectTip: tip })).toMatchObject({ ok: true })
    expect(await dispatchCall(host, 'review.file', { cwd, agentId: 'a1', path: 'src/app.ts', uncommitted: true })).toMatchObject({
      ok: true,
      value: { diff: { oldText: 'old\n' } }
    })
    expect(host.calls.map((c) => c.call)).toEqual(['review.merge', 'review.discard', 'review.file'])
    // An answer that breaks the contract never reaches the page.
    host.handlers['review.list'] = async () => ({ list: { checkout: null } }) as never
    expect(await dispatchCall(host, 'review.list', { cwd })).toMatchObject({
      ok: false,
      error: { code: 'internal', message: expect.stringContaining('list.checkout') }
    })
  })
})
