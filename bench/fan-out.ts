// Runtime overhead of a fan-out. The scripted model answers every call after a fixed latency L; a main
// agent starts N subagents in one message, each makes one tool call (Glob) and then reports. The critical
// path is 4 model calls (main → child tool call → child report → main summary), so
//   overhead = (wall time of the run) − 4·L
// is what the runtime itself adds: spawning, prompt building, tool execution, HTTP and SSE handling, events.
// The scripted server runs in its own process so that its work is not counted as the runtime's.
//
// Two more figures put it in proportion:
//  - "with transcripts": the same run recording transcripts and agent state, as the app and the CLI do;
//  - "SDK floor": the very request bodies of the run replayed with the bare SDK in the same order and
//    parallelism (main, then N first calls, each followed by its second, then main) — what HTTP, the SDK
//    and the server cost with no runtime at all. Overhead above the floor is the runtime's own work.
import Anthropic from '@anthropic-ai/sdk'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createModelClient } from '../src/main/runtime/model/client'
import { createHttpFetch } from '../src/main/runtime/model/http-fetch'
import { reply, scriptByAgent, startScriptedServer } from '../src/main/runtime/model/scripted'
import { AgentSession } from '../src/main/runtime/orchestration'

const L = Number(process.env.BENCH_LATENCY_MS ?? 50)
const SIZES = (process.env.BENCH_SIZES ?? '1,4,16,64').split(',').map(Number)
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5)

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
        turns: [
          reply.toolUses(Array.from({ length: n }, (_, i) => ({ name: 'Agent', input: { description: `Worker ${i}`, prompt: `Worker task ${i}` } }))),
          reply.text('done')
        ]
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

/** One run's overhead; `bodies` collects the request bodies it sent, in order. */
// One connection pool for every run, as the app and the CLI keep one per process: after the warm-up, runs
// reuse its connections (a fresh pool would open N new ones per run).
const http = createHttpFetch()

interface Run {
  /** From the first request to the end of the run, minus 4·L (the definition). */
  overhead: number
  /** From `session.run` to the first request: building the main agent's prompt and tools. */
  setup: number
}

async function once(url: string, cwd: string, opts: { transcripts: boolean; bodies?: string[] }): Promise<Run> {
  let firstRequest = 0
  const fetch: typeof globalThis.fetch = (input, init) => {
    firstRequest ||= performance.now()
    if (typeof init?.body === 'string') opts.bodies?.push(init.body)
    return http(input, init)
  }
  const client = createModelClient({ apiKey: 'bench', baseURL: url, maxRetries: 0, env: {}, fetch })
  const session = await AgentSession.create({
    cwd,
    home: cwd,
    client,
    managedSettingsFile: null,
    limits: { maxConcurrent: 1000, maxAgentsPerSession: 10_000 },
    ...(opts.transcripts ? { dataDir: mkdtempSync(join(tmpdir(), 'fanout-bench-data-')) } : {})
  })
  const started = performance.now()
  const result = await session.run('Fan out.')
  const ended = performance.now()
  if (result.status !== 'completed') throw new Error(`run ended ${result.status}: ${result.error ?? ''}`)
  await session.close()
  return { overhead: ended - firstRequest - 4 * L, setup: firstRequest - started }
}

/** The run's own request bodies, replayed with the bare SDK in the run's order and parallelism. */
async function floor(url: string, bodies: string[], n: number): Promise<number> {
  // Configured as the runtime's client configures it (src/main/runtime/model/client.ts), tracing off.
  const sdk = new Anthropic({ apiKey: 'bench', baseURL: url, maxRetries: 0, fetch: http, openTelemetry: false })
  const call = async (body: string) => {
    const stream = await sdk.messages.create(JSON.parse(body))
    for await (const event of stream as unknown as AsyncIterable<unknown>) void event
  }
  // A worker's conversation opens with its task; the main agent's with the user's prompt.
  const taskOf = (b: string) => {
    const content: unknown = JSON.parse(b).messages[0].content
    const text = typeof content === 'string' ? content : (content as { text?: string }[]).map((c) => c.text ?? '').join('')
    return /^Worker task \d+/.exec(text)?.[0]
  }
  const [main1, main2] = bodies.filter((b) => !taskOf(b))
  const firsts = new Map<string, string>()
  const seconds = new Map<string, string>()
  for (const b of bodies) {
    const task = taskOf(b)
    if (task) (firsts.has(task) ? seconds : firsts).set(task, b)
  }
  if (!main1 || !main2 || firsts.size !== n || seconds.size !== n) throw new Error('the recorded run does not have the fan-out shape')
  const started = performance.now()
  await call(main1)
  await Promise.all(
    [...firsts].map(async ([task, b]) => {
      await call(b)
      await call(seconds.get(task)!)
    })
  )
  await call(main2)
  return performance.now() - started - 4 * L
}

const best = (xs: number[]) => Math.min(...xs)
const fmt = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`

export async function benchFanOut(): Promise<void> {
  const cwd = project()
  console.log(
    `\nFan-out overhead (scripted latency L = ${L} ms per model call, server in its own process; critical path 4·L = ${4 * L} ms; best of ${REPEATS} after a warm-up)`
  )
  console.log("  Overhead runs from the first request to the end of the run; the main agent's setup before its first request is shown apart.")
  console.log('  N    overhead   per hand-off   with transcripts   SDK floor   above the floor    setup')
  for (const n of SIZES) {
    const { url, child } = await startServerProcess(n)
    try {
      const bodies: string[] = []
      await once(url, cwd, { transcripts: false, bodies }) // warm-up: module loading, JIT, connection pool
      await once(url, cwd, { transcripts: true })
      await floor(url, bodies, n)
      const plain: Run[] = []
      const recorded: Run[] = []
      const floors: number[] = []
      for (let i = 0; i < REPEATS; i++) {
        plain.push(await once(url, cwd, { transcripts: false }))
        recorded.push(await once(url, cwd, { transcripts: true }))
        floors.push(await floor(url, bodies, n))
      }
      const o = best(plain.map((r) => r.overhead))
      const setup = best(plain.map((r) => r.setup))
      console.log(
        `  ${String(n).padEnd(4)} ${fmt(o)} ${fmt(o / 4)}   ${fmt(best(recorded.map((r) => r.overhead)))}     ${fmt(best(floors))} ${fmt(o - best(floors))}  ${fmt(setup)}`
      )
    } finally {
      child.kill()
    }
  }
  console.log('  Targets: < 5 ms per hand-off; < 50 ms in total at N = 64.')
}
