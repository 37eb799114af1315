// One way to run git for worktree isolation: simple-git bound to a directory, with retries when another
// git process (often the user's own, in the parent checkout) holds a lock file for a moment.
import { realpath, stat } from 'node:fs/promises'
import type { SimpleGit } from 'simple-git'
import { childEnv } from '../security/child-env'
import { errorMessage } from '../../../shared/error-message'

/**
 * simple-git strips GIT_* variables inherited from the environment (so a stray GIT_DIR or GIT_WORK_TREE,
 * e.g. when Fanout is started from a git hook, cannot point our commands at another repository).
 * The identity variables are the exception: a user who sets them expects agent commits to carry them.
 */
const IDENTITY_ENV = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL']
/** Set by Fanout itself (GitOptions.dirs), never taken from the ambient environment. */
const DIRS_ENV = ['GIT_DIR', 'GIT_COMMON_DIR', 'GIT_WORK_TREE']

const SIMPLE_GIT_GUARDED = /^(git_.*|editor|visual|pager|prefix|ssh_askpass)$/i

/**
 * The environment for git run directly (not through simple-git): without credentials (security/child-env.ts)
 * and without inherited GIT_* variables but the identity ones; `extra` is set on top as given.
 */
export function cleanGitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_') || IDENTITY_ENV.includes(k)))
  return childEnv({ base, set: extra })
}

export interface GitOptions {
  /** Extra `-c key=value` settings for this command only (never written to any config file). */
  config?: string[]
  /**
   * An agent worktree's git folders as Fanout recorded and checked them (git-dirs.ts): passed to git as
   * GIT_DIR / GIT_COMMON_DIR / GIT_WORK_TREE, so git follows neither the worktree's `.git` file nor the
   * `commondir` and `gitdir` files, which a sandboxed agent could otherwise have rewritten.
   */
  dirs?: { gitDir: string; commonDir: string; workTree: string }
}

// simple-git (with the debug and file-exists modules it brings) is loaded when git first runs, not when
// Fanout starts: `fanout run` reaches its first model request without running git.
let simpleGitModule: Promise<typeof import('simple-git')> | undefined

/**
 * What the repository's own configuration would run when Fanout runs git there: its hooks (post-checkout
 * runs on `worktree add`) and an fsmonitor command. A folder that arrives with its own .git (an archive)
 * could plant either; Fanout's git commands run neither, whatever the folder says.
 */
const SAFE_CONFIG = ['core.hooksPath=/dev/null', 'core.fsmonitor=false']

async function gitIn(dir: string, options: GitOptions = {}): Promise<SimpleGit> {
  const { simpleGit } = await (simpleGitModule ??= import('simple-git'))
  // No credentials in git's environment (see security/child-env.ts). The variables simple-git guards (GIT_*
  // but the identity, EDITOR, PAGER…) are left out: it drops them from the ambient environment, and refuses to
  // run when one is passed explicitly.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SIMPLE_GIT_GUARDED.test(k) || IDENTITY_ENV.includes(k)))
  const git = simpleGit({
    baseDir: dir,
    config: [...SAFE_CONFIG, ...(options.config ?? [])],
    // simple-git refuses these keys in `config` unless told they are meant: these values switch things off.
    unsafe: { allowUnsafeHooksPath: true, allowUnsafeFsMonitor: true },
    allowEnvironment: options.dirs ? [...IDENTITY_ENV, ...DIRS_ENV] : IDENTITY_ENV,
    trimmed: false,
    maxConcurrentProcesses: 4,
    // simple-git only fails a command that exits non-zero AND writes to stderr; quiet failures
    // (`rev-parse --verify -q`, `symbolic-ref -q`) must fail too, or "no HEAD" would read as an empty answer.
    errors(error, result) {
      if (error) return error
      if (result.exitCode === 0) return undefined
      const stderr = Buffer.concat(result.stdErr).toString('utf8').trim()
      return Buffer.from(stderr || `git exited with code ${result.exitCode}`)
    }
  })
  const dirs = options.dirs ? { GIT_DIR: options.dirs.gitDir, GIT_COMMON_DIR: options.dirs.commonDir, GIT_WORK_TREE: options.dirs.workTree } : {}
  return git.env(childEnv({ base, set: dirs }))
}

export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

export function errorText(err: unknown): string {
  const message = errorMessage(err)
  return message.trim()
}

// Messages git prints when a lock file is held by another process. Such a failure changes nothing,
// so the command is safe to repeat once the other process is done.
const LOCK_ERROR = /\.lock'?: File exists|Unable to create '[^']*\.lock'|could not lock config file|cannot lock ref|Another git process seems to be running/i

/** Runs `op`, repeating it a few times (with growing pauses) while git reports a held lock file. */
export async function retryOnLock<T>(op: () => Promise<T>, attempts = 6): Promise<T> {
  let delay = 40
  for (let attempt = 1; ; attempt++) {
    try {
      return await op()
    } catch (err) {
      if (attempt >= attempts || !LOCK_ERROR.test(errorText(err))) throw err
      await new Promise((resolve) => setTimeout(resolve, delay))
      delay *= 2
    }
  }
}

/** `git <args>` in `dir`, returning trimmed stdout; lock contention is retried. */
export async function runGit(dir: string, args: string[], options: GitOptions = {}): Promise<string> {
  const out = await retryOnLock(async () => (await gitIn(dir, options)).raw(args))
  return out.trim()
}

/** `git <args>` in `dir`, stdout exactly as git wrote it (for `-z` listings, whose first entry may begin with a space). */
export async function runGitRaw(dir: string, args: string[], options: GitOptions = {}): Promise<string> {
  return retryOnLock(async () => (await gitIn(dir, options)).raw(args))
}

/** Like runGit, but a non-zero exit gives `null` instead of an error (for questions such as "is there a HEAD?"). */
export async function tryGit(dir: string, args: string[], options: GitOptions = {}): Promise<string | null> {
  try {
    return await runGit(dir, args, options)
  } catch {
    return null
  }
}

/**
 * True when `path` is itself the top of a git checkout. Checked before committing or removing: if a
 * worktree's `.git` file were gone, git would walk up and act on whatever repository encloses the folder.
 */
export async function isCheckoutRoot(path: string): Promise<boolean> {
  const top = await tryGit(path, ['rev-parse', '--show-toplevel'])
  if (!top) return false
  try {
    return (await realpath(top)) === (await realpath(path))
  } catch {
    return false
  }
}
