// Runs one hook command the way Claude Code does: through the shell, in the project folder, with
// CLAUDE_PROJECT_DIR set and the event as JSON on stdin. A command that outlives its timeout is killed with
// everything it started (it leads its own process group). Never throws: what happened is in the result.
import { redactValue } from '../../../shared/redact'
import { spawnChild } from '../security/spawn'
import { killProcessGroup } from '../tools/process-group'

const MAX_OUTPUT_CHARS = 1_000_000

export interface HookRun {
  /** null when it was killed (timeout) or never started. */
  exitCode: number | null
  stdout: string
  stderr: string
  timedOut: boolean
  /** Set when the shell itself could not be started. */
  spawnError?: string
}

export interface RunHookOptions {
  command: string
  input: unknown
  /** The project folder: the command's working directory and CLAUDE_PROJECT_DIR. */
  projectDir: string
  timeoutMs: number
  env?: Record<string, string | undefined>
  /** Credential-looking variables the user's settings pass to child processes anyway. */
  passEnv?: readonly string[]
}

export function runHookCommand(opts: RunHookOptions): Promise<HookRun> {
  return new Promise((resolve) => {
    const shell = process.platform === 'win32' ? { cmd: 'cmd.exe', args: ['/d', '/s', '/c', opts.command] } : { cmd: '/bin/sh', args: ['-c', opts.command] }
    let stdout = ''
    let stderr = ''
    let timedOut = false
    let settled = false
    const done = (run: HookRun) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(run)
    }
    const child = spawnChild(shell.cmd, shell.args, {
      cwd: opts.projectDir,
      env: { base: opts.env ?? process.env, ...(opts.passEnv ? { pass: opts.passEnv } : {}), set: { CLAUDE_PROJECT_DIR: opts.projectDir } },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32'
    })
    const timer = setTimeout(() => {
      timedOut = true
      if (child.pid !== undefined) {
        if (process.platform === 'win32') child.kill('SIGKILL')
        else killProcessGroup(child.pid, 'SIGKILL')
      }
    }, opts.timeoutMs)
    child.stdout.on('data', (c: Buffer) => {
      if (stdout.length < MAX_OUTPUT_CHARS) stdout += c.toString('utf8')
    })
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < MAX_OUTPUT_CHARS) stderr += c.toString('utf8')
    })
    child.once('error', (err) => done({ exitCode: null, stdout, stderr, timedOut, spawnError: err.message }))
    child.once('close', (code) => done({ exitCode: timedOut ? null : code, stdout, stderr, timedOut }))
    // A hook that ignores its stdin closes the pipe early; that is its business, not an error.
    child.stdin.on('error', () => undefined)
    // A hook is a program outside Fanout: a tool's output or an error that carried the credential reaches it redacted, as everywhere else.
    child.stdin.end(JSON.stringify(redactValue(opts.input)))
  })
}
