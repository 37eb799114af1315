// A targeted figure for the per-delta work between the model's stream and the exits (issue #28): 64 agents'
// deltas go through the session's redactor, the transcript's merge and the WebSocket's JSON, as in a live
// session, with no model or disk in between (the same input every run, so two builds compare). Run alone:
//   npx esbuild bench/stream-events.ts --bundle --platform=node --format=esm --packages=external --outfile=out/se.mjs && node out/se.mjs
import { PerformanceObserver } from 'node:perf_hooks'
import type { AgentEvent } from '../src/shared/events'
import { EventRedactor } from '../src/shared/redact-events'
import { redactedJson, registerSecret } from '../src/shared/redact'
import { mergeDeltas } from '../src/main/runtime/store/transcript/format'

const AGENTS = 64
const DELTAS = 2000 // per agent
registerSecret('tok-bench-secret-0123456789abcdef')
const words = Array.from({ length: DELTAS }, (_, i) => (i % 7 === 6 ? `w${i}\n` : `w${i} `))

async function once(): Promise<{ ms: number; gcCount: number; gcMs: number; bytes: number }> {
  const redactor = new EventRedactor()
  const lines = new Map<string, AgentEvent>() // what a transcript's batch holds (one merged line per agent)
  let frame: AgentEvent[] = [] // what the WebSocket's 16 ms batch holds
  let bytes = 0
  let gcCount = 0
  let gcMs = 0
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcCount++
      gcMs += e.duration
    }
  })
  obs.observe({ entryTypes: ['gc'] })
  const sink = (e: AgentEvent) => {
    const prev = lines.get(e.agentId)
    lines.set(e.agentId, (prev && mergeDeltas(prev, e)) ?? e)
    frame.push(e)
    if (frame.length >= 256) {
      bytes += redactedJson({ events: frame }).length
      frame = []
    }
  }
  const t0 = performance.now()
  for (let i = 0; i < DELTAS; i++) {
    for (let a = 0; a < AGENTS; a++) {
      const agentId = `general-purpose-${a}`
      const event = {
        agentId,
        parentAgentId: 'main',
        parentToolUseId: `toolu_${a}`,
        sessionId: 'session-1',
        ts: Date.now(),
        type: 'text_delta',
        text: words[i]
      } as AgentEvent
      // The session redacts every event (take), as the bus received it before this change.
      const r = redactor as unknown as { each?: (e: AgentEvent, s: typeof sink) => void }
      if (r.each) r.each(event, sink)
      else for (const e of redactor.take(event)) sink(e)
    }
    if (i % 32 === 31) lines.clear() // a transcript batch written
  }
  const ms = performance.now() - t0
  await new Promise((r) => setTimeout(r, 50)) // GC entries are delivered after the synchronous loop
  obs.disconnect()
  return { ms, gcCount, gcMs, bytes }
}

await once()
const rs = []
for (let i = 0; i < 5; i++) rs.push(await once())
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(
  `${AGENTS} agents × ${DELTAS} deltas, 5 runs: median ${med(rs.map((r) => r.ms)).toFixed(0)} ms, min ${Math.min(...rs.map((r) => r.ms)).toFixed(0)} ms; GC ${med(rs.map((r) => r.gcCount))} collections, ${med(rs.map((r) => r.gcMs)).toFixed(0)} ms (median); ${rs[0].bytes} bytes sent`
)
