// What an agent changed: the commits on its branch, the files merging would bring (with line counts), and
// what its worktree holds that is not committed yet. Read-only.
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentChanges, AgentCommit, ChangedFile, FileChangeStatus } from '../../../shared/review'
import { pathspecWithoutPlaceholders } from '../security/placeholders'
import { runGit, runGitRaw, tryGit } from '../worktrees/git'
import type { WorktreeGitDirs } from '../worktrees'
import type { AgentBranch } from './agent-branches'

const MAX_COMMITS = 200

/** git's order: by bytes, so README.md comes before docs/. */
const byPath = (a: ChangedFile, b: ChangedFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)

const STATUS: Record<string, FileChangeStatus> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'type-changed' }

/** Joins `git diff --name-status -z` and `git diff --numstat -z` (both with -M) into one list. */
export function parseDiffListing(nameStatus: string, numstat: string): ChangedFile[] {
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>()
  const n = numstat.split('\0')
  for (let i = 0; i < n.length; i++) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(n[i])
    if (!m) continue
    let path = m[3]
    // A rename or copy: the paths follow as two more entries (old, new).
    if (path === '') {
      path = n[i + 2] ?? ''
      i += 2
    }
    const binary = m[1] === '-' && m[2] === '-'
    counts.set(path, { additions: binary ? 0 : Number(m[1]), deletions: binary ? 0 : Number(m[2]), binary })
  }
  const files: ChangedFile[] = []
  const s = nameStatus.split('\0')
  for (let i = 0; i < s.length; i++) {
    const code = s[i]
    if (!code) continue
    const status = STATUS[code[0]]
    if (!status) continue
    let path = s[++i] ?? ''
    let oldPath: string | undefined
    if (status === 'renamed' || status === 'copied') {
      oldPath = path
      path = s[++i] ?? ''
    }
    const c = counts.get(path) ?? { additions: 0, deletions: 0, binary: false }
    files.push({ path, ...(oldPath !== undefined ? { oldPath } : {}), status, ...c })
  }
  return files.sort(byPath)
}

export async function diffFiles(dir: string, from: string, to: string): Promise<ChangedFile[]> {
  const [names, counts] = await Promise.all([
    runGitRaw(dir, ['diff', '--no-color', '--no-ext-diff', '--name-status', '-z', '-M', from, to]),
    runGitRaw(dir, ['diff', '--no-color', '--no-ext-diff', '--numstat', '-z', '-M', from, to])
  ])
  return parseDiffListing(names, counts)
}

export function parseLog(out: string): AgentCommit[] {
  return out
    .split('\x1e')
    .map((r) => r.replace(/^\n/, ''))
    .filter(Boolean)
    .map((r) => {
      const [sha, subject, author, at] = r.split('\0')
      return { sha, subject: subject ?? '', author: author ?? '', date: Number(at) * 1000 || 0 }
    })
}

export async function commitsBetween(dir: string, from: string, to: string): Promise<AgentCommit[]> {
  return parseLog(await runGit(dir, ['log', `--max-count=${MAX_COMMITS}`, '--format=%H%x00%s%x00%an%x00%ct%x1e', `${from}..${to}`]))
}

/** Where merging the branch into `head` starts from: their merge base (the agent's base when there is none). */
export async function mergeBase(dir: string, head: string | null, branch: AgentBranch): Promise<string> {
  if (!head) return branch.baseCommit
  return (await tryGit(dir, ['merge-base', head, branch.tip])) || branch.baseCommit
}

const isAncestor = async (dir: string, a: string, b: string) => (await tryGit(dir, ['merge-base', '--is-ancestor', a, b])) !== null

export async function agentChanges(dir: string, head: string | null, branch: AgentBranch): Promise<AgentChanges> {
  const base = await mergeBase(dir, head, branch)
  const [commits, files, uncommitted] = await Promise.all([
    commitsBetween(dir, base, branch.tip),
    diffFiles(dir, base, branch.tip),
    worktreeChanges(branch.worktreeDirs)
  ])
  const onHead = head !== null && (await isAncestor(dir, branch.tip, head))
  const state = branch.live ? 'running' : branch.tip === branch.baseCommit && !uncommitted.length ? 'empty' : onHead && !uncommitted.length ? 'merged' : 'ready'
  return {
    agentId: branch.agentId,
    branch: branch.branch,
    tip: branch.tip,
    baseCommit: branch.baseCommit,
    worktreePath: branch.worktreePath,
    ...(branch.agentType ? { agentType: branch.agentType } : {}),
    ...(branch.description ? { description: branch.description } : {}),
    state,
    commits,
    files,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    uncommitted
  }
}

/**
 * Changes in a worktree not committed to its branch: edits to tracked files and new files (ignored ones
 * aside, and the Bash sandbox's placeholders, which are not files of the agent's).
 */
export async function worktreeChanges(dirs: WorktreeGitDirs | null): Promise<ChangedFile[]> {
  if (!dirs) return []
  // The worktree's git folders as Fanout recorded them, never its own `.git` file (worktrees/git-dirs.ts).
  const path = dirs.workTree
  const tracked = await tryGit(path, ['rev-parse', '--verify', '--quiet', 'HEAD'], { dirs })
  if (!tracked) return []
  const only = pathspecWithoutPlaceholders(path)
  const [names, counts, others] = await Promise.all([
    // Submodules by their commit only (see worktrees/agent-branch.ts uncommittedChanges).
    runGitRaw(path, ['diff', '--no-color', '--no-ext-diff', '--ignore-submodules=dirty', '--name-status', '-z', '-M', 'HEAD', ...only], { dirs }),
    runGitRaw(path, ['diff', '--no-color', '--no-ext-diff', '--ignore-submodules=dirty', '--numstat', '-z', '-M', 'HEAD', ...only], { dirs }),
    runGitRaw(path, ['ls-files', '--others', '--exclude-standard', '-z', ...only], { dirs })
  ])
  const files = parseDiffListing(names, counts)
  for (const rel of others.split('\0').filter(Boolean)) files.push({ path: rel, status: 'added', ...(await countNewFile(join(path, rel))) })
  return files.sort(byPath)
}

const COUNT_LIMIT = 4 * 1024 * 1024

/** Lines of a new file, and whether it is binary (a NUL byte in its first 8000 bytes, as git decides). */
async function countNewFile(file: string): Promise<{ additions: number; deletions: number; binary: boolean }> {
  try {
    const handle = await open(file, 'r')
    try {
      const { size } = await handle.stat()
      const buf = Buffer.alloc(Math.min(size, COUNT_LIMIT))
      await handle.read(buf, 0, buf.length, 0)
      if (buf.subarray(0, 8000).includes(0)) return { additions: 0, deletions: 0, binary: true }
      let lines = 0
      for (const byte of buf) if (byte === 10) lines++
      if (buf.length && buf[buf.length - 1] !== 10) lines++
      return { additions: lines, deletions: 0, binary: false }
    } finally {
      await handle.close()
    }
  } catch {
    return { additions: 0, deletions: 0, binary: false }
  }
}
