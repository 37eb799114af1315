// What a sandboxed command may touch, by level:
// - read-only (plan mode, read-only agents, commands auto-approved as read-only): no writes anywhere (the
//   sandbox's own writable scratch paths are denied too), no network;
// - workspace (every other sandboxed command): writes in the agent's working tree (the worktree when
//   isolated, with what of the repository's git folder its own commits need: git-dir-policy.ts) and a
//   per-session temporary folder, never the protected paths (protected-paths.ts: the one list the file tools
//   obey too); network only to the domains the user allowed.
// Both: reads everywhere except files a Read(...) deny rule protects and well-known credential stores
// (SSH and cloud keys, token files, Fanout's own stored API key). sandbox-runtime itself adds the dangerous
// files of the working tree (.git/hooks, .git/config, shell rc files, .vscode, .claude/agents) to the write
// denies in every level.
//
// The working tree's `.claude` folder is write-protected whole, not only its agents and commands: all of it
// configures what runs later (settings, hooks, agents, commands, skills, output styles). That also spares a
// project that has a `.claude` folder two placeholders per command (sandbox-runtime covers an absent
// `.claude/agents` and `.claude/commands` with empty files a person sees while the command runs; under a
// read-only `.claude` it needs none). Without a `.claude` folder the one placeholder is `.claude` itself,
// as before. See mount-points.ts.
import { existsSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { gitDirWrites } from './git-dir-policy'
import { resolvePattern } from '../../permissions/path-rules'
import type { SandboxLevel } from '../../tools/define-tool'
import { CLAUDE_CODE_CREDENTIAL_FILES } from '../credential-files'
import type { PathPolicy } from '../path-policy'
import { PROTECTED_DIRS, PROTECTED_FILES } from '../protected-paths'
import { realTarget } from '../real-target'
import { otherNamesOf } from './hard-links'
import type { CommandPolicy } from './sandbox-runtime'

/** Credential stores no sandboxed command reads, relative to the home directory. */
const CREDENTIAL_STORES = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.anthropic',
  ...CLAUDE_CODE_CREDENTIAL_FILES
]
// Protected paths that do not exist are not denied (each would cost a placeholder file per command): creating
// one runs nothing the project's own code could not (sandbox-runtime still covers its own absent list:
// .mcp.json, .gitmodules, shell rc files, .vscode, .idea; and .claude is denied absent or not).
/** Inside the repository's git folder, besides sandbox-runtime's hooks and config: what git obeys later. */
const GIT_DIR_PROTECTED = ['config.worktree', 'modules', 'worktrees', 'info/attributes']
/** Protected folders a command protects only in part: yarn writes its cache and install state in `.yarn`. */
const IN_PART: Record<string, string[]> = { '.yarn': ['.yarn/releases', '.yarn/plugins'] }
/** Paths sandbox-runtime leaves writable by default; a read-only command gets none of them. */
const LIBRARY_SCRATCH = (home: string) => ['/tmp/claude', join(home, '.npm', '_logs'), join(home, '.claude', 'debug')]

export interface SandboxPolicyOptions {
  /** The path check of the agent (cwd, deny rules). */
  paths: PathPolicy
  /** A folder the command may use as TMPDIR (workspace level). */
  tmpDir: string
  /** Domains sandboxed commands may reach (the user's sandbox.network.allowedDomains). */
  allowedDomains: readonly string[]
  /** Files that must stay unreadable (e.g. Fanout's stored API key). */
  secretFiles?: readonly string[]
  /** More protected paths no command may write: the configured hooks path, hooks' scripts (protected-paths.ts). */
  protectedExtra?: readonly string[]
}

/**
 * The protected paths (protected-paths.ts) of the working tree that exist, and the extra ones, each with where
 * it really leads (a `.husky` that is a link to `tools/hooks` protects `tools/hooks`). `.git` itself stays
 * writable so commits work; its parts git obeys later are listed.
 */
function protectedWritePaths(cwd: string, extra: readonly string[]): string[] {
  const dirs = PROTECTED_DIRS.filter((d) => d !== '.git').flatMap((d) => IN_PART[d] ?? [d])
  const names = [...dirs, ...PROTECTED_FILES, ...GIT_DIR_PROTECTED.map((p) => join('.git', p))]
  const found = names.map((n) => join(cwd, n)).filter((p) => existsSync(p))
  const all = [...found, ...extra]
  const real = all.map((p) => realTarget(p)).filter((p): p is string => p !== null)
  // A second name of a protected file (a hard link) is the protected file.
  const aliases = otherNamesOf([...all, join(cwd, '.git', 'hooks'), join(cwd, '.git', 'config')], cwd)
  return [...new Set([...all, ...real, ...aliases])]
}

/** A gitignore-style rule as the sandbox's path list reads it (absolute; globs expanded by the sandbox). */
function ruleToSandboxPath(content: string, root: string | undefined, paths: PathPolicy): string {
  const { base, pattern } = resolvePattern(content, root, paths.ctx)
  const body = pattern.replace(/^\//, '').replace(/\/\*\*$/, '')
  const anywhere = !pattern.slice(1).replace(/\/$/, '').includes('/') && !pattern.startsWith('/')
  return anywhere ? join(base, '**', body.replace(/\/$/, '')) : join(base, body)
}

export function sandboxPolicy(level: Exclude<SandboxLevel, 'off'>, opts: SandboxPolicyOptions): CommandPolicy {
  const { paths } = opts
  const home = paths.home
  const denyRead = [
    ...paths.rulesFor('read', 'Bash').map((r) => ruleToSandboxPath(r.content as string, r.root, paths)),
    ...CREDENTIAL_STORES.map((p) => join(home, p)),
    ...(opts.secretFiles ?? [])
  ].filter((p) => isAbsolute(p))
  if (level === 'read-only') {
    return { cwd: paths.cwd, allowWrite: [], denyWrite: LIBRARY_SCRATCH(home).filter((p) => existsSync(p)), denyRead, allowedDomains: [] }
  }
  const allowWrite = [paths.cwd, opts.tmpDir]
  const denyWrite = [
    ...paths.rulesFor('write', 'Bash').map((r) => ruleToSandboxPath(r.content as string, r.root, paths)),
    // Absent or not, as sandbox-runtime would cover an absent one with a placeholder at this same path anyway.
    join(paths.cwd, '.claude'),
    ...protectedWritePaths(paths.cwd, opts.protectedExtra ?? [])
  ]
  const git = gitDirWrites(paths.cwd)
  allowWrite.push(...git.allowWrite)
  denyWrite.push(...git.denyWrite)
  return {
    cwd: paths.cwd,
    tmpDir: opts.tmpDir,
    allowWrite,
    denyWrite: denyWrite.filter((p) => isAbsolute(p)),
    denyRead,
    allowedDomains: [...opts.allowedDomains]
  }
}
