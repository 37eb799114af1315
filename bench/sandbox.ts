// What the Bash sandbox costs: starting it (once per process: loading sandbox-runtime, checking bubblewrap,
// starting its proxies, one probe command), and each command through the Bash tool without a sandbox, in the
// read-only sandbox and in the workspace sandbox. Also the read-only check (parse + allowlist + path check).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { bashReadOnlyVerdict } from '../src/main/runtime/permissions/bash-read-only'
import { PathPolicy } from '../src/main/runtime/security/path-policy'
import { mountPoints } from '../src/main/runtime/security/sandbox/mount-points'
import { SandboxRuntime, shutdownSandbox } from '../src/main/runtime/security/sandbox/sandbox-runtime'
import { createBashTool } from '../src/main/runtime/tools/bash'
import type { SandboxLevel } from '../src/main/runtime/tools/define-tool'
import { runTool } from '../src/main/runtime/tool-call/execute'

const RUNS = 15

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export async function benchSandbox(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fanout-bench-sandbox-'))
  try {
    writeFileSync(join(dir, 'README.md'), 'x\n')
    execFileSync('git', ['init', '-q'], { cwd: dir })
    const runtime = new SandboxRuntime()
    const started = performance.now()
    const status = await runtime.ready()
    const startMs = performance.now() - started
    console.log(`\nBash sandbox (load ${loadavg()[0].toFixed(1)} on ${2} cores)`)
    if (!status.available) {
      console.log(`  unavailable here: ${status.reason}`)
      return
    }
    console.log(`  start, once per process (load sandbox-runtime, check bubblewrap, start proxies, probe): ${startMs.toFixed(0)} ms`)
    const ctx = (sandbox?: SandboxLevel) => ({ signal: new AbortController().signal, agentId: 'bench', toolUseId: 't', ...(sandbox ? { sandbox } : {}) })
    const time = async (label: string, make: () => ReturnType<typeof createBashTool>, sandbox?: SandboxLevel) => {
      const tool = make()
      const runs: number[] = []
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now()
        await runTool(tool, { command: 'true' }, ctx(sandbox))
        runs.push(performance.now() - t)
      }
      console.log(`  ${label}: median ${median(runs).toFixed(0)} ms per command (${RUNS} runs)`)
      return median(runs)
    }
    const bare = await time('no sandbox', () => createBashTool({ cwd: dir, sandbox: false }))
    const ro = await time('read-only sandbox', () => createBashTool({ cwd: dir, sandbox: { runtime } }), 'read-only')
    const ws = await time('workspace sandbox', () => createBashTool({ cwd: dir, sandbox: { runtime } }), 'workspace')
    console.log(`  added per command: read-only +${(ro - bare).toFixed(0)} ms, workspace +${(ws - bare).toFixed(0)} ms`)
    // Each workspace command's placeholders are recorded (two synced appends) before it starts, and removed after.
    const placeholders = await runtime.wrap('true', { cwd: dir, allowWrite: [dir], denyWrite: [join(dir, '.claude')], denyRead: [], allowedDomains: [] })
    console.log(`  placeholders per workspace command here (a project without .claude/): ${placeholders.placeholders.length}`)
    placeholders.release()
    mountPoints.configure(join(dir, 'data', 'sandbox-mounts'))
    const journaled = await time(
      'workspace sandbox, placeholders journaled in the data folder',
      () => createBashTool({ cwd: dir, sandbox: { runtime } }),
      'workspace'
    )
    console.log(`  the crash journal adds ${(journaled - ws).toFixed(0)} ms per workspace command (noise on a busy machine)`)
    const policy = new PathPolicy({ cwd: dir })
    const t0 = performance.now()
    bashReadOnlyVerdict('git status', policy)
    const firstCheck = performance.now() - t0
    const checks: number[] = []
    for (const c of ['git log --oneline | head -20', 'grep -rn TODO .', 'sort -uo README.md /dev/null', 'cat README.md && ls -la']) {
      const t = performance.now()
      for (let i = 0; i < 100; i++) bashReadOnlyVerdict(c, policy)
      checks.push((performance.now() - t) / 100)
    }
    console.log(`  read-only check: first ${firstCheck.toFixed(0)} ms (loads the shell parser), then median ${median(checks).toFixed(2)} ms per command`)
    await shutdownSandbox()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
