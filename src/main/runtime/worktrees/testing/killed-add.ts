// Test fixture: what a `git worktree add` killed part way leaves, built step by step in the order git itself
// writes it (builtin/worktree.c: add() creates the branch; add_worktree() makes `worktrees/<name>/`, writes
// `locked` "initializing", makes the worktree folder, writes `gitdir`, the worktree's `.git` file, a placeholder
// HEAD, `commondir`, then points HEAD at the branch, checks the files out (`reset --hard`) and unlocks). A kill
// can land after any of these writes, and every one must be recoverable.
import { execFileSync } from 'node:child_process'
import { mkdirSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pendingAddFile } from '../pending-add'
import { git, type TempRepo } from './temp-repo'

export const ADD_STEPS = [
  'branch',
  'admin-folder',
  'locked',
  'folder',
  'gitdir',
  'dot-git',
  'head-placeholder',
  'commondir',
  'head-set',
  'some-files',
  'all-files',
  'unlocked'
] as const
export type AddStep = (typeof ADD_STEPS)[number]

export interface KilledAddOptions {
  /** The agent's branch existed (it ran before and its work was kept), so git made none. */
  reattach?: boolean
  /** What newer git writes in HEAD before pointing it at the branch. */
  placeholder?: string
  /** Fanout's record of the add, naming this process as its maker (this build writes one; older ones did not). */
  recordFor?: { pid: number; hostname: string }
  /** The kill came inside the step's own write: the file it writes is there, empty (one of TORN_STEPS). */
  torn?: boolean
}

/** The steps that write one file, which a kill inside the write leaves empty. */
export const TORN_STEPS = ['locked', 'gitdir', 'dot-git', 'head-placeholder', 'commondir'] as const

export interface KilledAdd {
  path: string
  adminDir: string
  /** The commit being checked out (the start commit, or the kept branch's tip). */
  checkout: string
}

/** Leaves `fanout/<agentId>` half added at `path`, as a kill just after `step` does. */
export function killedAdd(r: TempRepo, agentId: string, path: string, step: AddStep, opts: KilledAddOptions = {}): KilledAdd {
  const branch = `fanout/${agentId}`
  const common = realpathSync(join(r.root, '.git'))
  const adminDir = join(common, 'worktrees', agentId)
  const upTo = ADD_STEPS.indexOf(step)
  const at = (s: AddStep) => upTo >= ADD_STEPS.indexOf(s)
  const start = git(r.root, 'rev-parse', 'HEAD')
  const checkout = opts.reattach ? git(r.root, 'rev-parse', branch) : start
  if (opts.recordFor) {
    // As create-worktree.ts writes it before running git (pending-add.ts).
    const baseCommit = opts.reattach ? git(r.root, 'merge-base', start, branch) : start
    const about = { agentId, baseCommit, repoRoot: r.root, relativeCwd: '', createdAt: new Date().toISOString() }
    const file = pendingAddFile(common, agentId)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, JSON.stringify({ version: 1, ...about, owner: opts.recordFor, path, checkout }))
  }
  if (!opts.reattach) git(r.root, 'branch', '--no-track', branch, start)
  const env = { ...cleanEnv(), GIT_DIR: join(path, '.git'), GIT_WORK_TREE: path }
  const inWorktree = (...args: string[]) => execFileSync('git', args, { cwd: path, env, stdio: 'ignore' })
  if (at('admin-folder')) mkdirSync(adminDir, { recursive: true })
  // The step's own file is written empty when the kill came inside its write (`torn`).
  const write = (s: AddStep, file: string, text: string) => writeFileSync(file, opts.torn && s === step ? '' : text)
  if (at('locked')) write('locked', join(adminDir, 'locked'), 'initializing\n')
  if (at('folder')) mkdirSync(path, { recursive: true })
  if (at('gitdir')) write('gitdir', join(adminDir, 'gitdir'), `${join(realpathSync(path), '.git')}\n`)
  if (at('dot-git')) write('dot-git', join(path, '.git'), `gitdir: ${adminDir}\n`)
  if (at('head-placeholder')) write('head-placeholder', join(adminDir, 'HEAD'), `${opts.placeholder ?? '0'.repeat(40)}\n`)
  if (at('commondir')) write('commondir', join(adminDir, 'commondir'), '../..\n')
  if (at('head-set')) inWorktree('symbolic-ref', 'HEAD', `refs/heads/${branch}`)
  if (at('some-files')) {
    // git checks files out under the index lock and writes the index last: killed midway, some files and the lock.
    writeFileSync(join(adminDir, 'index.lock'), '')
    writeFileSync(join(path, 'README.md'), git(r.root, 'show', `${checkout}:README.md`) + '\n')
  }
  if (at('all-files')) {
    unlinkSync(join(adminDir, 'index.lock'))
    inWorktree('reset', '--hard', '--quiet')
  }
  if (at('unlocked')) unlinkSync(join(adminDir, 'locked'))
  return { path, adminDir, checkout }
}

function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')))
}
