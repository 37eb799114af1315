// The one place Fanout starts a program. Every child — Bash, hooks, MCP servers, rg, git, the file manager —
// gets the credential-free environment (child-env.ts) built here from what the caller asks for, so a new
// place that runs a program cannot hand it the API key by passing `process.env` along. Nothing else in src/
// imports node:child_process (eslint's no-restricted-imports and test/layering.test.ts check it).
import type { ChildProcess, ChildProcessWithoutNullStreams, StdioOptions } from 'node:child_process'
import { childEnv, type ChildEnvOptions } from './child-env'

// Loaded at the first spawn, not at start: `fanout run` starts no program before its first model request, and
// node:child_process (with the dgram and socket-list modules it loads) is ~1.5 ms of every start.
const childProcess = () => process.getBuiltinModule('node:child_process')

export type { ChildProcess }

export interface SpawnOptions {
  cwd?: string
  /** What the environment is built from (childEnv's options); default: this process's, credentials dropped. */
  env?: ChildEnvOptions
  stdio?: StdioOptions
  detached?: boolean
}

/**
 * Starts `command` with `args` (no shell unless the command is one) and the credential-free environment.
 * Typed with its streams present: those `stdio` sets to 'pipe' (stdout and stderr by default) are.
 */
export function spawnChild(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcessWithoutNullStreams {
  return childProcess().spawn(command, [...args], {
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: childEnv(options.env),
    stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
    ...(options.detached ? { detached: true } : {})
  }) as ChildProcessWithoutNullStreams
}

export interface RunOptions {
  cwd?: string
  env?: ChildEnvOptions
  /** Written to the program's stdin, which is then closed (stdin is empty otherwise). */
  input?: string | Buffer
  /** Output past this many bytes (each stream) stops the program and fails the run. */
  maxBuffer?: number
  /** Stops the program (SIGTERM, then SIGKILL) after this long. */
  timeoutMs?: number
  signal?: AbortSignal
}

export interface RunResult {
  /** The exit code; null when a signal ended it. */
  code: number | null
  signal: NodeJS.Signals | null
  stdout: Buffer
  stderr: Buffer
}

export class RunError extends Error {
  override name = 'RunError'
}

const DEFAULT_MAX_BUFFER = 64 * 1024 * 1024

/**
 * Runs a program to its end and gives its exit and output, whatever the exit code (the caller decides which
 * codes are failures). Rejects when it cannot start, outgrows maxBuffer, times out or is aborted.
 */
export function runChild(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new RunError(`${command} was not started: aborted`))
    let child: ChildProcess
    try {
      child = spawnChild(command, args, {
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        ...(options.env ? { env: options.env } : {}),
        stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe']
      })
    } catch (err) {
      return reject(err)
    }
    const max = options.maxBuffer ?? DEFAULT_MAX_BUFFER
    const out: Buffer[] = []
    const err: Buffer[] = []
    const sizes = { out: 0, err: 0 }
    let failure: Error | null = null
    let killTimer: NodeJS.Timeout | undefined
    const stop = (why: Error) => {
      failure ??= why
      child.kill('SIGTERM')
      killTimer ??= setTimeout(() => child.kill('SIGKILL'), 2000)
      killTimer.unref()
    }
    child.stdout?.on('data', (chunk: Buffer) => {
      sizes.out += chunk.length
      if (sizes.out > max) return stop(new RunError(`${command} wrote more than ${max} bytes`))
      out.push(chunk)
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      sizes.err += chunk.length
      if (sizes.err <= max) err.push(chunk)
    })
    const timer = options.timeoutMs ? setTimeout(() => stop(new RunError(`${command} timed out after ${options.timeoutMs} ms`)), options.timeoutMs) : undefined
    const onAbort = () => stop(new RunError(`${command} was stopped: aborted`))
    options.signal?.addEventListener('abort', onAbort, { once: true })
    const finish = () => {
      if (timer) clearTimeout(timer)
      if (killTimer) clearTimeout(killTimer)
      options.signal?.removeEventListener('abort', onAbort)
    }
    child.once('error', (e) => {
      finish()
      reject(e)
    })
    // Stopped: settled when the program itself ends; a child it left holding the pipes must not keep us waiting.
    child.once('exit', () => {
      if (!failure) return
      finish()
      child.stdout?.destroy()
      child.stderr?.destroy()
      reject(failure)
    })
    child.once('close', (code, signal) => {
      finish()
      if (failure) return reject(failure)
      resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err) })
    })
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined) // a program that exits without reading its input
      child.stdin.end(options.input)
    }
  })
}
