// A targeted figure for the runtime's per-event work (issue #28): 64 subagents stream long replies through
// the scripted server in one fan-out, and this prints the process's CPU time, its garbage collections and the
// state/transcript writes. Run alone (not part of `npm run bench`):
//   npx esbuild bench/stream-path.ts --bundle --platform=node --format=esm --packages=external --outfile=/tmp/sp.mjs && node /tmp/sp.mjs
import { PerformanceObserver } from 'node:perf_hooks'
import { reply } from '../src/main/runtime/model/scripted'
import { closeFixtures, makeFixture } from '../src/main/runtime/orchestration/testing/session-fixture'
import { mainAgent } from '../src/main/runtime/orchestration/testing/scripted-agents'

const N = Number(process.env.N ?? 64)
const words = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ') // ~5 kB: ~1,000 deltas of 5 chars
const runs = Number(process.env.RUNS ?? 3)

async function once(): Promise<{ cpuMs: number; gcCount: number; gcMs: number; events: number }> {
  const f = await makeFixture(
    [
      { name: 'child', match: /^Task \d+$/, turns: [], then: () => ({ ...reply.text(words), textChunk: 5 }) },
      mainAgent(
        [
          reply.toolUses(
            Array.from({ length: N }, (_, i) => ({ name: 'Agent', input: { description: `t${i}`, prompt: `Task ${i}`, subagent_type: 'general-purpose' } }))
          )
        ],
        reply.text('all done')
      )
    ],
    { limits: { maxConcurrent: N, maxSubagents: 1000 } } as never
  )
  let gcCount = 0
  let gcMs = 0
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcCount++
      gcMs += e.duration
    }
  })
  obs.observe({ entryTypes: ['gc'] })
  const cpu0 = process.cpuUsage()
  const r = await f.session.run('Fan out.')
  await f.session.flush()
  const cpu = process.cpuUsage(cpu0)
  obs.disconnect()
  if (r.status !== 'completed') throw new Error(`run ${r.status}`)
  const events = f.events.length
  await closeFixtures()
  return { cpuMs: (cpu.user + cpu.system) / 1000, gcCount, gcMs, events }
}

const results = []
await once() // warm-up: JIT, module loading
for (let i = 0; i < runs; i++) results.push(await once())
const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`N=${N} runs=${runs} events/run=${results[0].events}`)
console.log(`  CPU ms   median ${med(results.map((r) => r.cpuMs)).toFixed(0)}  min ${Math.min(...results.map((r) => r.cpuMs)).toFixed(0)}`)
console.log(`  GC count median ${med(results.map((r) => r.gcCount))}  GC ms median ${med(results.map((r) => r.gcMs)).toFixed(0)}`)
