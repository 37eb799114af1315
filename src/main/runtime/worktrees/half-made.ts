// A worktree whose `git worktree add` was killed part way. git writes, in order: the agent's branch (with `-b`),
// the admin folder `<common>/worktrees/<name>/` with `locked` "initializing", the worktree folder, `gitdir`, the
// worktree's `.git` file, a placeholder HEAD, `commondir`; then it points HEAD at the branch, checks the files
// out and unlocks. A kill after any of these leaves a registration Fanout never wrote its metadata into (that
// comes after git returns): found here by Fanout's record of the add (pending-add.ts), or, for one an older build
// left, by the agent's branch named like its folder. Taken as it is, the agent's commit would record every
// missing file as deleted, and a placeholder HEAD breaks `git log --all` in the person's repository. So once
// the process that was making it is gone, it is removed (and, for an agent that runs again, made again); only
// once proved to hold no agent work (its branch and HEAD still at the commit being checked out, every file in it
// one of that commit's files as they are there), and nothing is ever committed from it (commitAll refuses).
import { createHash } from 'node:crypto'
import { lstat, readdir, readlink, realpath, rmdir, unlink } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { readConfigBytes, readConfigFile } from '../store/read-config'
import { processState } from '../store/process-identity'
import { branchFor } from './branch-name'
import { isDirectory, runGit, runGitRaw, tryGit } from './git'
import { type WorktreeGitDirs, worktreeGitDirs } from './git-dirs'
import { readMetadataIn, type WorktreeMetadata } from './metadata'
import { type PendingAdd, pendingAdds } from './pending-add'
import { WorktreeError } from './repo'

/** True while git's own "initializing" lock is in the admin folder: the checkout never finished. */
export function isHalfMade(adminDir: string): boolean {
  // git writes the reason in the user's language; Fanout runs `worktree add` with LC_ALL=C (create-worktree.ts).
  return readSmall(join(adminDir, 'locked')) === 'initializing'
}

/** Whether the process that was making the worktree may still be at it (another live Fanout process). */
export function makerAlive(owner: WorktreeMetadata['owner']): boolean {
  if (!owner || owner.pid === process.pid) return false
  return processState(owner) !== 'gone'
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

function readSmall(path: string): string | null {
  try {
    const read = readConfigFile(path, 4096)
    return 'text' in read ? read.text.trim() : null
  } catch {
    return null
  }
}

const realOr = (path: string) => realpath(path).catch(() => resolve(path))

/** A worktree git never finished adding, and the agent it was for. */
export interface HalfMadeWorktree {
  agentId: string
  /** `<common>/worktrees/<name>`; null when the kill came before git made it (only Fanout's record is left). */
  adminDir: string | null
  /** The worktree folder, as git's `gitdir` or Fanout's record names it; null when neither does. */
  path: string | null
  meta: WorktreeMetadata | null
  record: PendingAdd | null
}

/** What git writes in the admin folder before `commondir`. */
const FIRST_WRITES = new Set(['locked', 'gitdir', 'HEAD'])

/**
 * An admin folder git was still filling in: locked "initializing", its HEAD the placeholder, or holding only what
 * git writes before `gitdir` names the worktree (nothing, or a `locked` a kill left empty mid-write).
 */
function unfinished(adminDir: string, hasGitdir: boolean, names: string[]): boolean {
  if (isHalfMade(adminDir)) return true
  if (!hasGitdir) return names.every((n) => FIRST_WRITES.has(n))
  return headPlaceholder(readSmall(join(adminDir, 'HEAD')) ?? '')
}

/**
 * A half-made worktree that stops git for the whole repository: its `commondir` there but empty (a kill inside
 * git's write of it), which every command that lists worktrees fails to read, `git worktree add` among them.
 */
export function breaksGit(h: HalfMadeWorktree): boolean {
  return h.adminDir !== null && readSmall(join(h.adminDir, 'commondir')) === ''
}

/** Whether any worktree admin folder of the repository holds an empty `commondir` (a quick look, no git). */
async function anyTorn(commonDir: string): Promise<boolean> {
  const root = join(commonDir, 'worktrees')
  for (const name of await readdir(root).catch(() => [] as string[])) if (readSmall(join(root, name, 'commondir')) === '') return true
  return false
}

const TORN_WAITS = 20
const TORN_WAIT_MS = 50

/**
 * Removes the half-made worktrees whose `commondir` a kill left empty (breaksGit), once their maker is gone. Until
 * then `git worktree list`, `git branch -D`, `git log --all`, a checkout of another branch and `git gc` fail in the
 * whole repository, the person's own git included, so the review, the orphan cleanup and every new worktree would
 * stop at git's "failed to read …/commondir". git writes `commondir` before it checks anything out: only git's own
 * files go (removeHalfMade). One whose maker still runs is being written at this moment, and is waited for a
 * little; a WorktreeError names one still empty after that, and one holding what git did not write.
 */
export async function repairTornWorktrees(repo: { cwd: string; commonDir: string }, known?: HalfMadeWorktree[]): Promise<void> {
  if (!(await anyTorn(repo.commonDir))) return
  for (let wait = 0; ; wait++) {
    const torn = (known ?? (await findHalfMade(repo.cwd, repo.commonDir))).filter(breaksGit)
    known = undefined
    const busy = torn.filter((h) => makerAlive(h.meta?.owner ?? h.record?.owner))
    for (const h of torn) {
      if (busy.includes(h)) continue
      await removeHalfMade(repo.cwd, repo.commonDir, h).catch((err: unknown) => {
        if (!(err instanceof WorktreeError)) throw err
        throw new WorktreeError(`${err.message}; until it is removed, git cannot list this repository's worktrees (${join(h.adminDir!, 'commondir')} is empty)`)
      })
    }
    if (!busy.length) return
    if (wait === TORN_WAITS) {
      const owner = busy[0].meta?.owner ?? busy[0].record?.owner
      throw new WorktreeError(
        `isolation: git cannot list this repository's worktrees while ${join(busy[0].adminDir!, 'commondir')} is empty; the Fanout process making that worktree (pid ${owner?.pid}) has not finished writing it`
      )
    }
    await new Promise((r) => setTimeout(r, TORN_WAIT_MS))
  }
}

/** The repository's half-made worktrees (the agent's only, when `agentId` is given). */
export async function findHalfMade(repoCwd: string, commonDir: string, agentId?: string): Promise<HalfMadeWorktree[]> {
  const records = await Promise.all(
    (await pendingAdds(commonDir)).filter((p) => !agentId || p.agentId === agentId).map(async (p) => ({ p, real: await realOr(p.path) }))
  )
  const root = join(commonDir, 'worktrees')
  const found: HalfMadeWorktree[] = []
  const registered = new Set<string>()
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const adminDir = join(root, name)
    const gitdir = readSmall(join(adminDir, 'gitdir'))
    const path = gitdir ? await realOr(dirname(resolve(adminDir, gitdir))) : null
    if (path) registered.add(path)
    const names = await readdir(adminDir).catch(() => null)
    if (!names || !unfinished(adminDir, path !== null, names)) continue
    const meta = await readMetadataIn(adminDir)
    const record = records.find((r) => (path ? r.real === path : r.p.agentId === name))?.p ?? null
    // Fanout names the worktree folder after the agent, and git names the admin folder after the worktree folder.
    const named = path ? basename(path) : name
    const id = meta?.agentId ?? record?.agentId ?? ((await branchExists(repoCwd, named)) ? named : null)
    if (id && (!agentId || id === agentId)) found.push({ agentId: id, adminDir, path: path ?? record?.path ?? null, meta, record })
  }
  // Killed before git registered anything (or before it wrote `gitdir`, in a folder named otherwise).
  for (const { p, real } of records) {
    if (!found.some((h) => h.record === p) && !registered.has(real)) found.push({ agentId: p.agentId, adminDir: null, path: p.path, meta: null, record: p })
  }
  return found
}

async function branchExists(repoCwd: string, agentId: string): Promise<boolean> {
  return (await tryGit(repoCwd, ['rev-parse', '--verify', '--quiet', `refs/heads/${branchFor(agentId)}^{commit}`])) !== null
}

/**
 * Removes a half-made worktree proved to hold no agent work; its branch stays. Throws a WorktreeError saying
 * why not when its maker may still be at it or something in it is not git's.
 */
export async function removeHalfMade(repoCwd: string, commonDir: string, h: HalfMadeWorktree): Promise<void> {
  const owner = h.meta?.owner ?? h.record?.owner
  if (makerAlive(owner)) {
    throw new WorktreeError(`isolation: worktree ${h.path ?? h.adminDir} is still being created by another Fanout process (pid ${owner?.pid})`)
  }
  if (!h.adminDir) return
  // Before `commondir` git has checked nothing out, and will not remove what it cannot read as a worktree. A
  // `commondir` a kill left empty mid-write is as good as none (and makes every git command that reads it fail).
  if (!h.path || !readSmall(join(h.adminDir, 'commondir'))) return removeUnstarted({ ...h, adminDir: h.adminDir })
  const dirs = await worktreeGitDirs(h.path, commonDir)
  const branch = branchFor(h.agentId)
  const checkout = h.record?.checkout ?? h.meta?.baseCommit ?? (await tryGit(repoCwd, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]))
  if (!checkout) throw new WorktreeError(`isolation: worktree ${h.path} was left half made and its start commit is unknown; remove it with git worktree remove`)
  await checkNoWork(repoCwd, dirs, branch, checkout)
  // Twice --force: git refuses to remove a locked worktree otherwise.
  await runGit(repoCwd, ['worktree', 'remove', '--force', '--force', dirs.workTree])
}

const refusal = (where: string, why: string) =>
  new WorktreeError(`isolation: worktree ${where} was left half made by a stopped process, and ${why}; it is left as it is for you to look at`)

/**
 * A registration git stopped before `commondir` was written, removed file by file: only the files git writes by
 * then (HEAD still its placeholder, or empty where a kill came mid-write, as `commondir` may be) and a worktree
 * folder holding at most the `.git` file that names this admin folder (or that a kill left empty).
 */
async function removeUnstarted(h: HalfMadeWorktree & { adminDir: string }): Promise<void> {
  const refuse = (why: string): never => {
    throw refusal(h.path ?? h.adminDir, why)
  }
  const names = await readdir(h.adminDir)
  for (const n of names) {
    const torn = n === 'commondir' && readSmall(join(h.adminDir, n)) === ''
    if (!(FIRST_WRITES.has(n) || torn) || !(await lstat(join(h.adminDir, n))).isFile())
      refuse(`its git folder ${h.adminDir} holds ${n}, which git writes later`)
  }
  const head = readSmall(join(h.adminDir, 'HEAD'))
  if (head && !headPlaceholder(head)) refuse('its HEAD names a commit')
  const folder = h.path ? await lstat(h.path).catch(() => null) : null
  if (h.path && folder) {
    if (!folder.isDirectory()) refuse(`${h.path} is not a folder`)
    const inside = await readdir(h.path)
    for (const n of inside) if (n !== '.git') refuse(`${n} in it was not put there by git`)
    if (inside.length) {
      const link = readSmall(join(h.path, '.git'))
      const to = link?.startsWith('gitdir: ') ? await realOr(resolve(h.path, link.slice('gitdir: '.length))) : null
      if (link !== '' && to !== (await realOr(h.adminDir))) refuse('its .git file does not name its git folder')
      await unlink(join(h.path, '.git'))
    }
    await rmdir(h.path)
  }
  for (const n of names) await unlink(join(h.adminDir, n))
  await rmdir(h.adminDir)
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
 * every file on disk one of base's files with base's content (missing ones are what the kill left out; a folder
 * deleted by hand holds none).
 */
async function checkNoWork(repoCwd: string, dirs: WorktreeGitDirs, branch: string, base: string): Promise<void> {
  const refuse = (why: string): never => {
    throw refusal(dirs.workTree, why)
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
  if (await isDirectory(dirs.workTree)) await walk('')
}
