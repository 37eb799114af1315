// Which git configuration files a repository's answers depend on, and a fingerprint of them: an answer read from
// the configuration (core.hooksPath) can be kept while the fingerprint is unchanged, so a check that runs on every
// Edit, Write and Bash command spawns no git, yet an edited, replaced, created or deleted config file is seen on
// the next check. The fingerprint is each file's path, device, inode, size, mtime and ctime (a missing file counts).
import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { ConfigEntry } from './git-config-guard'

/** The files git reads config from for a checkout whose top is `top` and git folder `gitDir`, before any listing. */
export function defaultConfigFiles(top: string | null, gitDir: string | null): string[] {
  const home = process.env.HOME || homedir()
  const xdg = process.env.XDG_CONFIG_HOME || join(home, '.config')
  const files = [join(home, '.gitconfig'), join(xdg, 'git', 'config')]
  if (gitDir) {
    // HEAD too: an `includeIf.onbranch:` section applies or not with the checked-out branch.
    files.push(join(gitDir, 'config'), join(gitDir, 'config.worktree'), join(gitDir, 'commondir'), join(gitDir, 'HEAD'))
  }
  if (top) files.push(join(top, '.git'))
  return files
}

/** The files a listing came from, and the files its include directives name (present or not), as absolute paths. */
export function listedConfigFiles(entries: readonly ConfigEntry[], top: string): string[] {
  const home = process.env.HOME || homedir()
  const files: string[] = []
  for (const e of entries) {
    // git prints an origin relative to the top of the checkout (it runs there), whatever folder it started in.
    const origin = e.origin?.startsWith('file:') ? resolve(top, e.origin.slice(5)) : null
    if (origin) files.push(origin)
    if (e.value && /^include(if\..*)?\.path$/i.test(e.key)) {
      const v = e.value
      files.push(v.startsWith('~/') ? join(home, v.slice(2)) : isAbsolute(v) ? v : resolve(origin ? dirname(origin) : top, v))
    }
  }
  return [...new Set(files)]
}

/**
 * The fingerprint of `files` as they are now. A folder among them (a `.git` folder) counts by its identity
 * alone: git writes its index and locks there on every command, which changes no configuration.
 */
export function configFingerprint(files: readonly string[]): string {
  const env = `${process.env.HOME ?? ''}\0${process.env.XDG_CONFIG_HOME ?? ''}`
  return [env, ...files.map((f) => stamp(f, false))].join('\n')
}

/** The fingerprint of folders whose entries matter (where a submodule's config may appear): their times too. */
export function folderFingerprint(folders: readonly string[]): string {
  return folders.map((f) => stamp(f, true)).join('\n')
}

function stamp(f: string, entries: boolean): string {
  try {
    const s = statSync(f, { throwIfNoEntry: false, bigint: true })
    if (!s) return `${f}\0-`
    if (s.isDirectory() && !entries) return `${f}\0dir:${s.dev}:${s.ino}`
    return `${f}\0${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`
  } catch {
    return `${f}\0?`
  }
}
