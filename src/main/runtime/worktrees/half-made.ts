// A worktree whose `git worktree add` was killed part way: git registered it and left its `locked` file with the
// reason "initializing" (removed only once the checkout is complete), and only some files are checked out. Taken
// as it is, the agent's commit would record every missing file as deleted on its branch. So such a worktree, when
// the process that was making it is gone, is removed and made again; it is removed only once proved to hold no
// agent work (its branch and HEAD still at the start commit, every file in it one of that commit's files as they
// are there), and nothing is ever committed from it (commitAll refuses).
import { createHash } from 'node:crypto'
import { lstat, readdir, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import { readConfigBytes, readConfigFile } from '../store/read-config'
import { processState } from '../store/process-identity'
import { runGit, runGitRaw, tryGit } from './git'
import type { WorktreeGitDirs } from './git-dirs'
import type { WorktreeMetadata } from './metadata'
import { WorktreeError } from './repo'

/** True while git's own "initializing" lock is in the admin folder: the checkout never finished. */
export function isHalfMade(adminDir: string): boolean {
  const read = readConfigFile(join(adminDir, 'locked'), 4096)
  // git writes the reason in the user's language; Fanout runs `worktree add` with LC_ALL=C (create-worktree.ts).
  return 'text' in read && read.text.trim() === 'initializing'
}

/** Whether the process that was making the worktree may still be at it (another live Fanout process). */
export function makerAlive(meta: WorktreeMetadata | null): boolean {
  if (!meta?.owner || meta.owner.pid === process.pid) return false
  return processState(meta.owner) !== 'gone'
}

/**
 * What git writes in a new worktree's HEAD before it points it at the start commit, so the folder counts as a
 * repository meanwhile: the null object id (or, on newer git, `ref: refs/heads/.invalid`). A kill then leaves a
 * worktree that never had a commit checked out, and a HEAD that breaks `git log --all` in the person's
 * repository until the worktree is gone.
 */
function headPlaceholder(head: string): boolean {
  return /^0{40}(0{24})?$/.test(head) || head === 'ref: refs/heads/.invalid'
}

const FILE_MODES = new Set(['100644', '100755', '120000'])

/** The object id git gives `bytes` as a blob, in the repository's hash (sha1 or sha256, told by `base`'s length). */
function blobId(bytes: Buffer, base: string): string {
  const h = createHash(base.length === 64 ? 'sha256' : 'sha1')
  h.update(`blob ${bytes.length}\0`)
  h.update(bytes)
  return h.digest('hex')
}

/**
 * Throws unless the half-made worktree holds nothing but `base`'s own files: the branch and HEAD at `base`, and
 * every file on disk one of base's files with base's content (missing ones are what the kill left out).
 */
async function checkNoWork(repoCwd: string, dirs: WorktreeGitDirs, branch: string, base: string): Promise<void> {
  const refuse = (why: string): never => {
    throw new WorktreeError(`isolation: worktree ${dirs.workTree} was left half made by a stopped process, and ${why}; it is left as it is for you to look at`)
  }
  const tip = await tryGit(repoCwd, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`])
  if (tip !== null && tip !== base) refuse(`its branch ${branch} has moved from ${base.slice(0, 12)}`)
  const headFile = readConfigFile(join(dirs.gitDir, 'HEAD'), 4096)
  const head = 'text' in headFile ? headFile.text.trim() : ''
  if (!headPlaceholder(head) && head !== base && head !== `ref: refs/heads/${branch}`) refuse('its HEAD is not at its start commit')
  const files = new Map<string, { mode: string; id: string }>()
  for (const line of (await runGitRaw(repoCwd, ['ls-tree', '-r', '-z', '--full-tree', base])).split('\0')) {
    const m = /^(\d+) \w+ ([0-9a-f]+)\t(.*)$/s.exec(line)
    if (m) files.set(m[3], { mode: m[1], id: m[2] })
  }
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(join(dirs.workTree, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name
      if (path === '.git') continue
      const abs = join(dirs.workTree, path)
      if (e.isDirectory()) {
        await walk(path)
        continue
      }
      const want = files.get(path)
      if (!want || !FILE_MODES.has(want.mode)) refuse(`${path} in it is not a file of its start commit`)
      const info = await lstat(abs)
      let bytes: Buffer | null = null
      if (info.isSymbolicLink()) bytes = want?.mode === '120000' ? Buffer.from(await readlink(abs)) : null
      else if (info.isFile() && want?.mode !== '120000') {
        const read = readConfigBytes(abs, 512 * 1024 * 1024)
        bytes = 'bytes' in read ? read.bytes : null
      }
      if (!bytes || blobId(bytes, base) !== want?.id) refuse(`${path} in it differs from its start commit`)
    }
  }
  await walk('')
}

/** Removes a half-made worktree proved to hold no agent work (see checkNoWork); its branch, at `base`, stays. */
export async function removeHalfMade(repoCwd: string, dirs: WorktreeGitDirs, branch: string, base: string): Promise<void> {
  await checkNoWork(repoCwd, dirs, branch, base)
  // Twice --force: git refuses to remove a locked worktree otherwise.
  await runGit(repoCwd, ['worktree', 'remove', '--force', '--force', dirs.workTree])
}
