// Test fixture: real git repositories in a temporary folder, driven by the git CLI directly (not by the
// code under test) so assertions see what git itself reports.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** The git environment without inherited GIT_* variables (a test run from a git hook must not leak its GIT_DIR). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v
  return { ...env, ...extra }
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
}

export interface TempRepo {
  /** A temporary folder holding the repository (and anything else the test puts next to it). */
  sandbox: string
  root: string
  git(...args: string[]): string
  write(rel: string, content: string): string
  read(rel: string): string
  commitAll(message: string): string
  cleanup(): void
}

export interface TempRepoOptions {
  /** Folder name of the repository inside the sandbox. */
  name?: string
  /** Make an initial commit (default true). */
  initialCommit?: boolean
  /** Set user.name/user.email in the repository's own config (default true). */
  identity?: boolean
}

export function makeTempRepo(options: TempRepoOptions = {}): TempRepo {
  const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-wt-')))
  const root = join(sandbox, options.name ?? 'project')
  mkdirSync(root, { recursive: true })
  git(root, 'init', '--quiet', '--initial-branch=main')
  if (options.identity !== false) {
    git(root, 'config', 'user.name', 'Test User')
    git(root, 'config', 'user.email', 'test@example.com')
  }
  git(root, 'config', 'commit.gpgsign', 'false')
  const repo: TempRepo = {
    sandbox,
    root,
    git: (...args) => git(root, ...args),
    write(rel, content) {
      const file = join(root, rel)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
      return file
    },
    read: (rel) => readFileSync(join(root, rel), 'utf8'),
    commitAll(message) {
      git(root, 'add', '-A')
      git(root, 'commit', '--quiet', '-m', message)
      return git(root, 'rev-parse', 'HEAD')
    },
    cleanup: () => rmSync(sandbox, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 })
  }
  if (options.initialCommit !== false) {
    repo.write('README.md', '# project\n')
    repo.write('src/app.ts', 'export const answer = 42\n')
    repo.commitAll('initial commit')
  }
  return repo
}
