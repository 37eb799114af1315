// Runtime overhead of a fan-out. The scripted model answers every call after a fixed latency L; a main
// agent starts N subagents in one message, each makes one tool call (Glob) and then reports. The critical
// path is 4 model calls (main → child tool call → child report → main summary), so
//   overhead = (wall time from the first request's arrival to the last response's end) − 4·L
// is what the runtime itself adds: spawning, tool execution, prompt building, event handling.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AgentSession } from '../src/main/runtime/orchestration'
import { reply, scriptByAgent, startScriptedModel } from '../src/main/runtime/model/scripted'

const L = Number(process.env.BENCH_LATENCY_MS ?? 50)
const SIZES = (process.env.BENCH_SIZES ?? '1,4,16,64').split(',').map(Number)
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3)

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fanout-bench-'))
  mkdirSync(join(dir, 'src'))
  for (let i = 0; i < 20; i++) writeFileSync(join(dir, 'src', `file${i}.ts`), `export const v${i} = ${i}\n`)
  return dir
}

async function once(n: number, cwd: string, home: string): Promise<number> {
  const model = await startScriptedModel(
    {
      latencyMs: L,
      respond: scriptByAgent([
        { name: 'worker', match: /Worker task \d+/, turns: [reply.toolUse('Glob', { pattern: 'src/*.ts' }), reply.text('found them')] },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUses(Array.from({ length: n }, (_, i) => ({ name: 'Agent', input: { description: `Worker ${i}`, prompt: `Worker task ${i}` } }))), reply.text('done')]
        }
      ])
    },
    { maxRetries: 0 }
  )
  try {
    const session = await AgentSession.create({ cwd, home, client: model.client, ripgrep: false, limits: { maxConcurrent: 1000, maxAgentsPerSession: 10_000 } })
    const result = await session.run('Fan out.')
    if (result.status !== 'completed') throw new Error(`run ended ${result.status}: ${result.error ?? ''}`)
    const reqs = model.server.requests
    const first = Math.min(...reqs.map((r) => r.receivedAt))
    // The last response ends when the main agent's final call returns; the run resolves right after.
    const last = performance.now()
    return last - first - 4 * L
  } finally {
    await model.close()
  }
}

export async function benchFanOut(): Promise<void> {
  const cwd = project()
  const home = mkdtempSync(join(tmpdir(), 'fanout-bench-home-'))
  await once(2, cwd, home) // warm up module loading and the JIT
  console.log(`\nFan-out overhead (scripted latency L = ${L} ms per model call; critical path 4·L = ${4 * L} ms; best of ${REPEATS})`)
  console.log('  N    overhead total   per hand-off (÷3 on the critical path)   per subagent')
  for (const n of SIZES) {
    const runs: number[] = []
    for (let i = 0; i < REPEATS; i++) runs.push(await once(n, cwd, home))
    const best = Math.min(...runs)
    console.log(`  ${String(n).padEnd(4)} ${best.toFixed(1).padStart(8)} ms      ${(best / 3).toFixed(2).padStart(8)} ms                            ${(best / n).toFixed(2).padStart(7)} ms`)
  }
}
