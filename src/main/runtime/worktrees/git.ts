// The one way Fanout runs git: every git command —
// worktrees, the agent's commit, Review, the CLI, base-ref's fetch, the sandbox's excludes — goes through
// runGitResult below, with the repository's configuration neutralised (security/git-config-guard.ts): no
// program the repository names runs, no hook, no signing, no pager or editor, no prompt.
//
// Why execFile-style through security/spawn.ts rather than simple-git: simple-git drops stdout when git exits
// non-zero (merge-tree and diff answer with exit 1), reads no binary output (cat-file blob), refuses the GIT_*
// variables this runner must set (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_KEY_n), and would be a second way to start a
// process beside the spawn helper; five call sites already went around it for those reasons.
import { readdir, realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, resolve, sep } from 'node:path'
import { ALWAYS, type ConfigEntry, GIT_ENV, includedFiles, judgeConfig, parseConfigListing } from '../security/git-config-guard'
import { configFingerprint, defaultConfigFiles, folderFingerprint, listedConfigFiles } from '../security/config-identity'
import { readConfigFile } from '../store/read-config'
import { runChild } from '../security/spawn'
import { errorMessage } from '../../../shared/error-message'

/**
 * Inherited GIT_* variables are dropped (a stray GIT_DIR or GIT_WORK_TREE, e.g. when Fanout is started from a
 * git hook, must not point our commands at another repository; GIT_CONFIG_* must not add settings). The
 * identity variables are the exception: a user who sets them expects agent commits to carry them.
 */
const IDENTITY_ENV = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL']

function baseEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_') || IDENTITY_ENV.includes(k)))
}

export interface GitOptions {
  /** Extra `-c key=value` settings for this command only (never written to any config file); the safe ones win. */
  config?: string[]
  /** Variables set on top of the scrubbed environment (e.g. GIT_SSH_COMMAND for a fetch). */
  env?: Record<string, string>
  /** Exit codes that are answers, not failures (`merge-tree` and `diff` say "differs" with 1). */
  allowExitCodes?: readonly number[]
  input?: string | Buffer
  timeoutMs?: number
  signal?: AbortSignal
  /** Largest stdout taken (default 64 MiB); more fails the command. */
  maxBuffer?: number
  /**
   * An agent worktree's git folders as Fanout recorded and checked them (git-dirs.ts): passed to git as
   * GIT_DIR / GIT_COMMON_DIR / GIT_WORK_TREE, so git follows neither the worktree's `.git` file nor the
   * `commondir` and `gitdir` files, which a sandboxed agent could otherwise have rewritten.
   */
  dirs?: { gitDir: string; commonDir: string; workTree: string }
}

export interface GitResult {
  code: number
  stdout: Buffer
  stderr: string
}

export class GitError extends Error {
  override name = 'GitError'
  constructor(
    message: string,
    readonly exitCode: number | null
  ) {
    super(message)
  }
}

// Options git takes before the subcommand, with the value that follows them (when not written `--opt=value`).
const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'])

/** Splits `args` into git's own options (given to the config listing too) and the subcommand with its arguments. */
function splitGlobal(args: readonly string[]): { global: string[]; command: string[] } {
  let i = 0
  while (i < args.length && args[i].startsWith('-')) i += GLOBAL_WITH_VALUE.has(args[i]) ? 2 : 1
  return { global: args.slice(0, i), command: args.slice(i) }
}

/** Flags each subcommand is given so nothing it could run on the repository's behalf does. */
const SUBCOMMAND_FLAGS: Record<string, readonly string[]> = {
  diff: ['--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty'],
  log: ['--no-ext-diff', '--no-textconv'],
  show: ['--no-ext-diff', '--no-textconv'],
  status: ['--ignore-submodules=dirty'],
  commit: ['--no-verify', '--no-gpg-sign'],
  merge: ['--no-verify', '--no-gpg-sign'],
  'commit-tree': ['--no-gpg-sign'],
  'cherry-pick': ['--no-gpg-sign'],
  revert: ['--no-gpg-sign'],
  // git takes the first remote.<name>.uploadpack it reads and refuses later ones: only the option beats it.
  fetch: ['--upload-pack=git-upload-pack', '--no-recurse-submodules'],
  'ls-remote': ['--upload-pack=git-upload-pack'],
  push: ['--receive-pack=git-receive-pack', '--no-verify', '--no-signed']
}

/**
 * Settings a subcommand gets on top of ALWAYS: `add` still asks a submodule's `git status` at `dirty` (git 2.39);
 * at `all` it does not (unless `.gitmodules` says otherwise), and still stages a moved submodule commit. Where
 * git does look into a submodule, the submodule's own program keys are overridden too (submoduleConfigs).
 */
const SUBCOMMAND_CONFIG: Record<string, readonly string[]> = {
  add: ['diff.ignoreSubmodules=all']
}

async function spawnGit(dir: string, args: readonly string[], env: Record<string, string | undefined>, options: GitOptions) {
  return runChild('git', args, {
    cwd: dir,
    env: { base: baseEnv(), set: env },
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxBuffer ? { maxBuffer: options.maxBuffer } : {})
  })
}

/** GIT_CONFIG_COUNT/KEY_n/VALUE_n for `pairs`: taken at the command line's precedence, any key spelled exactly. */
function configEnv(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) }
  pairs.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k
    env[`GIT_CONFIG_VALUE_${i}`] = v
  })
  return env
}

/** The top of the checkout holding `dir` (where a `.git` folder or file is), or null. */
async function checkoutTop(dir: string): Promise<string | null> {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (await stat(join(d, '.git')).catch(() => null)) return d
    if (dirname(d) === d) return null
  }
}

/**
 * A `core.worktree` from the repository's config moves the work tree git reads and writes; it is followed only
 * when it leads back to the checkout holding `dir` (a submodule's does), never elsewhere (`..`, `/`).
 */
async function checkWorktreeRedirect(dir: string, global: string[], values: string[], dirsEnv: Record<string, string>): Promise<void> {
  if (dirsEnv.GIT_WORK_TREE || global.some((a) => a === '--work-tree' || a.startsWith('--work-tree='))) return
  const gitDir = await spawnGit(dir, [...global, 'rev-parse', '--absolute-git-dir'], { ...dirsEnv, ...GIT_ENV }, {})
  const top = await checkoutTop(dir)
  const real = async (p: string) => realpath(p).catch(() => resolve(p))
  for (const value of values) {
    const target = await real(resolve(gitDir.stdout.toString('utf8').trim(), value))
    if (!top || target !== (await real(top)))
      throw new GitError(`This repository's git config sets core.worktree to ${JSON.stringify(value)}, outside its checkout; Fanout does not follow it.`, null)
  }
}

/** Included config files read per command at most (an include loop or a flood of them stops here). */
const MAX_INCLUDES = 64

/**
 * `config` files under the repository's `modules/` folders (its own, and each linked worktree's), bounded; with
 * the folders whose entries say a submodule's config came or went. A folder holding a `config` is a submodule's
 * git folder, rewritten by every git command there: its `modules/` is watched instead (nested submodules).
 */
async function submoduleConfigs(dir: string, entries: readonly ConfigEntry[]): Promise<{ files: string[]; folders: string[] }> {
  const local = entries.find((e) => e.scope === 'local' && e.origin?.startsWith('file:'))
  if (!local?.origin) return { files: [], folders: [] }
  const common = dirname(resolve(dir, local.origin.slice(5)))
  const roots = [join(common, 'modules')]
  const folders = [join(common, 'worktrees')]
  for (const w of await readdir(join(common, 'worktrees')).catch(() => [] as string[])) roots.push(join(common, 'worktrees', w, 'modules'))
  const found: string[] = []
  const walk = async (d: string, depth: number): Promise<void> => {
    if (depth > 8 || found.length >= MAX_INCLUDES) return
    const list = await readdir(d, { withFileTypes: true }).catch(() => [])
    if (list.some((e) => e.isFile() && e.name === 'config')) folders.push(join(d, 'modules'))
    else folders.push(d)
    for (const e of list) {
      if (e.isFile() && e.name === 'config') found.push(join(d, e.name))
      else if (e.isDirectory() && e.name !== 'objects' && e.name !== 'refs') await walk(join(d, e.name), depth + 1)
    }
  }
  for (const r of roots) await walk(r, 0)
  return { files: found, folders }
}

/**
 * The configuration git reads in `dir`, with scopes and origins (origins relative to the top of the checkout): one
 * `git config --list`, which runs nothing the configuration names. Null when git cannot read it.
 */
export async function listConfig(dir: string): Promise<ConfigEntry[] | null> {
  if (!(await isDirectory(dir))) return null
  const r = await spawnGit(dir, ['config', '-z', '--list', '--show-scope', '--show-origin'], GIT_ENV, {})
  return r.code === 0 ? parseConfigListing(r.stdout.toString('utf8'), true) : null
}

/**
 * The settings last worked out per folder (and git options), with the files and folders they were read from and
 * the fingerprint of those then (security/config-identity.ts): while no file git reads config from — the
 * repository's, the person's, an included one, a submodule's, a `.git` that would start a checkout nearer —
 * has changed, a command spawns no `git config --list` of its own. Anything changed is read afresh.
 */
const settingsCache = new Map<string, { settings: Record<string, string>; files: string[]; folders: string[]; fingerprint: string }>()
const SETTINGS_KEPT = 256

/** For tests: forget every cached reading. */
export function forgetGitSettings(): void {
  settingsCache.clear()
}

/** The neutralising settings for a command in `dir`, from the configuration git would read there. */
async function safeSettings(dir: string, global: string[], dirsEnv: Record<string, string>): Promise<Record<string, string>> {
  // `-C`, `--git-dir` and the like point git elsewhere than `dir`: read afresh each time (no caller caches them).
  const cacheable = global.length === 0
  const key = JSON.stringify([resolve(dir), dirsEnv])
  const known = cacheable ? settingsCache.get(key) : undefined
  const fingerprint = (files: string[], folders: string[]) => `${configFingerprint(files)}\n${folderFingerprint(folders)}`
  if (known && fingerprint(known.files, known.folders) === known.fingerprint) return known.settings
  const candidates = [...new Set([...(await configCandidates(dir, dirsEnv)), ...(known?.files ?? [])])]
  const before = configFingerprint(candidates)
  const read = await readSettings(dir, global, dirsEnv)
  settingsCache.delete(key)
  // Kept only when no file changed while git read them, and when nothing outside the files decides (core.worktree).
  if (cacheable && read.cacheable && configFingerprint(candidates) === before) {
    const files = [...new Set([...candidates, ...read.files])]
    if (settingsCache.size >= SETTINGS_KEPT) settingsCache.delete(settingsCache.keys().next().value as string)
    settingsCache.set(key, { settings: read.settings, files, folders: read.folders, fingerprint: fingerprint(files, read.folders) })
  }
  return read.settings
}

/**
 * Config files git could read in `dir` before any listing names them: the person's, the git folder's, and the
 * `.git` of `dir` and each folder above it up to the checkout's top (one appearing nearer makes a new checkout).
 */
async function configCandidates(dir: string, dirsEnv: Record<string, string>): Promise<string[]> {
  const top = dirsEnv.GIT_WORK_TREE ?? (await checkoutTop(dir))
  const gitDir = dirsEnv.GIT_DIR ?? (top ? gitDirAt(top) : null)
  const files = defaultConfigFiles(top, gitDir)
  if (dirsEnv.GIT_COMMON_DIR) files.push(join(dirsEnv.GIT_COMMON_DIR, 'config'))
  for (let d = resolve(dir); ; d = dirname(d)) {
    files.push(join(d, '.git'))
    if (d === top || dirname(d) === d) break
  }
  return files
}

/** The git folder a checkout's `.git` names (a folder, or a `gitdir:` file); null when it is neither. */
function gitDirAt(top: string): string | null {
  const dotGit = join(top, '.git')
  const read = readConfigFile(dotGit, 64 * 1024)
  if (!('text' in read)) return dotGit // a folder (or nothing): its config is dotGit/config
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(read.text)
  return m ? resolve(top, m[1]) : null
}

async function readSettings(
  dir: string,
  global: string[],
  dirsEnv: Record<string, string>
): Promise<{ settings: Record<string, string>; files: string[]; folders: string[]; cacheable: boolean }> {
  const list = ['config', '-z', '--list', '--show-scope', '--show-origin']
  const listing = await spawnGit(dir, [...global, ...list], { ...dirsEnv, ...GIT_ENV }, {})
  // A config git cannot read fails the command too; running it without knowing what to neutralise would not be safe.
  if (listing.code !== 0) throw new GitError(listing.stderr.toString('utf8').trim() || `git config --list exited with code ${listing.code}`, listing.code)
  const entries = parseConfigListing(listing.stdout.toString('utf8'), true)
  // git names a config file it read relative to where it runs: the top of the checkout (it moves there first),
  // but the folder it started in when that is inside the git folder (a command run from the repository's
  // `.git`, as worktree removal is): there `file:config` is `.git/config`, and an include beside it is
  // `.git/<name>`, not a file at the top that does not exist (its program keys would go unneutralised).
  const top = dirsEnv.GIT_WORK_TREE ?? (await checkoutTop(dir)) ?? dir
  const here = resolve(dir)
  const gitFolder = join(top, '.git')
  const base = dirsEnv.GIT_WORK_TREE === undefined && (here === gitFolder || here.startsWith(`${gitFolder}${sep}`)) ? here : top
  // Included files are read whatever their condition (see includedFiles); as the repository's, whoever included them.
  const home = process.env.HOME || homedir()
  // Submodules' own configs too: git looks into a submodule by starting itself there, with our overrides in its
  // environment but the submodule's config read afresh, so its program keys are overridden from here.
  const modules = await submoduleConfigs(top, entries)
  const submodules = new Set(modules.files)
  const queue = [...includedFiles(entries, base, home), ...submodules]
  const seen = new Set<string>()
  for (let file = queue.shift(); file !== undefined && seen.size < MAX_INCLUDES; file = queue.shift()) {
    if (seen.has(file)) continue
    seen.add(file)
    const r = await spawnGit(dir, [...list, '--includes', '--file', file], GIT_ENV, {})
    if (r.code !== 0) continue // not there (git skips a missing include too) or not a config file
    // A submodule's core.worktree leads to its own checkout: its program keys count here, its work tree does not.
    const more = parseConfigListing(r.stdout.toString('utf8'), true).map((e) => ({ ...e, scope: submodules.has(file) ? 'submodule' : 'included' }))
    entries.push(...more)
    queue.push(...includedFiles(more, base, home))
  }
  const verdict = judgeConfig(entries)
  if (verdict.worktreeRedirects.length) await checkWorktreeRedirect(dir, global, verdict.worktreeRedirects, dirsEnv)
  const files = [...listedConfigFiles(entries, base), ...seen, ...queue]
  // Past the include bound some files went unread: read again next time rather than trust a partial reading.
  const cacheable = !verdict.worktreeRedirects.length && queue.length === 0
  return { settings: configEnv(verdict.overrides), files, folders: modules.folders, cacheable }
}

/**
 * `git <args>` in `dir` with the repository's config neutralised; the exit code, stdout and stderr. A code not
 * 0 nor in `allowExitCodes` throws GitError with git's message. Lock contention is not retried here.
 */
async function gitOnce(dir: string, args: readonly string[], options: GitOptions): Promise<GitResult> {
  if (!(await isDirectory(dir))) throw new GitError(`git cannot run in ${dir}: no such folder`, null)
  const { global, command } = splitGlobal(args)
  const [sub, ...rest] = command
  const flags = (sub && SUBCOMMAND_FLAGS[sub]) || []
  const dirsEnv: Record<string, string> = options.dirs
    ? { GIT_DIR: options.dirs.gitDir, GIT_COMMON_DIR: options.dirs.commonDir, GIT_WORK_TREE: options.dirs.workTree }
    : {}
  const settings = await safeSettings(dir, global, dirsEnv)
  const config = [...(options.config ?? []), ...ALWAYS, ...((sub && SUBCOMMAND_CONFIG[sub]) || [])].flatMap((c) => ['-c', c])
  const argv = ['--no-pager', ...config, ...global, ...(sub ? [sub, ...flags, ...rest] : [])]
  const r = await spawnGit(dir, argv, { ...(options.env ?? {}), ...dirsEnv, ...GIT_ENV, ...settings }, options)
  const code = r.code ?? -1
  const stderr = r.stderr.toString('utf8')
  if (code !== 0 && !(options.allowExitCodes ?? []).includes(code)) {
    throw new GitError(stderr.trim() || `git ${sub ?? ''} exited with ${r.signal ? `signal ${r.signal}` : `code ${code}`}`, r.code)
  }
  return { code, stdout: r.stdout, stderr }
}

/** `git <args>` in `dir`: exit code, raw stdout and stderr; lock contention is retried. */
export function runGitResult(dir: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return retryOnLock(() => gitOnce(dir, args, options))
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
  return (await runGitResult(dir, args, options)).stdout.toString('utf8').trim()
}

/** `git <args>` in `dir`, stdout exactly as git wrote it (for `-z` listings, whose first entry may begin with a space). */
export async function runGitRaw(dir: string, args: string[], options: GitOptions = {}): Promise<string> {
  return (await runGitResult(dir, args, options)).stdout.toString('utf8')
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
