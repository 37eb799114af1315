// Claude Code itself for the benchmark: the differential kit's (test/differential/claude-code.ts: the pinned
// devDependency's native binary, a temporary HOME, nothing of this machine's configuration), run headless
// (`-p`) against the scripted server. The benchmark also wants the moment its JSON result had been printed:
// the process goes on shutting down after that, which is not fan-out overhead.
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { claudeCode, runClaudeCode as runKit } from '../test/differential/claude-code'
import { machineNow } from './machine-clock'

export { CLAUDE_CODE_VERSION } from '../test/differential/claude-code'

/** The binary's path, or why there is none that runs here. */
export function claudeCodeBinary(): { path: string } | { skip: string } {
  const bin = claudeCode()
  return bin.path ? { path: bin.path } : { skip: bin.skip ?? 'Claude Code is not installed' }
}

/** The version of the binary as installed (`claude --version`), whatever the project pins. */
export function claudeCodeVersion(bin: string): string {
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, HOME: '/nonexistent-home-for-version' } })
  return (v.stdout || '').trim().split(/\s/)[0] || 'of unknown version'
}

export interface ClaudeCodeRun {
  code: number | null
  /** When its JSON result had been printed, ms on the machine's monotonic clock (machine-clock.ts). */
  endedAt: number
  result: any
  stderr: string
}

/** `claude -p PROMPT --output-format json` in `cwd` against `baseUrl`; resolves once it exits. */
export async function runClaudeCode(opts: {
  cwd: string
  home: string
  baseUrl: string
  prompt: string
  model: string
  tools: string[]
}): Promise<ClaudeCodeRun> {
  mkdirSync(join(opts.home, 'tmp'), { recursive: true })
  let endedAt = 0
  const args = ['-p', opts.prompt, '--output-format', 'json', '--model', opts.model, '--allowedTools', opts.tools.join(',')]
  const run = await runKit({
    cwd: opts.cwd,
    home: opts.home,
    baseUrl: opts.baseUrl,
    args,
    timeoutMs: 600_000,
    onStdout: (out) => void (!endedAt && out.trimEnd().endsWith('}') && (endedAt = machineNow()))
  })
  let result: any = null
  try {
    result = JSON.parse(run.stdout)
  } catch {}
  return { code: run.code, endedAt: endedAt || machineNow(), result, stderr: run.stderr }
}
