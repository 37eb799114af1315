// A targeted figure for the state and transcript writes of a fan-out's start (issue #28): 64 agents start
// and stream a few deltas each through the session's persistence, as a fan-out's first 16 ms do. Count the
// file writes it makes with strace:
//   npx esbuild bench/state-writes.ts --bundle --platform=node --format=esm --packages=external --outfile=out/sw.mjs
//   strace -f -c -e trace=write,writev,pwrite64,rename,openat node out/sw.mjs
import { AgentRegistry, newAgentHandle, type AgentIdentity } from '../src/main/runtime/orchestration/runs/agent-registry'
import { SessionPersistence } from '../src/main/runtime/orchestration/runs/persistence'
import { eventsFor, tempDataDir } from '../src/main/runtime/store/test-fixtures'

const N = 64
const { dir, cleanup } = await tempDataDir()
const registry = new AgentRegistry()
const persistence = new SessionPersistence({ dataDir: dir, sessionId: 's', cwd: dir, registry, onError: (e) => console.error(e.message) })
await persistence.recorder.ready
const t0 = performance.now()
for (let i = 0; i < N; i++) {
  const agentId = `worker-${i}`
  registry.add(
    newAgentHandle({ id: agentId, agentType: 'general-purpose', parentId: 'main', parentToolUseId: `t-${i}`, depth: 1, model: 'm', cwd: dir } as AgentIdentity)
  )
  const ev = eventsFor({ sessionId: 's', agentId, parentAgentId: 'main', parentToolUseId: `t-${i}` })
  persistence.record(ev.start({ prompt: `Task ${i}` }))
  // Siblings start a moment apart, and their first deltas come a moment later (the model's first token).
  setTimeout(() => {
    for (let d = 0; d < 5; d++) persistence.record(ev.text(`word${d} `))
  }, 5)
  await new Promise((r) => setTimeout(r, 1))
}
await new Promise((r) => setTimeout(r, 10))
await persistence.flush()
console.log(`${N} agents started and streamed: ${(performance.now() - t0).toFixed(0)} ms to flush`)
await persistence.close()
await cleanup()
