// The little the environment block needs to say about git (is this a repository, which branch), read-only.
// It runs for every agent's system prompt, so it reads `.git` itself instead of spawning git (tens of ms
// per spawn): `.git` is a folder, or in a linked worktree a file naming the real git dir; HEAD names the
// branch. Anything unusual (GIT_DIR set, an unreadable HEAD) falls back to asking git.
import { stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { readConfigFile } from '../store/read-config'
import { readRepo, WorktreeError } from './repo'

export interface GitProbe {
  isGitRepo: boolean
  /** Checked-out branch; null when detached or not a repository. */
  branch: string | null
  /** Top of the checkout; null when not a repository. */
  repoRoot: string | null
}

const NOT_A_REPO: GitProbe = { isGitRepo: false, branch: null, repoRoot: null }

/** Where a `.git` (or HEAD) that is a pipe, a device or huge leads: nowhere; git itself would hang on a HEAD pipe. */
const UNREADABLE = Symbol('unreadable')

async function gitDirOf(top: string): Promise<string | null | typeof UNREADABLE> {
  const dotGit = join(top, '.git')
  const s = await stat(dotGit).catch(() => null)
  if (!s) return null
  if (s.isDirectory()) return dotGit
  // `.git` and HEAD are the repository's: read as bounded regular files, so a pipe there cannot hang the probe.
  const read = readConfigFile(dotGit, 64 * 1024)
  if ('error' in read) return UNREADABLE
  if (!('text' in read)) return null
  const text = read.text
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text)
  if (!m) return null
  return isAbsolute(m[1]) ? m[1] : resolve(top, m[1])
}

/**
 * The top of the checkout holding `cwd` and its git folder, read from `.git` without running git; null when there
 * is none or `.git` is not a plain folder or gitdir file (then ask git).
 */
export async function findGitDir(cwd: string): Promise<{ top: string; gitDir: string } | null> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (await stat(join(dir, '.git')).catch(() => null)) {
      const gitDir = await gitDirOf(dir)
      return typeof gitDir === 'string' ? { top: dir, gitDir } : null
    }
    if (dirname(dir) === dir) return null
  }
}

async function fastProbe(cwd: string): Promise<GitProbe | null> {
  let dir = resolve(cwd)
  for (;;) {
    const s = await stat(join(dir, '.git')).catch(() => null)
    if (s) {
      const gitDir = await gitDirOf(dir)
      if (gitDir === UNREADABLE) return NOT_A_REPO
      if (!gitDir) return null
      const read = readConfigFile(join(gitDir, 'HEAD'), 4096)
      if ('error' in read) return NOT_A_REPO
      const head = 'text' in read ? read.text.trim() : null
      if (!head) return null
      const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head)
      if (ref) return { isGitRepo: true, branch: ref[1], repoRoot: dir }
      return /^[0-9a-f]{40,64}$/.test(head) ? { isGitRepo: true, branch: null, repoRoot: dir } : null
    }
    const parent = dirname(dir)
    if (parent === dir) return NOT_A_REPO
    dir = parent
  }
}

export async function probeGit(cwd: string): Promise<GitProbe> {
  if (!process.env.GIT_DIR && !process.env.GIT_WORK_TREE) {
    const fast = await fastProbe(cwd)
    if (fast) return fast
  }
  try {
    const repo = await readRepo(cwd)
    return { isGitRepo: true, branch: repo.branch, repoRoot: repo.repoRoot }
  } catch (err) {
    if (err instanceof WorktreeError) return NOT_A_REPO
    throw err
  }
}
