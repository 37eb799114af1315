// The host's review calls through the contract, on a real repository where two agents worked: the list,
// a merge that tells open windows to read the folder again, and Open folder where no file manager answers.
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeHosts, host } from '../../../../test/support/host'
import { dispatchCall } from '../../../shared/ipc-dispatch'
import { agentWorked } from '../review/testing/agent-work'
import { waitUntil } from '../tools/test-kit'
import { makeTempRepo, type TempRepo } from '../worktrees/testing/temp-repo'

let repo: TempRepo | null = null
afterEach(async () => {
  // The host first: it may still be writing into the repository's folder (its data folder is there).
  await closeHosts()
  repo?.cleanup()
})

async function setup(openPath?: (path: string) => Promise<string | null>) {
  repo = makeTempRepo()
  const w1 = await agentWorked(repo, 'a1', { files: { 'notes.md': 'notes\n' } })
  await agentWorked(repo, 'a2', { files: { 'src/app.ts': 'export const answer = 7\n' } })
  const dirs = { cwd: repo.root, dataDir: join(repo.sandbox, 'data'), home: join(repo.sandbox, 'home') }
  return { ...(await host(null, dirs, {}, openPath ? { openPath } : {})), w1 }
}

describe('review calls', () => {
  it('lists, previews and merges through the contract; a merge tells every window to read the folder again', async () => {
    const { h, notices } = await setup()
    const list = await dispatchCall(h, 'review.list', { cwd: repo!.root, agentIds: ['a1', 'a2', 'gone1'] })
    if (!list.ok) throw new Error(list.error.message)
    const value = list.value as { list: { agents: Array<{ agentId: string; state: string }>; gone: Array<{ agentId: string }> } }
    expect(value.list.agents.map((a) => [a.agentId, a.state])).toEqual([
      ['a1', 'ready'],
      ['a2', 'ready']
    ])
    expect(value.list.gone.map((g) => g.agentId)).toEqual(['gone1'])
    const preview = await dispatchCall(h, 'review.preview', { cwd: repo!.root })
    expect(preview).toMatchObject({ ok: true, value: { preview: { order: ['a1', 'a2'], blocked: null } } })
    const merged = await dispatchCall(h, 'review.merge', { cwd: repo!.root, all: true, strategy: 'merge' })
    expect(merged).toMatchObject({ ok: true, value: { outcome: { merged: [{ agentId: 'a1' }, { agentId: 'a2' }], stopped: null } } })
    expect(notices).toContainEqual({ type: 'review_changed', cwd: repo!.root })
    expect(repo!.read('notes.md')).toBe('notes\n')
  })

  it('opens the worktree folder git knows for the agent; where nothing can open it, says so with the path', async () => {
    const asked: string[] = []
    const { h, w1 } = await setup(async (path) => (asked.push(path), 'no file manager opener (xdg-open) is installed here'))
    const r = await dispatchCall(h, 'review.openFolder', { cwd: repo!.root, agentId: 'a1' })
    expect(r).toEqual({
      ok: true,
      value: {
        path: w1.path,
        opened: false,
        message: `The folder could not be opened: no file manager opener (xdg-open) is installed here. Its path is ${w1.path}.`
      }
    })
    expect(asked).toEqual([w1.path])
    expect(await dispatchCall(h, 'review.openFolder', { cwd: repo!.root, agentId: 'nobody' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(await dispatchCall(h, 'review.discard', { cwd: repo!.root, agentId: 'a1', expectTip: 'f'.repeat(40) })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('changed since its changes were shown') }
    })
  })

  it('opens the worktree in the editor ($VISUAL) in that folder; a terminal where none is installed says so; nothing else is opened', async () => {
    const { h, w1 } = await setup()
    const marker = join(repo!.sandbox, 'editor-ran')
    const editor = join(repo!.sandbox, 'my-editor')
    writeFileSync(editor, `#!/bin/sh\necho "$(pwd) $*" > '${marker}'\n`)
    chmodSync(editor, 0o755)
    const saved = { VISUAL: process.env.VISUAL, PATH: process.env.PATH }
    const empty = join(repo!.sandbox, 'only-git')
    mkdirSync(empty)
    // git alone (the review reads the worktree list with it), no terminal.
    for (const dir of (process.env.PATH ?? '').split(':'))
      if (existsSync(join(dir, 'git')) && !existsSync(join(empty, 'git'))) symlinkSync(join(dir, 'git'), join(empty, 'git'))
    try {
      process.env.VISUAL = editor
      expect(await dispatchCall(h, 'review.openFolder', { cwd: repo!.root, agentId: 'a1', with: 'editor' })).toEqual({
        ok: true,
        value: { path: w1.path, opened: true }
      })
      // The shell makes the file (>) before echo writes its line: wait for the whole line, not the file.
      await waitUntil(() => existsSync(marker) && readFileSync(marker, 'utf8').endsWith('\n'), 'the editor to start')
      expect(readFileSync(marker, 'utf8').trim()).toBe(`${w1.path} ${w1.path}`)
      process.env.PATH = empty
      const terminal = await dispatchCall(h, 'review.openFolder', { cwd: repo!.root, agentId: 'a1', with: 'terminal' })
      expect(terminal).toMatchObject({ ok: true, value: { opened: false, message: expect.stringContaining('no terminal is installed here') } })
    } finally {
      process.env.VISUAL = saved.VISUAL
      process.env.PATH = saved.PATH
    }
    // Only the three ways, and only an agent's own worktree.
    expect(await dispatchCall(h, 'review.openFolder', { cwd: repo!.root, agentId: 'a1', with: 'shell' } as never)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' }
    })
    expect(await dispatchCall(h, 'review.openFolder', { cwd: repo!.root, agentId: '../..', with: 'editor' })).toMatchObject({ ok: false })
  })
})
