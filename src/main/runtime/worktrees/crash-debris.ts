// What a kill leaves in a worktree that is not the agent's work, removed by every step that commits what a
// worktree holds (finishing the agent, cleaning up an orphan, a merge saving an interrupted run's changes)
// before it looks:
// - A Write or Edit writes a temp file beside its target and renames it over the target (store/atomic-file.ts);
//   a kill between the two leaves the temp file (`.<name>.<pid>.<random>.tmp`), and the agent's file never got
//   that content. Committed, it would land on the agent's branch, and with a merge in the person's repository,
//   as if it were work. Only one whose writing process is gone goes: a write in flight is left alone.
// - git's `index.lock` in the worktree's admin folder, left by a git command a kill stopped (Fanout's own
//   `git add -A` or `git status` while committing, or one the agent ran): while it is there every later commit
//   of the worktree fails, and the agent's work would stay uncommitted for good. Only a lock made before this
//   process started goes, and only while no sandboxed command runs in the worktree (its placeholders would be
//   there): this process's git runs one command at a time per repository (repo-queue.ts), so no command of
//   its own holds it then.
import { lstat, realpath, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { deadWriterTemp } from '../store/atomic-file'
import { placeholdersUnder } from '../security/placeholders'
import { runGitRaw } from './git'
import type { WorktreeGitDirs } from './git-dirs'

/** When this process started (ms since the epoch). */
const startedAt = Date.now() - process.uptime() * 1000

/**
 * Removes what a killed process left in the worktree (above): the temp files of its atomic writes (among the
 * untracked files) and a stale index lock. Returns what it removed (paths relative to the worktree; the lock
 * as `.git/index.lock`).
 */
export async function removeCrashDebris(dirs: WorktreeGitDirs): Promise<string[]> {
  const lock = (await removeStaleIndexLock(dirs)) ? ['.git/index.lock'] : []
  return [...lock, ...(await removeTempFiles(dirs))]
}

async function removeStaleIndexLock(dirs: WorktreeGitDirs): Promise<boolean> {
  const path = join(dirs.gitDir, 'index.lock')
  const info = await lstat(path).catch(() => null)
  if (!info?.isFile() || info.mtimeMs >= startedAt) return false
  if (placeholdersUnder(dirs.workTree).length || placeholdersUnder(dirs.gitDir).length) return false
  return unlink(path).then(
    () => true,
    () => false
  )
}

async function removeTempFiles(dirs: WorktreeGitDirs): Promise<string[]> {
  const listed = await runGitRaw(dirs.workTree, ['ls-files', '-z', '--others', '--exclude-standard'], { dirs })
  const candidates = listed.split('\0').filter((rel) => rel !== '' && deadWriterTemp(basename(rel)))
  if (!candidates.length) return []
  const root = await realpath(dirs.workTree)
  const removed: string[] = []
  for (const rel of candidates) {
    const abs = join(root, rel)
    try {
      // Only a regular file, in the folder git listed it in (no link swapped in on the way since).
      if (!(await lstat(abs)).isFile() || (await realpath(dirname(abs))) !== dirname(abs)) continue
      await unlink(abs)
      removed.push(rel)
    } catch {
      // Gone already, or not removable: left as it is (git then shows it like any file).
    }
  }
  return removed
}
