// Git inside the sandbox sees the placeholders as untracked files: the command's own as /dev/null character
// devices (`git add -A` then fails: "can only add regular files"), those of other commands running in the
// same folder as empty files (`git add -A` would commit them). So every sandboxed command gets a git
// excludes file naming the placeholders of its repository, through GIT_CONFIG_* variables. That setting
// replaces the person's own `core.excludesFile`, so its contents are copied in first: their ignores still hold.
import { rmSync, statSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { privateTempDir } from '../private-temp'
import { readConfigFile } from '../../store/read-config'
import { tryGit } from '../../worktrees/git'

/** The top of the work tree that holds `cwd` (where a `.git` folder or file is), or null outside git. */
export function workTreeTop(cwd: string): string | null {
  for (let d = cwd; ; d = dirname(d)) {
    if (statOrNull(join(d, '.git'))) return d
    if (dirname(d) === d) return null
  }
}

/** A gitignore line matching exactly `rel` (relative to the work tree's top), or null if none can. */
export function excludeLine(rel: string): string | null {
  if (!rel || rel.includes('\n') || rel.includes('\r')) return null
  const escaped = rel
    .split(sep)
    .join('/')
    .replace(/[\\*?[]/g, (c) => `\\${c}`)
    .replace(/ +$/, (s) => s.replace(/ /g, '\\ '))
  return `/${escaped}`
}

/** Adds `key=value` to the GIT_CONFIG_COUNT/KEY_n/VALUE_n list in `env` (keeping entries already there). */
export function withGitConfig(env: Record<string, string>, key: string, value: string): Record<string, string> {
  const n = Number(env.GIT_CONFIG_COUNT) || 0
  return { ...env, GIT_CONFIG_COUNT: String(n + 1), [`GIT_CONFIG_KEY_${n}`]: key, [`GIT_CONFIG_VALUE_${n}`]: value }
}

const configured = new Map<string, { key: string; file: string | null }>()

function statOrNull(path: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null
  } catch {
    return null // ENOTDIR: a worktree's .git is a file
  }
}

function mtimes(paths: string[]): string {
  return paths.map((p) => statOrNull(p)?.mtimeMs ?? 0).join(',')
}

/** The person's own excludes file for this work tree (`core.excludesFile`, else git's default), if any. */
async function userExcludesFile(top: string, env: Record<string, string | undefined>): Promise<string | null> {
  const home = env.HOME || homedir()
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config')
  // Asked of git once, and again only when a config file it reads changed.
  const key = mtimes([join(home, '.gitconfig'), join(xdg, 'git/config'), join(top, '.git'), '/etc/gitconfig', join(top, '.git/config')])
  const cached = configured.get(top)
  if (cached?.key === key) return cached.file
  // Through the one git runner: the repository's config is listed and neutralised there like everywhere else.
  const fromConfig = (await tryGit(top, ['config', '--path', '--get', 'core.excludesFile'], { timeoutMs: 10_000 })) || null
  const file = fromConfig ?? join(xdg, 'git/ignore')
  const found = statOrNull(file)?.isFile() ? file : null
  configured.set(top, { key, file: found })
  return found
}

export interface GitExcludes {
  env: Record<string, string>
  /** The file written for this command (removed with `dispose`). */
  file: string | null
  dispose(): void
}

/**
 * The environment that makes git inside the sandbox skip `placeholders` (those in `cwd`'s work tree, not in
 * its `.git`). Returns `env` unchanged when there are none or `cwd` is not in a work tree.
 */
export async function gitExcludesFor(cwd: string, placeholders: readonly string[], id: string, env: Record<string, string>): Promise<GitExcludes> {
  const none: GitExcludes = { env, file: null, dispose: () => undefined }
  const top = workTreeTop(cwd)
  if (!top) return none
  const gitDir = join(top, '.git')
  const lines = [...new Set(placeholders)]
    .filter((p) => p.startsWith(top + sep) && p !== gitDir && !p.startsWith(gitDir + sep))
    .map((p) => excludeLine(relative(top, p)))
    .filter((l): l is string => l !== null)
  if (!lines.length) return none
  const own = await userExcludesFile(top, process.env)
  let theirs = ''
  try {
    // core.excludesFile may come from the repository's config: a pipe or a huge file there is skipped, not read.
    const read = own ? readConfigFile(own) : null
    if (read && 'text' in read) theirs = read.text
  } catch {}
  let file: string
  try {
    file = join(privateTempDir('git-excludes'), `${id.replace(/[^A-Za-z0-9_-]/g, '_')}.gitignore`)
    const header = own ? `# ${own} (your own excludes file, copied)\n` : ''
    writeFileSync(
      file,
      `${header}${theirs}${theirs && !theirs.endsWith('\n') ? '\n' : ''}# Placeholders the Bash sandbox mounts on (not files of this project)\n${lines.join('\n')}\n`,
      { mode: 0o600 }
    )
  } catch {
    return none
  }
  return { env: withGitConfig(env, 'core.excludesFile', file), file, dispose: () => rmSync(file, { force: true }) }
}
