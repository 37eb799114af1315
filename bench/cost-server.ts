// The scripted model for the cost benchmark, in its own process so that its work is not counted as either
// runtime's. One script answers Fanout and Claude Code alike: each scenario is recognised by a marker in the
// person's prompt, its agents by their task text, so both get the same replies for the same work.
//  - fan-out N: the main agent starts N agents in one message, each Globs once and answers;
//  - forks N: the main agent reads a file, then forks itself N times; each fork Globs once and answers;
//  - long session P: the main agent reads one ledger part a turn (orchestration/testing/long-session.ts), P
//    turns, then answers with the sum; it decides from what its request shows, never from a turn counter, so
//    it carries on across a compaction. Both runtimes' summary requests (Fanout's by its header, Claude
//    Code's by its own prompt) are answered with a text summary that keeps the task and the running total.
// Its prompt cache is the simulated one (prompt-cache.ts). Control lines on stdin: `reset <latencyMs> [<output
// tokens a second>]` starts a run with an empty cache (and replies streamed at that rate, 0: at once); `stats`
// prints what the requests since the reset read, wrote and cost.
import { appendFileSync } from 'node:fs'
import { PerformanceObserver } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { PromptCache } from '../src/main/runtime/model/scripted/prompt-cache'
import { reply, startScriptedServer, type ParsedRequest, type RecordedRequest, type ScriptedReply } from '../src/main/runtime/model/scripted'
import { contextWindowFor } from '../src/main/runtime/model/context-window'
import { CACHE_PRICE } from '../src/main/runtime/model/prompt-cache-rules'
import { ledgerProgress, ledgerTurn } from '../src/main/runtime/orchestration/testing/long-session'
import { machineFromPerf } from './machine-clock'

export interface RunStats {
  requests: number
  /** Requests that were pre-warms (max_tokens 0). */
  prewarms: number
  uncached: number
  read: number
  write5m: number
  write1h: number
  output: number
  /** The first request's arrival, ms on the machine's monotonic clock (machine-clock.ts). */
  firstArrival: number
  /** The arrival (the same clock) of the first request that carries the person's prompt (a bench mark, FANOUT-BENCH…); 0 if none. */
  promptArrival: number
  /** Distinct fan-out workers and forks that called the model: the agents that really ran. */
  agents: number
  /** The largest request, in tokens (those refused as too long included). */
  peak: number
  /** Requests refused with the API's 400 "prompt is too long". */
  tooLong: number
  /** Summary requests answered: the compactions either runtime asked for. */
  summaries: number
  /**
   * The model's output time on the scenario's critical path at the run's output rate (ms): the main agent's
   * replies, one per turn, and the longest chain of one agent's replies. The same replies for both sides.
   */
  criticalOutputMs: number
  /**
   * A fan-out's hand-offs on its critical path, in ms of the server's clock (null outside a fan-out): the main
   * agent's reply end → the last worker's first request, that worker's tool reply end → its next request, the
   * last worker's answer end → the main agent's next request. `lastReply` is when (the same clock) the main agent's last
   * reply ended: the printed answer after it is the fourth hand-off (vs-claude-code.ts).
   */
  handOffs: { spawn: number; tool: number; report: number; lastReply: number } | null
  /** The server's own garbage collection during the run, in ms (cost-server-process.ts keeps it out of runs). */
  serverGcMs: number
}

/** The agent a request is of: a worker or fork by its task, the main agent by the bench mark, else none (a side request). */
function agentOf(req: ParsedRequest): string | null {
  const texts = userTexts(req)
  const worker = /Worker task (\d+)/.exec(texts[0] ?? '')
  if (worker) return `worker ${worker[1]}`
  const fork = texts.slice(1).flatMap((t) => /Fork task (\d+)/.exec(t)?.[1] ?? [])
  if (fork.length) return `fork ${fork[fork.length - 1]}`
  return texts.some((t) => t.includes(BENCH_MARK)) ? 'main' : null
}

/** See RunStats.criticalOutputMs. */
function criticalOutputMs(reqs: RecordedRequest[]): number {
  const mainTurns = new Map<number, number>()
  const agents = new Map<string, number>()
  for (const r of reqs) {
    const who = agentOf(r)
    const ms = r.outputMs ?? 0
    if (who === 'main') mainTurns.set(r.turn, Math.max(mainTurns.get(r.turn) ?? 0, ms))
    else if (who) agents.set(who, (agents.get(who) ?? 0) + ms)
  }
  return [...mainTurns.values()].reduce((a, b) => a + b, 0) + Math.max(0, ...agents.values())
}

/** See RunStats.handOffs: by the requests' agents and turns (the worker whose first request came last). */
function handOffsOf(reqs: RecordedRequest[]): RunStats['handOffs'] {
  const main = reqs.filter((r) => agentOf(r) === 'main')
  const mainTurn = (t: number) => main.find((r) => r.turn === t)
  const workers = reqs.filter((r) => agentOf(r)?.startsWith('worker '))
  const firsts = workers.filter((r) => r.turn === 0)
  const answers = workers.filter((r) => r.turn === 1)
  const [m0, m1] = [mainTurn(0), mainTurn(1)]
  if (!m0?.repliedAt || !m1?.repliedAt || !firsts.length || answers.length !== firsts.length) return null
  const last = firsts.reduce((a, b) => (b.receivedAt > a.receivedAt ? b : a))
  const next = answers.find((r) => agentOf(r) === agentOf(last))
  if (!last.repliedAt || !next || answers.some((r) => r.repliedAt === undefined)) return null
  return {
    spawn: last.receivedAt - m0.repliedAt,
    tool: next.receivedAt - last.repliedAt,
    report: m1.receivedAt - Math.max(...answers.map((r) => r.repliedAt!)),
    lastReply: machineFromPerf(m1.repliedAt!)
  }
}

/** Every bench prompt holds this: the request carrying it is the one that works on the person's prompt. */
export const BENCH_MARK = 'FANOUT-BENCH'
export const START_MARK = 'FANOUT-BENCH start'
export const FAN_OUT_MARK = 'FANOUT-BENCH fan-out'
export const FORKS_MARK = 'FANOUT-BENCH forks'
export const LONG_MARK = 'FANOUT-BENCH long session'

const userTexts = (req: ParsedRequest): string[] =>
  req.messages
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? m.content
              .filter((b: any) => b?.type === 'text')
              .map((b: any) => b.text)
              .join('\n')
          : ''
    )

/** Claude Code 2.1.328's compaction prompt opens its last user message with this. */
const CLAUDE_CODE_SUMMARY = /^CRITICAL: Respond with TEXT ONLY/
const isSummary = (req: ParsedRequest): boolean => req.isSummaryRequest || CLAUDE_CODE_SUMMARY.test(req.lastUserText)

const countIn = (text: string, mark: string): number => Number(new RegExp(`${mark} (?:N|parts)=(\\d+)`).exec(text)?.[1] ?? 0)

/** The replies of every scenario. */
export function benchScript(req: ParsedRequest): ScriptedReply {
  if (isSummary(req)) return summaryOf(req)
  const texts = userTexts(req)
  const first = texts[0] ?? ''
  const last = texts[texts.length - 1] ?? ''
  // A fork carries its parent's conversation: recognise it first, by its task in a later user message.
  if (/Fork task \d+/.test(last) && !/Fork task \d+/.test(first)) return reply.toolUse('Glob', { pattern: 'src/*.ts' })
  if (texts.slice(1).some((t) => /Fork task \d+/.test(t))) return reply.text('The fork found the files.')
  if (/Worker task \d+/.test(first)) return req.turn === 0 ? reply.toolUse('Glob', { pattern: 'src/*.ts' }) : reply.text('found them')
  const all = texts.join('\n')
  if (all.includes(FAN_OUT_MARK)) {
    const n = countIn(all, FAN_OUT_MARK)
    if (req.turn > 0) return reply.text('done')
    return reply.toolUses(
      Array.from({ length: n }, (_, i) => ({
        name: 'Agent',
        input: {
          description: `Worker ${i}`,
          prompt: `Worker task ${i}: list the TypeScript files under src.`,
          subagent_type: 'general-purpose',
          run_in_background: false
        }
      }))
    )
  }
  if (all.includes(FORKS_MARK)) {
    const n = countIn(all, FORKS_MARK)
    if (req.turn === 0) return reply.toolUse('Read', { file_path: 'notes.md' })
    if (req.turn === 1)
      return reply.toolUses(
        Array.from({ length: n }, (_, i) => ({
          name: 'Agent',
          input: { description: `Fork ${i}`, prompt: `Fork task ${i}: list the TypeScript files under src.`, subagent_type: 'fork', run_in_background: false }
        }))
      )
    return reply.text('done')
  }
  if (all.includes(LONG_MARK)) {
    // A failed read would otherwise be asked for again and again: stop and say why.
    const failed = req.toolResults.find((r) => r.isError)
    if (failed) return reply.text(`Stopped: a read failed: ${failed.content.slice(0, 200)}`)
    return ledgerTurn(countIn(all, LONG_MARK))(req)
  }
  // Anything else a runtime asks on the side (a title, a summary) gets a short answer.
  return reply.text('ok')
}

/** A compaction's summary: the long session's task and progress in its notes' words, else a short one. */
function summaryOf(req: ParsedRequest): ScriptedReply {
  const all = userTexts(req).join('\n')
  if (!all.includes(LONG_MARK)) return reply.text('<summary>Nothing to carry over.</summary>')
  const parts = countIn(all, LONG_MARK)
  const { part, total } = ledgerProgress(req)
  return reply.text(
    [
      '<summary>',
      `1. Task: ${LONG_MARK} parts=${parts}: read the ledger parts one a turn, in order, and answer with the sum of their values.`,
      `5. Work done: parts 1 to ${part} are read. Running total after part ${part}: ${total}.`,
      `6. Open work: read part ${part + 1} next.`,
      '</summary>'
    ].join('\n')
  )
}

/**
 * Where a run's billed input went, one line a request (`BENCH_REQUEST_LOG=file`): who asked (the first user
 * text), when it arrived and when its reply had streamed (from the run's first request), its turn, and its input
 * split as billed.
 */
function requestLog(reqs: RecordedRequest[]): string {
  const first = reqs[0]?.receivedAt ?? 0
  const lines = reqs.map((r) => {
    const c = r.cache
    const who = (userTexts(r)[0] ?? '').replace(/\s+/g, ' ').slice(0, 40)
    const billed = c ? c.uncached + CACHE_PRICE.write5m * c.write5m + CACHE_PRICE.write1h * c.write1h + CACHE_PRICE.read * c.read : r.inputTokens
    return [
      who.padEnd(40),
      // To a tenth of a millisecond: a hand-off between agents is a few milliseconds (cost-and-prompt-cache.md).
      `at ${(r.receivedAt - first).toFixed(1).padStart(8)} ms`,
      `replied ${r.repliedAt === undefined ? '       -' : (r.repliedAt - first).toFixed(1).padStart(8)} ms`,
      `output ${Math.round(r.outputMs ?? 0)} ms`,
      `turn ${r.turn}`,
      r.model,
      `in ${r.inputTokens}`,
      c ? `uncached ${c.uncached} write ${c.write5m + c.write1h} read ${c.read}` : 'no cache',
      `billed ${Math.round(billed)}`
    ].join('  ')
  })
  return `${lines.join('\n')}\n--\n`
}

const arrivalOf = (req: RecordedRequest | undefined): number => (req ? machineFromPerf(req.receivedAt) : 0)

/** Entry of the server process: prints its URL, then answers control lines. */
export async function serveCost(): Promise<void> {
  // The server's own collections during a run (ms), said beside the figures (see cost-server-process.ts).
  let gcMs = 0
  let runFrom = 0
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.startTime >= runFrom) gcMs += e.duration
  }).observe({ entryTypes: ['gc'] })
  let latency = 0
  let rate = 0
  const cache = new PromptCache()
  let output = 0
  const server = await startScriptedServer({
    latencyMs: () => latency,
    outputTokensPerSecond: () => rate,
    promptCache: cache,
    respond: (req) => {
      const r = benchScript(req)
      if (r.kind === 'message') output += Math.ceil(JSON.stringify(r.content).length / 4)
      return r
    }
  })
  process.stdout.write(`${server.url}\n`)
  for await (const line of createInterface({ input: process.stdin })) {
    const [cmd, arg, arg2] = line.trim().split(/\s+/)
    if (cmd === 'reset') {
      latency = Number(arg ?? 0)
      rate = Number(arg2 ?? 0)
      cache.clear()
      server.requests.length = 0
      output = 0
      // Everything the last run left is collected now, not during the next one.
      ;(globalThis as { gc?: () => void }).gc?.()
      runFrom = performance.now()
      gcMs = 0
      process.stdout.write('ok\n')
    } else if (cmd === 'stats') {
      const reqs = server.messageRequests()
      const sum = (f: (c: NonNullable<ParsedRequest['cache']>) => number) => reqs.reduce((n, r) => n + (r.cache ? f(r.cache) : 0), 0)
      const stats: RunStats = {
        requests: reqs.length,
        prewarms: reqs.filter((r) => r.maxTokens === 0).length,
        uncached: sum((c) => c.uncached),
        read: sum((c) => c.read),
        write5m: sum((c) => c.write5m),
        write1h: sum((c) => c.write1h),
        output,
        firstArrival: arrivalOf(reqs[0]),
        promptArrival: arrivalOf(reqs.find((r) => userTexts(r).some((t) => t.includes(BENCH_MARK)))),
        agents: new Set(
          reqs.flatMap((r) =>
            userTexts(r)
              .flatMap((t) => /(?:Worker|Fork) task \d+/.exec(t)?.[0] ?? [])
              .slice(-1)
          )
        ).size,
        peak: reqs.reduce((n, r) => Math.max(n, r.inputTokens), 0),
        tooLong: reqs.filter((r) => r.inputTokens > contextWindowFor(r.model)).length,
        summaries: reqs.filter((r) => isSummary(r) && r.inputTokens <= contextWindowFor(r.model)).length,
        criticalOutputMs: criticalOutputMs(reqs),
        handOffs: handOffsOf(reqs),
        serverGcMs: gcMs
      }
      if (process.env.BENCH_REQUEST_LOG) appendFileSync(process.env.BENCH_REQUEST_LOG, requestLog(reqs))
      if (process.env.BENCH_REQUEST_BODIES) appendFileSync(process.env.BENCH_REQUEST_BODIES, `${JSON.stringify(reqs.map((r) => r.body))}\n`)
      process.stdout.write(`${JSON.stringify(stats)}\n`)
    }
  }
  await server.close()
}
