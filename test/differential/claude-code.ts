// Claude Code itself, for differential tests: the pinned devDependency `@anthropic-ai/claude-code`, run headless
// (`-p`) against a scripted model server with a temporary HOME, exactly as a user's script would run it.
// Where it cannot run (not installed, e.g. `npm ci --omit=optional`, or a platform it ships no binary for),
// `claudeCode()` says why and the tests skip with that reason.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { runProcess, type CliResult } from '../support/run-process'

/** The version the kit was written against (package.json pins it). */
export const CLAUDE_CODE_VERSION = '2.1.330'

const require = createRequire(import.meta.url)

export type ClaudeCodeBinary = { path: string; skip?: undefined } | { path?: undefined; skip: string }

function platformPackage(): string {
  const musl = process.platform === 'linux' && !existsSync('/lib64/ld-linux-x86-64.so.2') && !existsSync('/lib/ld-linux-aarch64.so.1')
  return `@anthropic-ai/claude-code-${process.platform}-${process.arch}${musl ? '-musl' : ''}`
}

/** The native binary: the platform package's, else the wrapper's bin/claude.exe once its postinstall put it there. */
function findBinary(): string | string[] {
  const tried: string[] = []
  try {
    const dir = dirname(require.resolve(`${platformPackage()}/package.json`))
    const bin = join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude')
    if (existsSync(bin)) return bin
    tried.push(bin)
  } catch {
    tried.push(`${platformPackage()} (not installed)`)
  }
  try {
    const bin = join(dirname(require.resolve('@anthropic-ai/claude-code/package.json')), 'bin/claude.exe')
    // Before its postinstall runs, the wrapper's bin is a small placeholder script.
    if (existsSync(bin) && statSync(bin).size > 1_000_000) return bin
    tried.push(bin)
  } catch {
    tried.push('@anthropic-ai/claude-code (not installed)')
  }
  return tried
}

let cached: ClaudeCodeBinary | undefined

export function claudeCode(): ClaudeCodeBinary {
  if (cached) return cached
  const found = findBinary()
  if (Array.isArray(found))
    return (cached = {
      skip: `Claude Code ${CLAUDE_CODE_VERSION} is not installed here (looked for ${found.join(', ')}); run npm ci with optional dependencies`
    })
  const v = spawnSync(found, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, HOME: '/nonexistent-home-for-version' } })
  if (v.status !== 0)
    return (cached = { skip: `Claude Code at ${found} does not start here: ${(v.stderr || v.error?.message || `exit ${v.status}`).trim().slice(0, 300)}` })
  if (!v.stdout.includes(CLAUDE_CODE_VERSION))
    return (cached = { skip: `Claude Code at ${found} is ${v.stdout.trim()}, not the pinned ${CLAUDE_CODE_VERSION}` })
  return (cached = { path: found })
}

export type ProcessResult = CliResult

export interface RunClaudeCodeOptions {
  cwd: string
  args: string[]
  baseUrl: string
  home: string
  env?: Record<string, string>
  timeoutMs?: number
  /** What stdin carries. */
  input?: string
  /** Hears its output so far as it arrives. */
  onStdout?: (stdout: string) => void
}

/** `claude ARGS` in `cwd`, against the scripted server at `baseUrl`, with nothing of this machine's own configuration. */
export function runClaudeCode(opts: RunClaudeCodeOptions): Promise<ProcessResult> {
  const bin = claudeCode()
  if (!bin.path) throw new Error(bin.skip)
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.home,
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: 'sk-test',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    TMPDIR: join(opts.home, 'tmp'),
    ...opts.env
  }
  return runProcess(bin.path, opts.args, {
    cwd: opts.cwd,
    env,
    timeoutMs: opts.timeoutMs ?? 90_000,
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    ...(opts.onStdout ? { onStdout: opts.onStdout } : {})
  })
}

/** Parses JSON lines, naming the line that does not parse. */
export function jsonLines(text: string, what: string): any[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l)
      } catch {
        throw new Error(`${what}: line ${i + 1} is not JSON: ${l.slice(0, 200)}`)
      }
    })
}

export const readJsonLines = (file: string, what: string): any[] => (existsSync(file) ? jsonLines(readFileSync(file, 'utf8'), what) : [])
