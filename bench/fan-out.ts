// Runtime overhead of a fan-out. The scripted model answers every call after a fixed latency L; a main
// agent starts N subagents in one message, each makes one tool call (Glob) and then reports. The critical
// path is 4 model calls (main → child tool call → child report → main summary), so
//   overhead = (wall time of the run) − 4·L
// is what the runtime itself adds: spawning, prompt building, tool execution, HTTP and SSE handling, events.
// The scripted server runs in its own process so that its work is not counted as the runtime's.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createModelClient } from '../src/main/runtime/model/client'
import { reply, scriptByAgent, startScriptedServer } from '../src/main/runtime/model/scripted'
import { AgentSession } from '../src/main/runtime/orchestration'

const L = Number(process.env.BENCH_LATENCY_MS ?? 50)
const SIZES = (process.env.BENCH_SIZES ?? '1,4,16,64').split(',').map(Number)
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3)

/** Entry for the server process: `node out/bench/index.mjs --fan-out-server N`. */
export async function serveFanOut(n: number): Promise<void> {
  const server = await startScriptedServer({
    latencyMs: L,
    recordRequests: false,
    respond: scriptByAgent([
      { name: 'worker', match: /Worker task \d+/, turns: [reply.toolUse('Glob', { pattern: 'src/*.ts' }), reply.text('found them')] },
      {
        name: 'main',
        match: 'lead agent in Fanout',
        turns: [reply.toolUses(Array.from({ length: n }, (_, i) => ({ name: 'Agent', input: { description: `Worker ${i}`, prompt: `Worker task ${i}` } }))), reply.text('done')]
      }
    ])
  })
  process.stdout.write(`${server.url}\n`)
}

async function startServerProcess(n: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [process.argv[1], '--fan-out-server', String(n)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the scripted server exited (${code})`)))
  })
  return { url: line.trim(), child }
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fanout-bench-'))
  mkdirSync(join(dir, 'src'))
  for (let i = 0; i < 20; i++) writeFileSync(join(dir, 'src', `file${i}.ts`), `export const v${i} = ${i}\n`)
  return dir
}

async function once(url: string, cwd: string): Promise<number> {
  const client = createModelClient({ apiKey: 'bench', baseURL: url, maxRetries: 0, env: {} })
  const session = await AgentSession.create({ cwd, home: cwd, client, ripgrep: false, managedSettingsFile: null, limits: { maxConcurrent: 1000, maxAgentsPerSession: 10_000 } })
  const started = performance.now()
  const result = await session.run('Fan out.')
  const wall = performance.now() - started
  if (result.status !== 'completed') throw new Error(`run ended ${result.status}: ${result.error ?? ''}`)
  await session.close()
  return wall - 4 * L
}

export async function benchFanOut(): Promise<void> {
  const cwd = project()
  console.log(`\nFan-out overhead (scripted latency L = ${L} ms per model call, server in its own process; critical path 4·L = ${4 * L} ms; best of ${REPEATS} after a warm-up)`)
  console.log('  N    overhead total   per hand-off (÷4 hops on the critical path)')
  for (const n of SIZES) {
    const { url, child } = await startServerProcess(n)
    try {
      await once(url, cwd) // warm-up: module loading, JIT, connection pool
      const runs: number[] = []
      for (let i = 0; i < REPEATS; i++) runs.push(await once(url, cwd))
      const best = Math.min(...runs)
      console.log(`  ${String(n).padEnd(4)} ${best.toFixed(1).padStart(8)} ms      ${(best / 4).toFixed(2).padStart(8)} ms`)
    } finally {
      child.kill()
    }
  }
  console.log('  Targets: < 5 ms per hand-off; < 50 ms in total at N = 64.')
}
