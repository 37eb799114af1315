// What a kill leaves in a worktree that is not the agent's work. A Write or Edit writes a temp file beside its
// target and renames it over the target (store/atomic-file.ts); a kill between the two leaves the temp file
// (`.<name>.<pid>.<random>.tmp`), and the agent's file never got that content. Committed, it would land on
// the agent's branch, and with a merge in the person's repository, as if it were work. So every step that
// commits what a worktree holds (finishing the agent, cleaning up an orphan, a merge saving an interrupted
// run's changes) removes such files first — only those whose writing process is gone: a write in flight,
// this process's or another live one's, is left alone.
import { lstat, realpath, unlink } from 'node:fs/promises'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { atomicTempWriter } from '../store/atomic-file'
import { processState } from '../store/process-identity'
import { runGitRaw } from './git'
import type { WorktreeGitDirs } from './git-dirs'

/** Removes the temp files of atomic writes a killed process left among the worktree's untracked files; returns their paths (relative). */
export async function removeCrashDebris(dirs: WorktreeGitDirs): Promise<string[]> {
  const listed = await runGitRaw(dirs.workTree, ['ls-files', '-z', '--others', '--exclude-standard'], { dirs })
  const candidates = listed.split('\0').filter((rel) => {
    const pid = rel ? atomicTempWriter(basename(rel)) : null
    return pid !== null && processState({ pid, hostname: hostname() }) === 'gone'
  })
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
