// The OS sandbox Bash commands run in: Anthropic's sandbox-runtime (bubblewrap + seccomp on Linux, Seatbelt
// on macOS), which Claude Code uses for the same job. One per process (the library keeps global state: its
// network proxies and the bookkeeping of mount points). Started lazily, the first time a command needs it:
// its dependencies are checked, its proxies started, and one command is run through it, so "available"
// means a sandbox actually started here, not that a binary exists. Every command then gets its own
// filesystem and network policy (sandbox-policy.ts), under a random id so that its network allow list, if
// any, is its own.
//
// The library is loaded from node_modules (it is an ES module that finds its seccomp helper next to itself,
// so it stays outside the CLI bundle) with require(), which Node 20.19+ allows for ES modules: an import()
// would not survive the CLI's code-cached bundle. It is loaded when a command is first sandboxed: `fanout
// run` does not pay for it (~100 ms) until Bash runs.
import { spawnChild } from '../spawn'
import { randomBytes } from 'node:crypto'
import { accessSync, constants } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { mountPoints } from './mount-points'
import { errorMessage } from '../../../../shared/error-message'
import { monotonicMs } from '../../clock'

type Srt = typeof import('@anthropic-ai/sandbox-runtime')

export type SandboxStatus = { available: true; startMs: number } | { available: false; reason: string }

/** What one command may do: filesystem lists as sandbox-runtime reads them (absolute paths), network domains. */
export interface CommandPolicy {
  /** The command's directory: its tree's dangerous files are protected from writes. */
  cwd: string
  /** The command's $TMPDIR (sandbox-runtime sets it inside the sandbox, from CLAUDE_CODE_TMPDIR at wrap time). */
  tmpDir?: string
  allowWrite: string[]
  denyWrite: string[]
  denyRead: string[]
  allowedDomains: string[]
}

export interface WrappedCommand {
  /** The command line to run with `/bin/bash -c`. */
  command: string
  /** The placeholders its sandbox stands on (absolute paths; see mount-points.ts). */
  placeholders: readonly string[]
  /** Call with the spawned process's pid: its placeholders must outlive a crash of Fanout while it runs. */
  started(pid: number): void
  /** Call once the command has exited (removes mount points the sandbox made, drops its network list). */
  release(): void
}

export interface SandboxRuntimeOptions {
  /** Explicit bubblewrap / socat binaries (default: found on PATH). */
  bwrapPath?: string
  socatPath?: string
  /** Turned off by the user's settings: every command is treated as unsandboxable, with this reason. */
  disabledReason?: string
}

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && executable(join(dir, name))) return join(dir, name)
  return null
}

const INSTALL_HINT = process.platform === 'darwin' ? 'install ripgrep (brew install ripgrep)' : 'install them with: apt-get install bubblewrap socat ripgrep'

/** Our own check first, so an explicit binary that is missing is reported without touching the global library state. */
function missingDependencies(opts: SandboxRuntimeOptions): string[] {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return [`sandboxing is not supported on ${process.platform}`]
  const missing: string[] = []
  if (process.platform === 'linux') {
    if (opts.bwrapPath ? !executable(opts.bwrapPath) : !onPath('bwrap'))
      missing.push(opts.bwrapPath ? `bubblewrap not found at ${opts.bwrapPath}` : 'bubblewrap (bwrap) is not installed')
    if (opts.socatPath ? !executable(opts.socatPath) : !onPath('socat'))
      missing.push(opts.socatPath ? `socat not found at ${opts.socatPath}` : 'socat is not installed')
  }
  if (!onPath('rg')) missing.push('ripgrep (rg) is not installed')
  return missing
}

/** Runs a wrapped command to its end, for the start-up probe. */
function runProbe(command: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawnChild('/bin/bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr.on('data', (c: Buffer) => (output += c.toString()))
    child.on('error', (err) => resolve({ code: null, output: err.message }))
    child.on('close', (code) => resolve({ code, output: output.trim() }))
  })
}

let library: Srt | undefined
const loadLibrary = (): Srt => (library ??= createRequire(import.meta.url)('@anthropic-ai/sandbox-runtime') as Srt)
let initialized: Promise<void> | undefined
let wrapping: Promise<unknown> = Promise.resolve()

/**
 * Runs `fn` with the process in `dir`. sandbox-runtime takes its working directory from process.cwd(): it
 * protects the dangerous files of that tree (.git/hooks, .git/config, .bashrc, .vscode, .claude/agents… down
 * to three levels) and scans it with ripgrep at every wrap, so it must be the command's own directory (from
 * `/`, a wrap takes ten seconds and protects nothing of the project). Wraps are queued so that only one holds
 * the directory at a time; Fanout's own code never relies on process.cwd() (every tool resolves against its
 * agent's cwd), so nothing else minds the moment it is moved.
 */
function inDirectory<T>(dir: string, tmpDir: string | undefined, fn: () => Promise<T>): Promise<T> {
  const run = wrapping.then(async () => {
    const before = process.cwd()
    const tmpBefore = process.env.CLAUDE_CODE_TMPDIR
    process.chdir(dir)
    if (tmpDir) process.env.CLAUDE_CODE_TMPDIR = tmpDir
    try {
      return await fn()
    } finally {
      process.chdir(before)
      if (tmpBefore === undefined) delete process.env.CLAUDE_CODE_TMPDIR
      else process.env.CLAUDE_CODE_TMPDIR = tmpBefore
    }
  })
  wrapping = run.catch(() => undefined)
  return run
}

export class SandboxRuntime {
  private status: Promise<SandboxStatus> | undefined

  constructor(private readonly opts: SandboxRuntimeOptions = {}) {}

  /** Starts the sandbox once; later calls get the same answer. */
  ready(): Promise<SandboxStatus> {
    return (this.status ??= this.start())
  }

  /** Once a start under way (if any) has finished, probe included. */
  async settled(): Promise<void> {
    await this.status
  }

  private async start(): Promise<SandboxStatus> {
    if (this.opts.disabledReason) return { available: false, reason: this.opts.disabledReason }
    const started = monotonicMs()
    const missing = missingDependencies(this.opts)
    if (missing.length) return { available: false, reason: `${missing.join('; ')} (${INSTALL_HINT})` }
    try {
      const srt = loadLibrary()
      const deps = srt.SandboxManager.checkDependencies()
      if (deps.errors.length) return { available: false, reason: deps.errors.join('; ') }
      await (initialized ??= srt.SandboxManager.initialize({
        network: { allowedDomains: [], deniedDomains: [] },
        filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
        ...(this.opts.bwrapPath ? { bwrapPath: this.opts.bwrapPath } : {}),
        ...(this.opts.socatPath ? { socatPath: this.opts.socatPath } : {})
      }))
      mountPoints.guardSignals()
      const probe = await this.wrap('true', { cwd: tmpdir(), allowWrite: [], denyWrite: [], denyRead: [], allowedDomains: [] })
      const run = await runProbe(probe.command)
      probe.release()
      if (run.code !== 0)
        return { available: false, reason: `bubblewrap could not start a sandbox here (${run.output.split('\n').slice(-2).join(' ') || `exit ${run.code}`})` }
      return { available: true, startMs: Math.round(monotonicMs() - started) }
    } catch (err) {
      initialized = undefined
      return { available: false, reason: `the sandbox could not start (${errorMessage(err)})` }
    }
  }

  /** The command wrapped in its sandbox. Call only after ready() said available. */
  async wrap(command: string, policy: CommandPolicy, signal?: AbortSignal): Promise<WrappedCommand> {
    const srt = loadLibrary()
    const manager = srt.SandboxManager
    // 128 random bits: the id is all that ties a connection to this command's network allow list.
    const commandId = randomBytes(16).toString('base64url')
    const { line, hold } = await inDirectory(policy.cwd, policy.tmpDir, async () => {
      const line = await manager.wrapWithSandbox(
        command,
        'bash',
        {
          network: { allowedDomains: policy.allowedDomains, deniedDomains: [] },
          filesystem: { denyRead: policy.denyRead, allowWrite: policy.allowWrite, denyWrite: policy.denyWrite }
        },
        signal,
        { commandId, commandText: command }
      )
      // Still in the queue: the next wrap must find these placeholders made, not absent.
      return { line, hold: mountPoints.hold(commandId, command, line) }
    })
    if (policy.allowedDomains.length) manager.registerCommandNetworkLists(commandId, { allowedDomains: policy.allowedDomains })
    let released = false
    return {
      command: line,
      placeholders: hold.paths,
      started: (pid) => mountPoints.started(hold, pid),
      release: () => {
        if (released) return
        released = true
        manager.unregisterCommandNetworkLists(commandId)
        mountPoints.release(hold, () => manager.cleanupAfterCommand())
      }
    }
  }
}

/**
 * Stops the sandbox's proxies and relays (they would keep a CLI process alive after its work is done). A
 * later command starts them again.
 */
export async function shutdownSandbox(): Promise<void> {
  if (!initialized) return
  // A start begun as a Bash call streamed, in a run that ended before the call ran, finishes its probe first:
  // the library is not reset under a wrap in progress.
  await shared?.settled()
  const started = initialized
  initialized = undefined
  shared = undefined
  await started.catch(() => undefined)
  // reset() removes every mount point the library tracked, at once (synchronously, before its first await).
  await mountPoints.aroundLibraryReset(() => loadLibrary().SandboxManager.reset())
}

let shared: SandboxRuntime | undefined

/** The process's sandbox (the library behind it is process-wide anyway). */
export function sharedSandboxRuntime(): SandboxRuntime {
  return (shared ??= new SandboxRuntime())
}
