// Agent commits need an author. When git cannot name one (no user.name / user.email anywhere), the
// commit gets a fallback identity through `-c` for that one command: the user's config files are never written.
import { type GitOptions, tryGit } from './git'

export const FALLBACK_NAME = 'Fanout agent'
export const FALLBACK_EMAIL = 'fanout-agent@localhost.invalid'

/** `-c` settings to pass to `git commit` in `dir`: empty when git already knows who the author is. */
export async function commitIdentityConfig(dir: string, dirs?: GitOptions['dirs']): Promise<string[]> {
  const o = dirs ? { dirs } : {}
  // `git var` applies the same strict rules as `git commit`, including GIT_AUTHOR_* variables and auto-detection.
  const author = await tryGit(dir, ['var', 'GIT_AUTHOR_IDENT'], o)
  const committer = await tryGit(dir, ['var', 'GIT_COMMITTER_IDENT'], o)
  if (author && committer) return []
  const config: string[] = []
  if (!(await tryGit(dir, ['config', 'user.name'], o))) config.push(`user.name=${FALLBACK_NAME}`)
  if (!(await tryGit(dir, ['config', 'user.email'], o))) config.push(`user.email=${FALLBACK_EMAIL}`)
  // Both are configured yet git refuses (e.g. an invalid value): override both so the work still gets saved.
  if (!config.length) config.push(`user.name=${FALLBACK_NAME}`, `user.email=${FALLBACK_EMAIL}`)
  return config
}
