// What a sandboxed command (workspace level) may write of the repository's git folder. Everything git runs
// or follows lives there: config (filters, fsmonitor, hooksPath…), hooks, `info/attributes`, the
// `commondir` and `gitdir` files that say where the rest is, alternates, submodules' own git folders. A
// command that could write any of them runs programs as the user the next time anyone — Fanout outside the
// sandbox, or the user — runs git there.
//
// - In an agent's worktree (a linked worktree: `.git` is a file), the agent may write exactly what its own
//   commits need: new objects, and its worktree's admin folder (`<common>/worktrees/<name>`: HEAD, index,
//   logs, per-worktree refs) minus the files that redirect git or are Fanout's record (`commondir`, `gitdir`,
//   `config.worktree`, `modules/`, `fanout.json`). No ref, no `packed-refs`, no config, no other worktree's
//   folder is writable: the worktree is on a detached HEAD and Fanout, outside the sandbox, moves the agent's
//   branch to its commits (worktrees/agent-branch.ts). So an agent's commits land only on its branch.
// - In a main checkout (`.git` is a folder), or a linked worktree the person made themselves (no Fanout
//   record in its admin folder), commits on the person's branch stay possible as in Claude Code's sandbox
//   (which denies `.git/hooks` and `.git/config`); what runs or redirects git is read-only too, and so are
//   the other worktrees' admin folders (an agent's among them).
// The worktree's own `.git` file is read-only in both (sandbox-runtime denies it at the command's cwd only).
//
// A denied path that does not exist gets a placeholder (an empty file, mount-points.ts) while the command
// runs. An empty `config.worktree`, `modules` or `objects/info` changes nothing for git, but an empty
// `commondir` makes every git command fail ("failed to read commondir"), so an absent `commondir` of a main
// checkout is not denied: Fanout refuses to run git in a main checkout that has one (worktrees/repo.ts), and
// docs/sandbox.md says what is left for the person's own git.
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { readConfigFile } from '../../store/read-config'

export interface GitDirWrites {
  allowWrite: string[]
  denyWrite: string[]
}

const SMALL = 64 * 1024

/** A small regular file's text, trimmed, or null (a link to a pipe or device must not hang the wrap). */
function readSmall(path: string): string | null {
  try {
    // Opened non-blocking and checked on the open file: a pipe swapped in after a stat must not hang the wrap.
    const read = readConfigFile(path, SMALL)
    return 'text' in read ? read.text.trim() : null
  } catch {
    return null
  }
}

const real = (path: string): string => {
  try {
    return realpathSync(path)
  } catch {
    return resolve(path)
  }
}

/**
 * Under a main checkout's git folder: what runs or redirects git (hooks and config sandbox-runtime adds
 * itself). `config.worktree` (read with `extensions.worktreeConfig`) and `modules/` (submodules' own git
 * folders, each with a config) get a placeholder when absent: an empty file there changes nothing for git.
 */
const MAIN_DENIED = ['config', 'hooks', 'objects/info', 'config.worktree', 'modules']
/**
 * Denied when present. An empty `commondir` placeholder would break git; a placeholder file where git makes
 * `info/` or `worktrees/` would make git fail to create them while a command runs (Fanout's own
 * `git worktree add` for an isolated agent among them). What could be planted there instead runs nothing by
 * itself: attributes name drivers only config defines, and Fanout checks every worktree folder it uses.
 */
const MAIN_DENIED_IF_PRESENT = ['commondir', 'gitdir', 'info', 'worktrees']
/** Under a worktree's admin folder: what redirects git, and Fanout's record. */
const ADMIN_DENIED = ['commondir', 'gitdir', 'config.worktree', 'modules', 'fanout.json']

/**
 * The admin folder a worktree's `.git` file names, when everything checks out: the file says `gitdir: G`,
 * G lies in `<C>/worktrees/`, G's `commondir` leads to C and G's `gitdir` names this `.git` file back.
 * Anything else (a `.git` file an agent rewrote) gets no write access to any git folder.
 */
export function linkedWorktreeDirs(top: string): { adminDir: string; commonDir: string } | null {
  const text = readSmall(join(top, '.git'))
  const m = text ? /^gitdir:\s*(.+)$/m.exec(text) : null
  if (!m) return null
  const adminDir = real(resolve(top, m[1].trim()))
  const common = readSmall(join(adminDir, 'commondir'))
  const back = readSmall(join(adminDir, 'gitdir'))
  if (!common || !back) return null
  const commonDir = real(resolve(adminDir, common))
  if (real(join(commonDir, 'worktrees', basename(adminDir))) !== adminDir) return null
  if (real(dirname(resolve(adminDir, back))) !== real(top)) return null
  return { adminDir, commonDir }
}

/** The writes and denies for the git folder of the checkout around `cwd` (none outside a repository). */
export function gitDirWrites(cwd: string): GitDirWrites {
  for (let top = cwd; ; top = dirname(top)) {
    const dotGit = join(top, '.git')
    const info = statSync(dotGit, { throwIfNoEntry: false })
    if (info?.isDirectory()) return mainCheckout(cwd, top)
    if (info?.isFile()) return linkedWorktree(top)
    if (dirname(top) === top) return { allowWrite: [], denyWrite: [] }
  }
}

function mainCheckout(cwd: string, top: string): GitDirWrites {
  const gitDir = join(top, '.git')
  return {
    // Below the top, cwd does not hold the git folder: it is added so that commits work as at the top.
    allowWrite: top === cwd ? [] : [gitDir],
    denyWrite: [...MAIN_DENIED.map((p) => join(gitDir, p)), ...MAIN_DENIED_IF_PRESENT.map((p) => join(gitDir, p)).filter((p) => existsSync(p))]
  }
}

function linkedWorktree(top: string): GitDirWrites {
  const dotGit = join(top, '.git')
  const dirs = linkedWorktreeDirs(top)
  if (!dirs) return { allowWrite: [], denyWrite: [dotGit] }
  const { adminDir, commonDir } = dirs
  // Fanout's record marks an agent's worktree; the agent cannot write it there, nor take it away.
  // (Its content, not its presence: an empty placeholder of a running command is no record.)
  if (readSmall(join(adminDir, 'fanout.json'))) return agentWorktree(dotGit, adminDir, commonDir)
  return ownWorktree(dotGit, adminDir, commonDir)
}

function agentWorktree(dotGit: string, adminDir: string, commonDir: string): GitDirWrites {
  return {
    allowWrite: [adminDir, join(commonDir, 'objects')],
    denyWrite: [
      dotGit,
      ...ADMIN_DENIED.map((p) => join(adminDir, p)),
      // Alternates (objects/info/alternates) and the commit-graph; packs hold the repository's history.
      join(commonDir, 'objects', 'info'),
      join(commonDir, 'objects', 'pack')
    ]
  }
}

/**
 * A linked worktree the person made and started Fanout in: the agent works on their branch as in a main
 * checkout, so refs stay writable; what runs or redirects git, and the other worktrees' folders, do not.
 */
function ownWorktree(dotGit: string, adminDir: string, commonDir: string): GitDirWrites {
  const others = namesIn(join(commonDir, 'worktrees'))
    .map((n) => join(commonDir, 'worktrees', n))
    .filter((d) => d !== adminDir)
  return {
    allowWrite: [commonDir],
    denyWrite: [
      dotGit,
      ...MAIN_DENIED.map((p) => join(commonDir, p)),
      ...MAIN_DENIED_IF_PRESENT.filter((p) => p !== 'worktrees')
        .map((p) => join(commonDir, p))
        .filter((p) => existsSync(p)),
      ...ADMIN_DENIED.filter((p) => p !== 'fanout.json').map((p) => join(adminDir, p)),
      ...others
    ]
  }
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
