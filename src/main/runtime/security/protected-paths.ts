// The one list of protected paths: files whose content other programs run or obey later, outside Fanout's
// control and without anyone reviewing it, and the stores of credentials. The file tools never write them
// without a person's answer, in any mode (acceptEdits and bypassPermissions ask, dontAsk and plan deny), and
// a sandboxed command never writes them (sandbox-policy.ts denies the same list). Judged by path segment,
// case-insensitively and after Unicode normalisation (a case-insensitive or Unicode-folding file system opens
// `.GIT/Hooks` or `.git\u200c` as `.git`), on every spelling PathPolicy hands it (as written and where it
// really leads).
//
// Not protected, on purpose: `.gitattributes` (it only names filters a git config must define, and that
// config is protected), `.github/workflows`, `package.json` scripts, Makefiles, `.pre-commit-config.yaml`:
// they are the project's code, reviewed as code and run where the project's code runs (CI, a command the
// user types). Protecting them would refuse ordinary work.
import { statSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { listConfig } from '../worktrees/git'
import { findGitDir } from '../worktrees/probe'
import { isInside } from '../tools/paths'
import { configFingerprint, defaultConfigFiles, listedConfigFiles } from './config-identity'

/** Folders protected whole wherever they are: configuration that runs commands or grants. */
export const PROTECTED_DIRS = [
  '.git', // hooks, config (filters, fsmonitor, aliases), a worktree's pointers
  '.claude', // settings (hooks, permissions), hooks' scripts, agents, commands, skills, output styles
  '.husky', // git hooks husky installs (core.hooksPath .husky/_ runs .husky/<hook>)
  '.githooks', // the other common hooks folder
  '.vscode', // tasks.json runs on folder open, settings.json names programs
  '.idea',
  '.zed',
  '.fleet',
  '.devcontainer', // postCreateCommand and friends
  '.cargo', // config.toml: runners, rustc wrappers
  '.mvn', // the Maven wrapper and JVM options
  '.yarn' // releases and plugins yarn runs (the sandbox protects only those two: yarn writes its cache here)
] as const

/** Files protected wherever they are: shell start-up and env loaders, tool configs that run programs. */
export const PROTECTED_FILES = [
  '.mcp.json', // MCP servers: programs started by the next session
  '.claude.json',
  '.gitmodules', // submodule URLs and update commands
  '.gitconfig',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.profile',
  '.inputrc',
  '.envrc', // direnv runs it on cd
  '.ripgreprc', // rg reads flags from it (--pre runs a program)
  '.npmrc', // node-options, script-shell; tokens
  '.yarnrc',
  '.yarnrc.yml', // yarnPath runs a script on every yarn command
  '.pypirc',
  '.netrc',
  '.git-credentials'
] as const

/** Below the home directory, besides the names above: credential stores and the user's own configuration. */
export const HOME_PROTECTED = [
  '.claude',
  '.claude.json',
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/gcloud',
  '.config/git',
  '.config/fish',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.anthropic',
  '.local/bin'
] as const

const DIRS = new Set<string>(PROTECTED_DIRS)
const FILES = new Set<string>(PROTECTED_FILES)

/** A path segment as a case-insensitive, Unicode-folding file system would see it. */
export function foldSegment(segment: string): string {
  const folded = segment
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .toLowerCase()
    // Dotless and dotted i, and accents (`.gİt`, `.gït`): folded too, erring on the side of protecting.
    .replace(/\u0131/g, 'i')
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    // Windows ignores trailing dots and spaces; `GIT~1` is `.git`'s short name.
    .replace(/[. ]+$/, '')
  return /^git~\d+$/.test(folded) ? '.git' : folded
}

function segments(rel: string): string[] {
  return rel.split(/[\\/]+/).filter((s) => s !== '' && s !== '.')
}

/** Why the segments of a path (relative to where names count) are protected, or null. */
function byName(rel: string): string | null {
  const parts = segments(rel).map(foldSegment)
  for (let i = 0; i < parts.length; i++) {
    if (DIRS.has(parts[i])) return `it is inside ${parts[i]}/`
    if (i === parts.length - 1 && FILES.has(parts[i])) return `it is ${parts[i]}`
  }
  return null
}

/** An allow rule's path names a protected path itself (`Edit(./.vscode/settings.json)`), not merely covers one (`Edit(./**)`). */
export function namesProtectedPath(pattern: string): boolean {
  return byName(pattern.replace(/^\/\/?|^~\/|^\.\//, '')) !== null || HOME_PROTECTED.some((h) => pattern.startsWith(`~/${h}`))
}

export interface ProtectedWhere {
  /** The working directories: below them only the part after the root counts (a project may live under `.claude/`). */
  roots: readonly string[]
  home: string
  /** More protected paths (absolute): the configured hooks path, hooks' scripts, a worktree's git folder. */
  extra?: readonly string[]
}

/** Why this one spelling of a path is protected, or null. */
export function protectedReason(abs: string, where: ProtectedWhere): string | null {
  const p = resolve(abs)
  for (const e of where.extra ?? []) if (isInside(e, p) || sameFolded(e, p)) return `it is ${e}, which git or a hook runs`
  const home = resolve(where.home)
  if (isInside(home, p) && p !== home) {
    const rel = relative(home, p)
    const folded = segments(rel).map(foldSegment).join('/')
    const hit = HOME_PROTECTED.find((h) => folded === h || folded.startsWith(`${h}/`))
    if (hit) return `it is in ~/${hit}, the user's own configuration or credentials`
  }
  const root = where.roots.map((r) => resolve(r)).find((r) => isInside(r, p))
  return byName(root ? relative(root, p) : p)
}

/** Paths equal once each segment is folded (an extra path spelt in another case). */
function sameFolded(a: string, b: string): boolean {
  const fa = segments(a).map(foldSegment)
  const fb = segments(b).map(foldSegment)
  return fa.length <= fb.length && fa.every((s, i) => s === fb[i])
}

/** A regular file with other names: writing it in place changes them too (one may be a protected file). */
export function hasOtherLinks(abs: string): boolean {
  const info = statSync(abs, { throwIfNoEntry: false })
  return info !== undefined && info.isFile() && info.nlink > 1
}

// ---- The configured hooks path (core.hooksPath): read through git once per configuration, cached.

const hooksPaths = new Map<string, string[]>()
/** Per cwd: the config files the last answer came from, and their fingerprint then (config-identity.ts). */
const hooksPathSources = new Map<string, { files: string[]; fingerprint: string }>()

/**
 * Reads `core.hooksPath` for the repository at cwd (repository, global and included config) and remembers it for
 * the synchronous check. Husky's `.husky/_` runs `.husky/<hook>`, so a hooks folder named `_` protects its
 * parent too. Called before each write decision and each sandboxed command: git runs (one `git config --list`)
 * only when a config file it read, or one it could read, changed since the last answer.
 */
export async function refreshHooksPath(cwd: string): Promise<readonly string[]> {
  const key = resolve(cwd)
  const checkout = await findGitDir(key)
  const known = hooksPathSources.get(key)
  if (known && hooksPaths.has(key) && configFingerprint(known.files) === known.fingerprint) return hooksPaths.get(key) ?? []
  const top = checkout?.top ?? key
  const candidates = [...new Set([...defaultConfigFiles(checkout?.top ?? null, checkout?.gitDir ?? null), ...(known?.files ?? [])])]
  const before = configFingerprint(candidates)
  const entries = (await listConfig(key)) ?? []
  // Fanout's own git sets core.hooksPath on its command line (so it runs no hook): the files' value is the last
  // one that does not come from there. Reading config runs nothing the repository names.
  const fromFiles = entries.filter((e) => e.key.toLowerCase() === 'core.hookspath' && e.value !== null && e.origin?.startsWith('file:'))
  const raw = fromFiles[fromFiles.length - 1]?.value
  const found: string[] = []
  if (raw) {
    const value = raw.trim()
    const expanded = value.startsWith('~/') ? join(process.env.HOME ?? '', value.slice(2)) : value
    const abs = isAbsolute(expanded) ? expanded : resolve(top, expanded)
    found.push(abs)
    if (foldSegment(abs.split(sep).pop() ?? '') === '_') found.push(resolve(abs, '..'))
  }
  hooksPaths.set(key, found)
  // Kept only when no file changed while git read them: otherwise the next check reads again.
  const files = [...new Set([...candidates, ...listedConfigFiles(entries, top)])]
  if (configFingerprint(candidates) === before) hooksPathSources.set(key, { files, fingerprint: configFingerprint(files) })
  else hooksPathSources.delete(key)
  return found
}

/** The hooks paths last read for this cwd (see refreshHooksPath). */
export function knownHooksPaths(cwd: string): readonly string[] {
  return hooksPaths.get(resolve(cwd)) ?? []
}

// ---- Hooks' scripts: a configured hook command runs files that may live anywhere.

const hookScripts = new Map<object, string[]>()

/**
 * The files a hook command names (`bash scripts/guard.sh`, `"$CLAUDE_PROJECT_DIR"/tools/check.py`): each word
 * that is an existing regular file, relative to the project. Errs on the side of protecting.
 */
export function hookCommandFiles(command: string, cwd: string, home: string): string[] {
  const words = command
    .replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, cwd)
    .split(/[\s;&|()<>`]+/)
    .map((w) => w.replace(/["']/g, ''))
    .filter((w) => w !== '' && !w.startsWith('-') && !w.includes('$'))
  const files: string[] = []
  for (const w of words) {
    const abs = w.startsWith('~/') ? join(home, w.slice(2)) : resolve(cwd, w)
    if (statSync(abs, { throwIfNoEntry: false })?.isFile() && !abs.startsWith('/usr/') && !abs.startsWith('/bin/')) files.push(abs)
  }
  return files
}

/** Records the hook commands a session configured (replacing its earlier ones): their scripts become protected. */
export function protectHookScripts(owner: object, commands: readonly string[], cwd: string, home: string): void {
  hookScripts.set(
    owner,
    commands.flatMap((c) => hookCommandFiles(c, cwd, home))
  )
}

/** Every hook script some session configured. Protecting one for all sessions only widens the list. */
export function knownHookScripts(): string[] {
  return [...new Set([...hookScripts.values()].flat())]
}
