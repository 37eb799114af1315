// `fanout run` for the benchmark as a person starts it: a fresh process of the built CLI (bin/fanout, its
// code cache as a user's would be after one run), a data folder of its own with no settings (the defaults:
// subagent cap, cache sharing), a HOME of its own, against the scripted server. Like Claude Code's run
// (claude-code.ts), the end is the moment its JSON result had been printed: the process goes on shutting
// down after that, which is not fan-out overhead.
import { spawn, type ChildProcessByStdio, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type { Readable } from 'node:stream'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { machineNow } from './machine-clock'

export interface FanoutRun {
  code: number | null
  /** When its JSON result had been printed, ms on the machine's monotonic clock (machine-clock.ts). */
  endedAt: number
  result: any
  stderr: string
}

/**
 * `fanout run -p PROMPT --output-format json` in `cwd` against `baseUrl`; resolves once it exits. `settings`
 * is written to the run's settings.json (none: the defaults, as a new user has them).
 */
export function runFanoutProcess(opts: {
  root: string
  cwd: string
  home: string
  baseUrl: string
  prompt: string
  model: string
  settings?: Record<string, unknown>
  /** More environment (e.g. FANOUT_CODE_CACHE_DIR). */
  env?: Record<string, string>
  /** Node or V8 flags before the entry (a trial: BENCH_TRIAL_NODE_ARGS). */
  nodeArgs?: string[]
}): Promise<FanoutRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fanout-bench-data-'))
  if (opts.settings) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(opts.settings))
  // BENCH_FANOUT_PROFILE=dir: each run's CPU profile lands there (open it in DevTools; out/cli/fanout.cjs.map names its functions).
  // BENCH_FANOUT_PROFILE_INTERVAL=µs samples more often than Node's 1 ms (Node refuses it in NODE_OPTIONS).
  const dir = process.env.BENCH_FANOUT_PROFILE
  const interval = process.env.BENCH_FANOUT_PROFILE_INTERVAL
  const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...(interval ? [`--cpu-prof-interval=${interval}`] : [])] : []
  const child = spawn(
    process.execPath,
    [
      ...(opts.nodeArgs ?? []),
      ...profile,
      join(opts.root, 'bin/fanout'),
      'run',
      '-p',
      opts.prompt,
      '--output-format',
      'json',
      '--model',
      opts.model,
      '--cwd',
      opts.cwd
    ],
    {
      cwd: opts.cwd,
      env: {
        PATH: process.env.PATH,
        HOME: opts.home,
        // A key of its own per run, shaped like a real one: random, so the redaction of credentials finds it in no
        // prompt (a key spelt "bench-fanout-run-…" matched the benchmark's "FANOUT-BENCH fan-out" prompt).
        ANTHROPIC_API_KEY: `sk-ant-api03-${randomBytes(70).toString('base64url')}AA`,
        ANTHROPIC_BASE_URL: opts.baseUrl,
        FANOUT_DATA_DIR: dataDir,
        ...opts.env
      },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  return watchChild(child, (stdout) => stdout.trimEnd().endsWith('}')).then(({ code, endedAt, stdout, stderr }) => {
    // Each run's sessions go with it: a full bench makes a few hundred runs, and /tmp kept every one.
    rmSync(dataDir, { recursive: true, force: true })
    let result: any = null
    try {
      result = JSON.parse(stdout)
    } catch {}
    return { code, endedAt, result, stderr }
  })
}

/**
 * A bench child's output until it exits, and the moment its answer was out (`done` first true of its stdout so
 * far): the process goes on shutting down after that, which is not what is measured.
 */
export function watchChild(
  child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>,
  done: (stdout: string) => boolean
): Promise<{ code: number | null; endedAt: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  let endedAt = 0
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d
    if (!endedAt && done(stdout)) endedAt = machineNow()
  })
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, endedAt: endedAt || machineNow(), stdout, stderr })))
}
