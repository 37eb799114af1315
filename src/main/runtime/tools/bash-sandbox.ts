// How one Bash call is started: in which sandbox (or none), with which environment. The permission layer says
// what the call was granted (ctx.sandbox); the agent's floor raises a "workspace" grant to "read-only" for
// plan mode and read-only agents. Every command gets an environment without credentials (security/child-env).
import { randomBytes } from 'node:crypto'
import { childEnv } from '../security/child-env'
import type { PathPolicy } from '../security/path-policy'
import { privateTempDir } from '../security/private-temp'
import { knownHookScripts, refreshHooksPath } from '../security/protected-paths'
import { gitExcludesFor, withGitConfig, workTreeTop } from '../security/sandbox/git-excludes'
import { sandboxPolicy } from '../security/sandbox/sandbox-policy'
import { mountPoints } from '../security/sandbox/mount-points'
import { sharedSandboxRuntime, type SandboxRuntime } from '../security/sandbox/sandbox-runtime'
import type { SandboxLevel, ToolContext } from './define-tool'

export interface BashSandboxOptions {
  /** Default: the process's shared sandbox. */
  runtime?: SandboxRuntime
  /** The least this agent is held to: read-only in plan mode and for read-only agents. */
  floor?: 'read-only' | 'workspace'
  /** Domains sandboxed commands may reach (the user's sandbox.network.allowedDomains). */
  allowedDomains?: () => readonly string[]
  /** Files no sandboxed command may read (Fanout's stored API key). */
  secretFiles?: readonly string[]
  /** Credential-looking variables the user's settings pass on anyway. */
  passEnv?: readonly string[]
  /** Variables every command gets (Claude Code settings' `env`), under Fanout's own NO_PROMPTS. */
  env?: Readonly<Record<string, string>>
}

export interface PreparedCommand {
  /** The command line for `/bin/bash -c`. */
  line: string
  env: Record<string, string>
  /** The credential-looking names the settings pass on anyway (the spawn helper filters `env` again with them). */
  passEnv: readonly string[]
  /** What the command runs in, for the UI and the model. */
  sandbox: SandboxLevel
  /** Call with the pid of the process that runs `line`. */
  started(pid: number): void
  release(): void
}

/** Nothing may wait for a human at a pager or a credential prompt: there is no terminal. */
const NO_PROMPTS = { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' }
const noop = (): void => undefined

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80) || 'x'
}

export function effectiveLevel(floor: 'read-only' | 'workspace', granted: SandboxLevel | undefined): SandboxLevel {
  if (granted === 'off') return 'off' // decided with the floor in view (a person approved it, or bypass mode)
  return granted === 'read-only' || floor === 'read-only' ? 'read-only' : 'workspace'
}

export function describeSandbox(level: SandboxLevel): string {
  if (level === 'read-only') return 'the read-only sandbox: no file writes, no network'
  if (level === 'workspace') return 'the sandbox: writes only in the working tree and $TMPDIR, network only to allowed domains'
  return 'no sandbox'
}

/** Prepares the call, or says why it may not run. `sandbox: false` runs every command as is (tests of the tool itself). */
export async function prepareCommand(
  command: string,
  ctx: ToolContext,
  paths: PathPolicy,
  opts: BashSandboxOptions | false | undefined
): Promise<PreparedCommand | { refused: string }> {
  const level = opts === false ? 'off' : effectiveLevel(opts?.floor ?? 'workspace', ctx.sandbox)
  const passEnv = (opts ? opts.passEnv : undefined) ?? []
  const settingsEnv = (opts ? opts.env : undefined) ?? {}
  const baseEnv = (extra: Record<string, string>) => childEnv({ pass: passEnv, set: { ...settingsEnv, ...NO_PROMPTS, ...extra } })
  if (level === 'off' || opts === false) return { line: command, env: baseEnv({}), passEnv, sandbox: 'off', started: noop, release: noop }
  const runtime = opts?.runtime ?? sharedSandboxRuntime()
  const status = await runtime.ready()
  if (!status.available) {
    // The permission layer asks a person when there is no sandbox; a call it sent here expecting one is refused.
    if (ctx.sandbox)
      return {
        refused: `Bash did not run the command: it was approved to run in ${describeSandbox(level)}, and the sandbox is unavailable (${status.reason}).`
      }
    return { line: command, env: baseEnv({}), passEnv, sandbox: 'off', started: noop, release: noop }
  }
  const tmpDir = privateTempDir('sandbox', safeName(ctx.agentId))
  // The configured hooks path and hooks' scripts are protected paths too (security/protected-paths.ts).
  const protectedExtra = level === 'workspace' ? [...(await refreshHooksPath(paths.cwd)), ...knownHookScripts()] : []
  const policy = sandboxPolicy(level, { paths, tmpDir, allowedDomains: opts?.allowedDomains?.() ?? [], secretFiles: opts?.secretFiles, protectedExtra })
  const wrapped = await runtime.wrap(command, policy, ctx.signal)
  // A read-only command must not start a repository's fsmonitor program.
  const env = level === 'read-only' ? withGitConfig(baseEnv({}), 'core.fsmonitor', 'false') : baseEnv({})
  // Git in there skips the sandbox's placeholders: this command's, and those of others running in the same tree.
  const top = workTreeTop(paths.cwd)
  const git = top
    ? await gitExcludesFor(paths.cwd, [...wrapped.placeholders, ...mountPoints.placeholdersUnder(top)], randomBytes(8).toString('hex'), env)
    : null
  return {
    line: wrapped.command,
    env: git?.env ?? env,
    passEnv,
    sandbox: level,
    started: wrapped.started,
    release: () => {
      git?.dispose()
      wrapped.release()
    }
  }
}

const BLOCKED =
  /Read-only file system|Operation not permitted|Permission denied|Could not resolve host|Temporary failure in name resolution|Network is unreachable|Connection refused|blocked-by-sandbox-runtime|403 Forbidden/i

/** A hint for the model when a sandboxed command failed the way the sandbox makes commands fail. */
export function sandboxHint(level: SandboxLevel, output: string, failed: boolean): string | null {
  if (level === 'off' || !failed || !BLOCKED.test(output)) return null
  return `(This command ran in ${describeSandbox(level)}. If it needs more, say so to the user; a command that must run outside the sandbox can be retried with dangerouslyDisableSandbox: true, which always needs the user's approval${level === 'read-only' ? ' and is not possible in plan mode or for read-only agents' : ''}.)`
}
