// Reviewing and landing agents' work on real repositories: agents worked in real worktrees (created and
// finished by the runtime's own calls), and every assertion reads what git itself reports afterwards.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, type TempRepo } from '../worktrees/testing/temp-repo'
import { AgentWorkReview, ReviewError } from './index'
import { historyRuns } from '../../../shared/budget'
import { appendAgentRun, readAgentHistory } from '../store/agent-history'
import { agentWorked } from './testing/agent-work'

const repos: TempRepo[] = []
function repo(): TempRepo {
  const r = makeTempRepo()
  r.write('src/lexer.ts', 'export function lex(src: string) {\n  return src.split(/\\s+/)\n}\n')
  r.commitAll('lexer')
  repos.push(r)
  return r
}
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

const review = new AgentWorkReview()

/** What "the checkout is clean" means here: nothing staged or modified, no merge state, HEAD where it was. */
function checkoutSnapshot(r: TempRepo) {
  return {
    head: r.git('rev-parse', 'HEAD'),
    status: r.git('status', '--porcelain=v1', '--untracked-files=all'),
    mergeHead: existsSync(join(r.root, '.git', 'MERGE_HEAD')),
    index: r.git('ls-files', '--stage')
  }
}
const agentBranches = (r: TempRepo) => r.git('branch', '--list', 'fanout/*', '--format=%(refname:short)').split('\n').filter(Boolean)

describe('changes of an agent', () => {
  it('lists files with line counts, commits, worktree and branch; uncommitted work apart', async () => {
    const r = repo()
    const wt = await agentWorked(r, 'a1', {
      files: { 'src/app.ts': 'export const answer = 43\nexport const q = 1\n', 'docs/new.md': '# new\n\ntext\n', 'README.md': null },
      description: 'tidy up'
    })
    writeFileSync(join(wt.path, 'scratch.txt'), 'one\ntwo\n')
    const list = await review.list(r.root)
    expect(list.checkout).toMatchObject({ root: r.root, branch: 'main', dirtyFiles: [], operation: null })
    const [a] = list.agents
    expect(a).toMatchObject({
      agentId: 'a1',
      branch: 'fanout/a1',
      worktreePath: wt.path,
      agentType: 'coder',
      description: 'tidy up',
      state: 'ready',
      additions: 5,
      deletions: 2
    })
    expect(a.files).toEqual([
      { path: 'README.md', status: 'deleted', additions: 0, deletions: 1, binary: false },
      { path: 'docs/new.md', status: 'added', additions: 3, deletions: 0, binary: false },
      { path: 'src/app.ts', status: 'modified', additions: 2, deletions: 1, binary: false }
    ])
    expect(a.commits.map((c) => c.subject)).toEqual(['Agent coder: tidy up'])
    expect(a.commits[0].sha).toBe(r.git('rev-parse', 'fanout/a1'))
    expect(a.uncommitted).toEqual([{ path: 'scratch.txt', status: 'added', additions: 2, deletions: 0, binary: false }])
  })

  it('shows both sides of a file: committed from git, uncommitted from the worktree; refuses paths outside the change list', async () => {
    const r = repo()
    const wt = await agentWorked(r, 'a1', { files: { 'src/app.ts': 'export const answer = 43\n' } })
    writeFileSync(join(wt.path, 'src/app.ts'), 'export const answer = 44\n')
    const committed = await review.file(r.root, 'a1', 'src/app.ts')
    expect(committed).toMatchObject({
      path: 'src/app.ts',
      oldText: 'export const answer = 42\n',
      newText: 'export const answer = 43\n',
      binary: false,
      tooLarge: false
    })
    const live = await review.file(r.root, 'a1', 'src/app.ts', true)
    expect(live).toMatchObject({ oldText: 'export const answer = 43\n', newText: 'export const answer = 44\n' })
    await expect(review.file(r.root, 'a1', '../../etc/passwd')).rejects.toMatchObject({ code: 'invalid_request' })
    await expect(review.file(r.root, 'a1', 'README.md')).rejects.toMatchObject({ code: 'not_found' })
    await expect(review.file(r.root, 'nobody', 'src/app.ts')).rejects.toThrow(/No agent branch matches "nobody"/)
  })

  it('reports a binary file as binary, without its bytes', async () => {
    const r = repo()
    await agentWorked(r, 'a1', { files: { 'logo.png': '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' } })
    const [a] = (await review.list(r.root)).agents
    expect(a.files).toEqual([{ path: 'logo.png', status: 'added', additions: 0, deletions: 0, binary: true }])
    expect(await review.file(r.root, 'a1', 'logo.png')).toMatchObject({ binary: true, oldText: null, newText: null })
  })
})

describe('merging', () => {
  it('merge --all puts two agents writing different files on the current branch, checkout clean, branches and worktrees gone', async () => {
    const r = repo()
    const w1 = await agentWorked(r, 'a1', { files: { 'src/app.ts': 'export const answer = 43\n' } })
    const w2 = await agentWorked(r, 'a2', { files: { 'src/lexer.ts': 'export function lex(src: string) {\n  return src.trim().split(/\\s+/)\n}\n' } })
    const head = r.git('rev-parse', 'HEAD')
    const out = await review.merge(r.root, { all: true, strategy: 'merge' })
    expect(out.stopped).toBeNull()
    expect(out.merged.map((m) => m.agentId)).toEqual(['a1', 'a2'])
    expect(out.into).toBe('main')
    expect(r.read('src/app.ts')).toBe('export const answer = 43\n')
    expect(r.read('src/lexer.ts')).toContain('src.trim()')
    expect(r.git('status', '--porcelain=v1', '--untracked-files=all')).toBe('')
    expect(existsSync(join(r.root, '.git', 'MERGE_HEAD'))).toBe(false)
    // Two merge commits, each with the agent's tip as second parent.
    expect(r.git('rev-list', '--count', `${head}..HEAD`, '--merges')).toBe('2')
    expect(r.git('log', '-1', '--format=%s')).toMatch(/^Merge fanout\/a2 \(coder: work of a2\)$/)
    expect(r.git('rev-parse', 'ORIG_HEAD')).toBe(out.merged[0].commit)
    expect(agentBranches(r)).toEqual([])
    expect(existsSync(w1.path) || existsSync(w2.path)).toBe(false)
    // "All" of a session's agents skips the ones already gone.
    expect(await review.merge(r.root, { all: true, agents: ['a1', 'a2'], strategy: 'merge' })).toMatchObject({ merged: [], stopped: null })
    const after = await review.list(r.root, ['a1', 'a2'])
    expect(after.agents).toEqual([])
    expect(after.gone.map((g) => [g.agentId, g.outcome?.action, g.outcome?.commit])).toEqual([
      ['a1', 'merged', out.merged[0].commit],
      ['a2', 'merged', out.merged[1].commit]
    ])
  })

  it('squash puts the work on the branch as one ordinary commit listing the agent commits', async () => {
    const r = repo()
    const wt = await agentWorked(r, 'a1', { files: { 'a.txt': 'a\n' }, description: 'first' })
    writeFileSync(join(wt.path, 'b.txt'), 'b\n')
    await agentWorked(r, 'a1', { files: { 'c.txt': 'c\n' }, description: 'second' }) // resumed: picks its worktree up again
    const out = await review.merge(r.root, { agents: ['a1'], strategy: 'squash' })
    expect(out.merged).toHaveLength(1)
    expect(r.git('rev-list', '--count', '--merges', 'HEAD')).toBe('0')
    expect(r.git('log', '-1', '--format=%B')).toBe('coder: first\n\nSquashed from fanout/a1:\n- Agent coder: first\n- Agent coder: second')
    expect(r.git('show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual(['a.txt', 'b.txt', 'c.txt'])
    expect(agentBranches(r)).toEqual([])
  })

  it('two agents writing the same file differently: preview names the conflict, merge stops at it, nothing half-merged, the branch kept', async () => {
    const r = repo()
    await agentWorked(r, 'a1', { files: { 'src/app.ts': 'export const answer = 1\n' }, agentType: 'fixer' })
    await agentWorked(r, 'a2', { files: { 'src/app.ts': 'export const answer = 2\n' }, agentType: 'tuner' })
    await agentWorked(r, 'a3', { files: { 'notes.md': 'notes\n' }, agentType: 'writer' })

    const preview = await review.preview(r.root)
    expect(preview.agents.map((a) => [a.agentId, a.againstHead.clean])).toEqual([
      ['a1', true],
      ['a2', true],
      ['a3', true]
    ])
    const pair = preview.pairs.find((p) => p.a === 'a1' && p.b === 'a2')!
    expect(pair).toEqual({ a: 'a1', b: 'a2', overlap: ['src/app.ts'], result: { clean: false, conflicts: ['src/app.ts'] } })
    expect(preview.pairs.find((p) => p.a === 'a1' && p.b === 'a3')).toEqual({ a: 'a1', b: 'a3', overlap: [], result: { clean: true, conflicts: [] } })
    // a3 goes before a2: the order avoids the conflict where it can, and stops at a2 naming a1 and the file.
    expect(preview.order).toEqual(['a1', 'a3'])
    expect(preview.blocked).toMatchObject({ agentId: 'a2', reason: 'conflict', files: ['src/app.ts'], with: ['a1'] })
    expect(preview.blocked!.message).toBe('The tuner agent a2 (fanout/a2) conflicts with agent a1 in src/app.ts.')
    // The dry runs touched nothing.
    expect(checkoutSnapshot(r).status).toBe('')

    const out = await review.merge(r.root, { all: true, strategy: 'merge' })
    expect(out.merged.map((m) => m.agentId)).toEqual(['a1', 'a3'])
    expect(out.stopped).toMatchObject({ agentId: 'a2', reason: 'conflict', files: ['src/app.ts'], with: ['a1'] })
    expect(out.stopped!.message).toContain('src/app.ts')
    expect(out.notMerged).toEqual(['a2'])
    const snap = checkoutSnapshot(r)
    expect(snap).toMatchObject({ status: '', mergeHead: false })
    expect(r.read('src/app.ts')).toBe('export const answer = 1\n')
    expect(readFileSync(join(r.root, 'src/app.ts'), 'utf8')).not.toContain('<<<<<<<')
    expect(agentBranches(r)).toEqual(['fanout/a2'])
    expect((await review.list(r.root)).agents.map((a) => [a.agentId, a.state])).toEqual([['a2', 'ready']])

    // Asking again for the conflicting one alone: refused the same way, nothing changes.
    const again = await review.merge(r.root, { agents: ['a2'], strategy: 'squash' })
    expect(again.merged).toEqual([])
    expect(again.stopped).toMatchObject({ reason: 'conflict', files: ['src/app.ts'], with: [] })
    expect(checkoutSnapshot(r)).toEqual(snap)
  })

  it('a dirty checkout refuses, naming the files, and nothing changes', async () => {
    const r = repo()
    await agentWorked(r, 'a1', { files: { 'notes.md': 'notes\n' } })
    r.write('README.md', '# edited by the person\n')
    const before = checkoutSnapshot(r)
    const out = await review.merge(r.root, { all: true, strategy: 'merge' })
    expect(out.merged).toEqual([])
    expect(out.stopped).toMatchObject({ agentId: 'a1', reason: 'dirty', files: ['README.md'] })
    expect(out.stopped!.message).toMatch(/has uncommitted changes \(README.md\); commit or stash them first/)
    expect(checkoutSnapshot(r)).toEqual(before)
    expect(agentBranches(r)).toEqual(['fanout/a1'])
  })

  it('refuses while a merge of your own is in progress, on a detached HEAD, and when untracked files would be overwritten', async () => {
    const r = repo()
    await agentWorked(r, 'a1', { files: { 'notes.md': 'from the agent\n' } })
    r.write('notes.md', 'mine, untracked\n')
    const out = await review.merge(r.root, { agents: ['a1'], strategy: 'merge' })
    expect(out.stopped).toMatchObject({ reason: 'untracked', files: ['notes.md'] })
    expect(r.read('notes.md')).toBe('mine, untracked\n')
    expect(checkoutSnapshot(r)).toMatchObject({ status: '?? notes.md', mergeHead: false })

    r.git('checkout', '--quiet', '--detach')
    expect((await review.merge(r.root, { agents: ['a1'], strategy: 'merge' })).stopped).toMatchObject({ reason: 'detached' })
    r.git('checkout', '--quiet', 'main')
    writeFileSync(join(r.root, '.git', 'MERGE_HEAD'), r.git('rev-parse', 'HEAD') + '\n')
    expect((await review.merge(r.root, { agents: ['a1'], strategy: 'merge' })).stopped).toMatchObject({ reason: 'operation' })
    expect(agentBranches(r)).toEqual(['fanout/a1'])
  })

  it('does not merge or discard an agent that is still running', async () => {
    const r = repo()
    await agentWorked(r, 'a1', { files: { 'notes.md': 'x\n' }, unfinished: true })
    const live = new AgentWorkReview({ isLive: (id) => id === 'a1' })
    expect((await live.list(r.root)).agents[0].state).toBe('running')
    expect((await live.merge(r.root, { agents: ['a1'], strategy: 'merge' })).stopped).toMatchObject({ reason: 'running' })
    const all = await live.merge(r.root, { all: true, strategy: 'merge' })
    expect(all).toMatchObject({ merged: [], stopped: null, skipped: ['coder a1 is still working'] })
    await expect(live.discard(r.root, 'a1')).rejects.toMatchObject({ code: 'conflict' })
    expect((await live.preview(r.root)).agents).toEqual([])
  })

  it('commits work a crash left uncommitted in the worktree before merging it', async () => {
    const r = repo()
    await agentWorked(r, 'a1', { files: { 'half.md': 'half done\n' }, unfinished: true })
    const [a] = (await review.list(r.root)).agents
    expect(a).toMatchObject({ state: 'ready', files: [], uncommitted: [{ path: 'half.md', status: 'added' }] })
    const out = await review.merge(r.root, { agents: ['a1'], strategy: 'merge' })
    expect(out.merged).toHaveLength(1)
    expect(r.read('half.md')).toBe('half done\n')
    expect(r.git('log', '-1', '--format=%s', 'HEAD^2')).toBe('Agent coder: work of a1 (saved from an interrupted run)')
  })

  it('an agent whose changes are all on the branch already (squashed by hand) makes no empty commit: it is only cleaned up', async () => {
    const r = repo()
    await agentWorked(r, 'a1', { files: { 'notes.md': 'x\n' } })
    r.git('merge', '--quiet', '--squash', 'fanout/a1')
    r.git('commit', '--quiet', '-m', 'squashed by hand')
    const head = r.git('rev-parse', 'HEAD')
    const out = await review.merge(r.root, { agents: ['a1'], strategy: 'squash' })
    expect(out.merged).toMatchObject([{ agentId: 'a1', commit: head, files: 0 }])
    expect(r.git('rev-parse', 'HEAD')).toBe(head)
    expect(agentBranches(r)).toEqual([])
  })

  it('an agent whose work is already on the branch (merged by hand) is only cleaned up', async () => {
    const r = repo()
    await agentWorked(r, 'a1', { files: { 'notes.md': 'x\n' } })
    r.git('merge', '--quiet', '--no-edit', 'fanout/a1')
    const head = r.git('rev-parse', 'HEAD')
    expect((await review.list(r.root)).agents[0].state).toBe('merged')
    const out = await review.merge(r.root, { all: true, strategy: 'merge' })
    expect(out.merged).toMatchObject([{ agentId: 'a1', commit: head, files: 0, cleanup: null }])
    expect(r.git('rev-parse', 'HEAD')).toBe(head)
    expect(agentBranches(r)).toEqual([])
  })
})

describe('discarding', () => {
  it('removes the worktree (uncommitted files included) and the branch once confirmed, recording it', async () => {
    const r = repo()
    const wt = await agentWorked(r, 'a1', { files: { 'notes.md': 'x\n' } })
    writeFileSync(join(wt.path, 'wip.txt'), 'unsaved\n')
    const [a] = (await review.list(r.root)).agents
    const head = r.git('rev-parse', 'HEAD')
    // Confirmed against an older tip: the person did not see the newer work, so nothing goes.
    await expect(review.discard(r.root, 'a1', a.baseCommit)).rejects.toMatchObject({ code: 'conflict' })
    expect(existsSync(wt.path)).toBe(true)
    const out = await review.discard(r.root, 'a1', a.tip)
    expect(out).toEqual({ agentId: 'a1', branch: 'fanout/a1', removedWorktree: true, deletedBranch: true, lostCommits: 1, lostFiles: 2 })
    expect(existsSync(wt.path)).toBe(false)
    expect(agentBranches(r)).toEqual([])
    expect(r.git('rev-parse', 'HEAD')).toBe(head)
    expect((await review.list(r.root, ['a1'])).gone).toEqual([
      { agentId: 'a1', branch: 'fanout/a1', outcome: expect.objectContaining({ action: 'discarded', commit: a.tip }) }
    ])
  })

  it('discards a kept branch whose worktree folder was deleted by hand', async () => {
    const r = repo()
    const wt = await agentWorked(r, 'a1', { files: { 'notes.md': 'x\n' } })
    r.git('worktree', 'remove', '--force', wt.path)
    const [a] = (await review.list(r.root)).agents
    expect(a.worktreePath).toBeNull()
    expect(await review.discard(r.root, 'a1')).toMatchObject({ removedWorktree: false, deletedBranch: true })
    expect(agentBranches(r)).toEqual([])
  })
})

describe('naming agents', () => {
  it('takes an id, a branch, a unique id prefix or an agent type, and says what exists when nothing matches', async () => {
    const r = repo()
    await agentWorked(r, 'abcd1234', { files: { 'a.md': 'a\n' }, agentType: 'writer' })
    await agentWorked(r, 'abce5678', { files: { 'b.md': 'b\n' }, agentType: 'fixer' })
    const ids = async (...names: string[]) => (await review.resolve(r.root, names)).map((b) => b.agentId)
    expect(await ids('abcd1234', 'fanout/abce5678')).toEqual(['abcd1234', 'abce5678'])
    expect(await ids('abcd')).toEqual(['abcd1234'])
    expect(await ids('fixer')).toEqual(['abce5678'])
    await expect(ids('abc')).rejects.toThrow(/No agent branch matches "abc"\. Agent branches here: fanout\/abcd1234, fanout\/abce5678\./)
    await expect(ids('fanout/abc')).rejects.toThrow(/matches 2 agent branches/)
    await expect(review.list(join(r.sandbox))).rejects.toBeInstanceOf(ReviewError)
  })
})

describe("the agent definitions' history", () => {
  it('learns what review did with a run’s work: merged or discarded replaces the run’s outcome', async () => {
    const r = repo()
    const dataDir = join(r.root, '..', `data-${Math.random().toString(36).slice(2)}`)
    const run = { ts: 1, sessionId: 's', agentType: 'writer', outcome: 'completed' as const, costUsd: 0.1, tokens: 10, turns: 2, durationMs: 5 }
    await appendAgentRun(dataDir, { ...run, agentId: 'a1' })
    await appendAgentRun(dataDir, { ...run, agentId: 'a2' })
    await agentWorked(r, 'a1', { files: { 'one.md': '1\n' } })
    await agentWorked(r, 'a2', { files: { 'two.md': '2\n' } })
    const recording = new AgentWorkReview({ dataDir })
    await recording.merge(r.root, { agents: ['a1'], all: false, strategy: 'merge' })
    await recording.discard(r.root, 'a2')
    const runs = [...historyRuns(await readAgentHistory(dataDir)).values()][0]
    expect(runs.map((x) => [x.agentId, x.outcome])).toEqual([
      ['a1', 'merged'],
      ['a2', 'discarded']
    ])
    rmSync(dataDir, { recursive: true, force: true })
  })
})
