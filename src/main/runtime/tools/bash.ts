// Bash: runs `bash -c` in the agent's cwd as the leader of a new process group, so a timeout or an abort
// takes down everything the command started. Output is interleaved stdout+stderr, capped, and streamed to the
// UI while it runs. Every command runs in the OS sandbox the permission layer granted it (bash-sandbox.ts),
// with an environment that carries no credentials.
import { spawnChild } from '../security/spawn'
import { appendFileSync, closeSync, openSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import type { PathPolicy } from '../security/path-policy'
import { privateTempDir } from '../security/private-temp'
import { errorMessage } from '../../../shared/error-message'
import { builtinTool } from './builtin-tool'
import { type SandboxLevel, type ToolContext, type ToolResult, toolInput } from './define-tool'
import { OutputCapture } from './output-capture'
import { groupEnded, killProcessGroup, trackBackgroundGroup } from './process-group'
import { prepareCommand, sandboxHint, type PreparedCommand } from './bash-sandbox'
import type { ToolOptions } from './tool-options'

export const BASH_DEFAULT_TIMEOUT_MS = 120_000
export const BASH_MAX_TIMEOUT_MS = 600_000
/** After SIGTERM, how long the group gets to clean up before SIGKILL. */
const KILL_GRACE_MS = 2_000
/** After bash exits, how long to wait for pipes held open by a backgrounded grandchild. */
const PIPE_DRAIN_MS = 250
const UPDATE_INTERVAL_MS = 100

const schema = toolInput('Bash', () =>
  z.object({
    command: z.string().min(1).describe('The command to execute'),
    timeout: z.number().int().min(1).max(BASH_MAX_TIMEOUT_MS).optional().describe(`Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS})`),
    description: z.string().optional().describe('A short description of what the command does, in 5-10 words'),
    run_in_background: z.boolean().optional().describe('Run the command in the background and return at once; its output goes to a file you can Read'),
    dangerouslyDisableSandbox: z
      .boolean()
      .optional()
      .describe(
        "Run outside the sandbox. Only when a command failed because of the sandbox and truly needs more (network, writes outside the project); it always needs the user's approval"
      )
  })
)

export interface BashDetails {
  command: string
  exitCode: number | null
  signal: string | null
  durationMs: number
  timedOut: boolean
  aborted: boolean
  outputChars: number
  truncated: boolean
  pid?: number
  /** What it ran in: the read-only or workspace sandbox, or none. */
  sandbox: SandboxLevel
}

function human(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}` : `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`
}

function runForeground(command: string, prepared: PreparedCommand, cwd: string, timeoutMs: number, ctx: ToolContext): Promise<ToolResult> {
  const started = Date.now()
  const capture = new OutputCapture(undefined, undefined, ctx.outputFile)
  // Kept apart as well, for hooks: Claude Code's tool_response has stdout and stderr separately.
  const apart = { stdout: new OutputCapture(), stderr: new OutputCapture() }
  const child = spawnChild('/bin/bash', ['-c', prepared.line], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { base: prepared.env, pass: prepared.passEnv }
  })
  const pid = child.pid
  if (pid !== undefined) prepared.started(pid)
  let timedOut = false
  let aborted = false
  let exitCode: number | null = null
  let exitSignal: string | null = null
  let spawnError: Error | null = null
  let lastUpdate = 0
  let updateTimer: NodeJS.Timeout | null = null
  let killTimer: NodeJS.Timeout | null = null
  let drainTimer: NodeJS.Timeout | null = null

  const emitUpdate = (): void => {
    updateTimer = null
    lastUpdate = Date.now()
    ctx.onUpdate?.({ kind: 'bash_output', output: capture.recent(4000), outputChars: capture.totalChars, elapsedMs: lastUpdate - started })
  }
  const scheduleUpdate = (): void => {
    if (!ctx.onUpdate || updateTimer) return
    const wait = UPDATE_INTERVAL_MS - (Date.now() - lastUpdate)
    if (wait <= 0) emitUpdate()
    else updateTimer = setTimeout(emitUpdate, wait)
  }
  child.stdout.on('data', (chunk: Buffer) => (capture.push('stdout', chunk), apart.stdout.push('stdout', chunk), scheduleUpdate()))
  child.stderr.on('data', (chunk: Buffer) => (capture.push('stderr', chunk), apart.stderr.push('stderr', chunk), scheduleUpdate()))

  const terminate = (): void => {
    if (pid === undefined || killTimer) return
    killProcessGroup(pid, 'SIGTERM')
    killTimer = setTimeout(() => killProcessGroup(pid, 'SIGKILL'), KILL_GRACE_MS)
  }
  const timeoutTimer = setTimeout(() => {
    timedOut = true
    terminate()
  }, timeoutMs)
  const onAbort = (): void => {
    aborted = true
    terminate()
  }
  if (ctx.signal.aborted) onAbort()
  else ctx.signal.addEventListener('abort', onAbort, { once: true })

  return new Promise((resolve) => {
    let done = false
    const finish = (): void => {
      if (done) return
      done = true
      for (const t of [timeoutTimer, killTimer, drainTimer, updateTimer]) if (t) clearTimeout(t)
      ctx.signal.removeEventListener('abort', onAbort)
      capture.flush()
      apart.stdout.flush()
      apart.stderr.flush()
      const durationMs = Date.now() - started
      const output = capture.text().replace(/\s+$/, '')
      const parts = output ? [output] : []
      if (spawnError) parts.push(`Could not start bash: ${spawnError.message}`)
      else if (timedOut) parts.push(`Command timed out after ${human(timeoutMs)}; it and every process it started were killed.`)
      else if (aborted) parts.push('Command was stopped because the agent was interrupted; it and every process it started were killed.')
      // The exit code first, then the output, as Claude Code words it (hooks read it as PostToolUseFailure's `error`).
      else if (exitCode !== 0) parts.unshift(exitCode === null ? `Command was killed by signal ${exitSignal}.` : `Exit code ${exitCode}`)
      else if (!output) parts.push('(Command completed with no output)')
      const hint = sandboxHint(prepared.sandbox, output, exitCode !== 0)
      if (hint) parts.push(hint)
      const details: BashDetails = {
        command,
        exitCode,
        signal: exitSignal,
        durationMs,
        timedOut,
        aborted,
        outputChars: capture.totalChars,
        truncated: capture.truncated,
        pid,
        sandbox: prepared.sandbox
      }
      const response = {
        stdout: apart.stdout.text().replace(/\s+$/, ''),
        stderr: apart.stderr.text().replace(/\s+$/, ''),
        interrupted: timedOut || aborted,
        isImage: false,
        noOutputExpected: false
      }
      const result = { content: parts.join('\n'), isError: Boolean(spawnError) || timedOut || aborted || exitCode !== 0, details, response }
      void releaseWhenEnded(prepared, pid).then((problem) => resolve(problem ? { ...result, content: `${result.content}\n${problem}` } : result))
    }
    child.on('error', (err) => {
      spawnError = err
      finish()
    })
    child.on('exit', (code, signal) => {
      exitCode = code
      exitSignal = signal
      // A stopped command's stragglers (e.g. a child that ignores SIGTERM) get no grace once bash is gone.
      if ((timedOut || aborted) && pid !== undefined) killProcessGroup(pid, 'SIGKILL')
      drainTimer = setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
        finish()
      }, PIPE_DRAIN_MS)
    })
    child.on('close', finish)
  })
}

/**
 * The command's sandbox is released (its placeholders removed) once nothing of the command runs any more.
 * Returns what went wrong doing so, in words for the result, or null.
 */
async function releaseWhenEnded(prepared: PreparedCommand, pid: number | undefined): Promise<string | null> {
  if (prepared.sandbox !== 'off' && pid !== undefined) await groupEnded(pid)
  try {
    prepared.release()
    return null
  } catch (err) {
    return `(The sandbox could not clean up after the command: ${errorMessage(err)}. Empty placeholder files may be left in the folder.)`
  }
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80) || 'x'
}

function runBackground(command: string, prepared: PreparedCommand, cwd: string, ctx: ToolContext): ToolResult {
  // A file of its own ('wx': never an earlier command's file, never through a link), numbered should a
  // tool-use id repeat.
  const dir = privateTempDir('bash')
  const base = `${safeName(ctx.agentId)}-${safeName(ctx.toolUseId)}`
  let outputFile = join(dir, `${base}.log`)
  let fd: number
  for (let n = 2; ; n++) {
    try {
      fd = openSync(outputFile, 'wx', 0o600)
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      outputFile = join(dir, `${base}-${n}.log`)
    }
  }
  const child = spawnChild('/bin/bash', ['-c', prepared.line], {
    cwd,
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { base: prepared.env, pass: prepared.passEnv }
  })
  closeSync(fd)
  const pid = child.pid
  if (pid === undefined) {
    prepared.release()
    return { content: 'Could not start bash in the background.', isError: true }
  }
  prepared.started(pid)
  child.unref()
  const untrack = trackBackgroundGroup(pid)
  // Stopping the agent stops what it left running.
  const onAbort = (): void => void killProcessGroup(pid, 'SIGTERM')
  ctx.signal.addEventListener('abort', onAbort, { once: true })
  child.on('exit', (code, signal) => {
    untrack()
    ctx.signal.removeEventListener('abort', onAbort)
    // A stopped command's stragglers get no grace once its leader is gone.
    if (ctx.signal.aborted) killProcessGroup(pid, 'SIGKILL')
    void releaseWhenEnded(prepared, pid).then((problem) => {
      try {
        appendFileSync(
          outputFile,
          `\n[fanout: command exited ${code === null ? `on signal ${signal}` : `with code ${code}`}]\n${problem ? `${problem}\n` : ''}`
        )
      } catch {}
    })
  })
  return {
    content: [
      `Command is running in the background (process group ${pid}).`,
      `Its output is being written to: ${outputFile}`,
      `Read that file to check on it (a final "[fanout: command exited …]" line appears when it ends). To stop it: kill -TERM -- -${pid}`
    ].join('\n'),
    details: { command, background: true, pid, outputFile, sandbox: prepared.sandbox },
    response: { stdout: '', stderr: '', interrupted: false, isImage: false, noOutputExpected: false, backgroundTaskId: String(pid) }
  }
}

export const BASH_TOOL = builtinTool({ name: 'Bash', readOnly: false, concurrencySafe: false, permission: 'bash' }, (opts: ToolOptions, paths: PathPolicy) => ({
  description: [
    'Executes a bash command in the working directory and returns its combined stdout and stderr, after the exit code if non-zero.',
    'Each call runs in a fresh shell there: `cd` and variables do not carry over. No terminal or stdin: avoid interactive commands.',
    'Long output is cut in the middle; on timeout the command and its child processes are killed.',
    'Prefer Read, Glob, Grep, Edit and Write over cat, find, grep, sed and echo redirection.',
    'Commands run in an OS sandbox: writes only inside the working tree and $TMPDIR (none in plan mode), no network except allowed domains, no credentials in the environment.'
  ].join('\n'),
  schema,
  maxOutputChars: 32_000,
  async execute(input, ctx) {
    const dir = await stat(opts.cwd).catch(() => null)
    if (!dir?.isDirectory()) return { content: `The working directory ${opts.cwd} does not exist; the command was not run.`, isError: true }
    const prepared = await prepareCommand(input.command, ctx, paths, opts.sandbox)
    if ('refused' in prepared) return { content: prepared.refused, isError: true }
    if (input.run_in_background) return runBackground(input.command, prepared, opts.cwd, ctx)
    return runForeground(input.command, prepared, opts.cwd, input.timeout ?? BASH_DEFAULT_TIMEOUT_MS, ctx)
  }
}))

/** Bash, built for one agent alone (tests; the registry builds them all). */
export const createBashTool = BASH_TOOL.create
