// Claude Code's `worktree.baseRef` setting: which commit a new agent worktree starts from.
// - `head`: the parent's current commit, so unpushed commits and the feature branch's state are there.
// - `fresh`: the remote's default branch (`origin/HEAD`, after a fetch), a clean tree matching the remote;
//   the current commit when there is no remote, or it cannot be fetched or resolved (as Claude Code does).
// Claude Code's default is `fresh`; Fanout's is `head`: a subagent works on what its parent sees, and its
// work is merged back into the branch the person is on (see docs/reviewing-agents-work.md).
import { readConfigJson } from '../store/read-config'
import { claudeSettingsFiles } from '../store/claude-settings-files'
import { errorText, runGit, tryGit } from './git'
import type { RepoInfo } from './repo'

export const WORKTREE_BASE_REFS = ['head', 'fresh'] as const
export type WorktreeBaseRef = (typeof WORKTREE_BASE_REFS)[number]
export const DEFAULT_WORKTREE_BASE_REF: WorktreeBaseRef = 'head'

export interface BaseRefSetting {
  value: WorktreeBaseRef
  /** The settings file it came from; null for the default. */
  file: string | null
  /** Which of Claude Code's settings files that is. */
  scope: 'user' | 'project' | 'local' | 'managed' | null
  /** A value that is not `head` or `fresh` (ignored), with the file. */
  problems: string[]
}

export interface BaseRefFiles {
  cwd: string
  home?: string
  /** Managed settings file (default /etc/claude-code/managed-settings.json); null to skip. */
  managedFile?: string | null
  /**
   * Whether the folder's own settings (`.claude/settings.json`, `settings.local.json`) may choose: `fresh` makes
   * Fanout fetch from the repository's remote, which a downloaded repository must not decide for itself. Only a
   * folder the person trusted (trust/: answered "Trust", or `--trust-project`) counts; default false.
   */
  projectTrusted?: boolean
}

/** Reads `worktree.baseRef` from Claude Code's settings files; a file that cannot be read or parsed is skipped (the permission settings report it). */
export function readBaseRefSetting(o: BaseRefFiles): BaseRefSetting {
  const out: BaseRefSetting = { value: DEFAULT_WORKTREE_BASE_REF, file: null, scope: null, problems: [] }
  // Run in the home folder, user and project settings are one file: it counts as the user's.
  for (const { file, level } of claudeSettingsFiles(o)) {
    // A settings file a repository planted may be a pipe or a device: read only as a regular, bounded file.
    const read = readConfigJson(file)
    if (!('json' in read)) continue
    const json: unknown = read.json
    const worktree = (json as { worktree?: unknown } | null)?.worktree
    const value = (worktree as { baseRef?: unknown } | null | undefined)?.baseRef
    if (value === undefined) continue
    // `head` only keeps Fanout from fetching, so any folder may choose it; anything else waits for trust.
    if ((level === 'project' || level === 'local') && !o.projectTrusted && value !== 'head') {
      out.problems.push(
        `${file}: "worktree.baseRef" is ignored: this folder is not trusted, and only your own or a trusted folder's settings make Fanout fetch from its remote.`
      )
      continue
    }
    if (typeof value === 'string' && (WORKTREE_BASE_REFS as readonly string[]).includes(value)) {
      out.value = value as WorktreeBaseRef
      out.file = file
      out.scope = level
    } else {
      out.problems.push(`${file}: "worktree.baseRef" is ${JSON.stringify(value)}; it must be "head" or "fresh", so it is ignored.`)
    }
  }
  return out
}

export interface StartPoint {
  commit: string
  /** `HEAD`, or the remote branch (`origin/main`). */
  ref: string
  /** Why `fresh` fell back to the current commit. */
  note?: string
}

const FETCH_TIMEOUT_MS = 20_000
/** One fetch per repository at a time and at most one a minute: a fan-out of 16 isolated agents fetches once. */
const FETCH_REUSE_MS = 60_000
const fetches = new Map<string, { at: number; done: Promise<string | null> }>()

export async function startPoint(repo: RepoInfo, baseRef: WorktreeBaseRef): Promise<StartPoint> {
  const head = repo.head!
  if (baseRef === 'head') return { commit: head, ref: 'HEAD' }
  if ((await tryGit(repo.cwd, ['remote', 'get-url', 'origin'])) === null)
    return { commit: head, ref: 'HEAD', note: 'worktree.baseRef is "fresh" but the repository has no remote named origin' }
  const failed = await fetchOrigin(repo)
  const target = await defaultRemoteBranch(repo.cwd)
  if (!target) return { commit: head, ref: 'HEAD', note: `worktree.baseRef is "fresh" but origin's default branch is unknown${failed ? ` (${failed})` : ''}` }
  const commit = await tryGit(repo.cwd, ['rev-parse', '--verify', '--quiet', `refs/remotes/${target}^{commit}`])
  if (!commit) return { commit: head, ref: 'HEAD', note: `worktree.baseRef is "fresh" but ${target} does not exist` }
  return { commit, ref: target, ...(failed ? { note: `${target} as last fetched: ${failed}` } : {}) }
}

/** `origin/HEAD`'s target (`origin/main`), else origin/main or origin/master when one exists. */
async function defaultRemoteBranch(dir: string): Promise<string | null> {
  const symbolic = await tryGit(dir, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'])
  if (symbolic) return symbolic
  for (const name of ['origin/main', 'origin/master']) {
    if (await tryGit(dir, ['rev-parse', '--verify', '--quiet', `refs/remotes/${name}`])) return name
  }
  return null
}

/** Fetches origin (never prompting for credentials); resolves with why it failed, or null. */
function fetchOrigin(repo: RepoInfo): Promise<string | null> {
  const known = fetches.get(repo.commonDir)
  if (known && Date.now() - known.at < FETCH_REUSE_MS) return known.done
  // The runner never prompts; ssh is told not to either (BatchMode), whatever ssh command config names.
  const done = runGit(repo.cwd, ['fetch', '--quiet', '--no-recurse-submodules', 'origin'], {
    env: { GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' },
    timeoutMs: FETCH_TIMEOUT_MS
  }).then(
    () => null,
    (err: unknown) => `git fetch origin failed: ${errorText(err)}`
  )
  fetches.set(repo.commonDir, { at: Date.now(), done })
  return done
}
