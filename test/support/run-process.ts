// Runs a program to its end, collecting its output, without blocking this process's event loop (in-process
// servers keep answering). The one way tests, the differential kit and the benchmark start a process: kept
// apart from cli.ts, which needs the repository's folder, so the benchmark's ESM bundle can import it too.
import { spawn } from 'node:child_process'

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

export interface RunProcessOptions {
  cwd?: string
  /** The whole environment of the program (default: this process's). */
  env?: Record<string, string | undefined>
  /** What stdin carries: all at once, or piece by piece as the generator yields (it may wait on the output first). */
  input?: string | AsyncIterable<string>
  timeoutMs?: number
  /** Hears the output so far each time more arrives (the benchmark notes when a result has been printed). */
  onStdout?: (stdout: string) => void
  /** The same for stderr (a test waits until a process says it waits). */
  onStderr?: (stderr: string) => void
}

/** Runs `cmd` with `env` as its whole environment, collecting its output; killed after `timeoutMs` (30 s). */
export function runProcess(cmd: string, args: string[], opts: RunProcessOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, {
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      env: opts.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
      opts.onStdout?.(stdout)
    })
    child.stderr.on('data', (d) => {
      stderr += d
      opts.onStderr?.(stderr)
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolvePromise({ code, stdout, stderr })
    })
    const input = opts.input ?? ''
    if (typeof input === 'string') child.stdin.end(input)
    else
      void (async () => {
        for await (const piece of input) child.stdin.write(piece)
        child.stdin.end()
      })().catch(() => child.stdin.destroy())
  })
}
