// Claude Code itself for the benchmark: the pinned devDependency `@anthropic-ai/claude-code` (its native
// binary), run headless (`-p`) against the scripted server with a temporary HOME and nothing of this
// machine's configuration, as the differential tests run it. Where it cannot run, `claudeCodeBinary()` says
// why and the benchmark prints Fanout's figures alone with that reason.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export const CLAUDE_CODE_VERSION = '2.1.328'

const require = createRequire(import.meta.url)

function candidates(): string[] {
  const out: string[] = []
  const platform = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`
  for (const pkg of [platform, `${platform}-musl`]) {
    try {
      out.push(join(dirname(require.resolve(`${pkg}/package.json`)), 'claude'))
    } catch {}
  }
  try {
    out.push(join(dirname(require.resolve('@anthropic-ai/claude-code/package.json')), 'bin/claude.exe'))
  } catch {}
  return out
}

/** The binary's path, or why there is none that runs here. */
export function claudeCodeBinary(): { path: string } | { skip: string } {
  // Before its postinstall runs, the wrapper's bin is a small placeholder script.
  const found = candidates().find((p) => existsSync(p) && statSync(p).size > 1_000_000)
  if (!found) return { skip: `Claude Code ${CLAUDE_CODE_VERSION} is not installed (npm ci with optional dependencies installs it)` }
  const v = spawnSync(found, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent-home' } })
  if (v.status !== 0) return { skip: `Claude Code at ${found} does not start here: ${(v.stderr || v.error?.message || `exit ${v.status}`).trim().slice(0, 200)}` }
  if (!v.stdout.includes(CLAUDE_CODE_VERSION)) return { skip: `Claude Code at ${found} is ${v.stdout.trim()}, not the pinned ${CLAUDE_CODE_VERSION}` }
  return { path: found }
}

export interface ClaudeCodeRun {
  code: number | null
  /** Epoch ms when its JSON result had been printed. */
  endedAt: number
  result: any
  stderr: string
}

/** `claude -p PROMPT` in `cwd` against `baseUrl`; resolves once it exits. */
export function runClaudeCode(bin: string, opts: { cwd: string; home: string; baseUrl: string; prompt: string; model: string; tools: string[] }): Promise<ClaudeCodeRun> {
  mkdirSync(join(opts.home, 'tmp'), { recursive: true })
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.home,
    TMPDIR: join(opts.home, 'tmp'),
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: 'sk-test',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1'
  }
  const args = ['-p', opts.prompt, '--output-format', 'json', '--model', opts.model, '--allowedTools', opts.tools.join(',')]
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let endedAt = 0
    child.stdout.on('data', (d) => {
      stdout += d
      if (!endedAt && stdout.trimEnd().endsWith('}')) endedAt = performance.timeOrigin + performance.now()
    })
    child.stderr.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      let result: any = null
      try {
        result = JSON.parse(stdout)
      } catch {}
      resolve({ code, endedAt: endedAt || performance.timeOrigin + performance.now(), result, stderr })
    })
    child.stdin.end('')
  })
}
