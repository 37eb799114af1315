// Fan-out cost and overhead, Fanout beside Claude Code on the same scripted scenarios (cost-server.ts), in
// one run. The scripted server simulates the prompt cache, so each request's input is split as the API
// bills it: uncached ×1, cache writes ×1.25 (1-hour ×2), cache reads ×0.1 — "billed input", in
// input-token equivalents, and dollars at Sonnet's list price.
// Both sides run as a person runs them: `fanout run` and `claude -p`, each a fresh process with its default
// settings (fanout-process.ts, claude-code.ts), in interleaved pairs (Fanout, Claude Code, Fanout, …) so a
// machine that gets busier or quieter during the run weighs on both alike; median and min of each.
// Overhead is the wall time of a run, from the first request's arrival at the server to the moment its
// result was printed, minus the model's time on the scenario's critical path, the same for both sides: 4
// calls of L for a fan-out (main, worker's tool call, worker's answer, main's summary), plus the time those
// replies take to stream at the model's output rate (RATE): the last Agent call arrives only when the main
// agent's whole message has, so no runtime can start the last agent sooner. What a side adds on top
// (Fanout's siblings waiting for the first one's response, a pre-warm) is its own overhead.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ContextSettings } from '../src/main/runtime/compaction/context-settings'
import type { CacheSharing } from '../src/main/runtime/model/cache-sharing'
import { costOf } from '../src/main/runtime/model/pricing'
import { contextWindowFor } from '../src/main/runtime/model/context-window'
import { CACHE_PRICE } from '../src/main/runtime/model/prompt-cache-rules'
import { LEDGER_TASK, makeLedger, type Ledger } from '../src/main/runtime/orchestration/testing/long-session'
import { claudeCodeBinary, claudeCodeVersion, runClaudeCode } from './claude-code'
import { runFanoutProcess } from './fanout-process'
import { runSdkFloorProcess } from './sdk-floor'
import { idleRoundTripText } from './machine-wakeup'
import { FAN_OUT_MARK, FORKS_MARK, LONG_MARK, type RunStats } from './cost-server'
import { CostServer } from './cost-server-process'

const MODEL = 'claude-sonnet-5-5'
const L = Number(process.env.BENCH_CC_LATENCY_MS ?? 300)
// The model's output rate in the fan-out scenarios: a reply streams as a model generates it (Sonnet gives about
// 50–100 tokens a second), so a message with 16 Agent calls takes seconds to arrive, as a person's does. 0 sends
// every reply at once (the figures of earlier runs).
const RATE = Number(process.env.BENCH_CC_OUTPUT_TOKENS_PER_S ?? 80)
const LONG_L = Number(process.env.BENCH_LONG_LATENCY_MS ?? 50)
/** The scripted model's pace: latency before each reply, output tokens a second (0: at once). */
interface Pace {
  latency: number
  rate: number
}
const FAN_PACE: Pace = { latency: L, rate: RATE }
const LONG_PACE: Pace = { latency: LONG_L, rate: 0 }
const SIZES = (process.env.BENCH_CC_SIZES ?? '4,16,64').split(',').map(Number)
// Nine, not five: with five pairs a 16-way median moved by several ms from one run to the next on either side
// (cost-and-prompt-cache.md), enough to turn the 10× verdict either way.
const REPEATS = Number(process.env.BENCH_REPEATS ?? 9)
// Which scenarios to run (a comma list of fan-out, forks, long; default all), e.g. only the long session.
const SCENARIOS = (process.env.BENCH_CC_SCENARIOS ?? 'fan-out,forks,long').split(',').map((x) => x.trim())
const PARTS = Number(process.env.BENCH_LONG_PARTS ?? 60)
// BENCH_TRIAL_NODE_ARGS="--flag …": one more Fanout run in each round of the fan-out pairs, with those Node or V8
// flags and a code cache of its own (a cache made under other V8 flags is refused), printed beside the default's.
// For trying a flag interleaved with the build as it is, not a figure of what users get.
const TRIAL_ARGS = (process.env.BENCH_TRIAL_NODE_ARGS ?? '').split(' ').filter(Boolean)
const TRIAL_CACHE = join(tmpdir(), `fanout-bench-trial-cache-${process.pid}`)
// The long session of the compaction issue (#14): a 20 KB file read a turn on a model with a 200k-token window,
// which overflows it about halfway through 60 parts unless the conversation is compacted.
const PART_BYTES = Number(process.env.BENCH_LONG_PART_BYTES ?? 20 * 1024)
const LONG_MODEL = process.env.BENCH_LONG_MODEL ?? 'claude-sonnet-4-6'

// The checkout whose bin/fanout runs (npm run bench runs from it).
const ROOT = process.cwd()

function makeProject(): { cwd: string; home: string; ledger: Ledger } {
  const root = mkdtempSync(join(tmpdir(), 'fanout-bench-cc-'))
  const cwd = join(root, 'project')
  const home = join(root, 'home')
  mkdirSync(join(cwd, 'src'), { recursive: true })
  mkdirSync(home)
  for (let i = 0; i < 20; i++) writeFileSync(join(cwd, 'src', `file${i}.ts`), `export const v${i} = ${i}\n`)
  writeFileSync(join(cwd, 'notes.md'), Array.from({ length: 400 }, (_, i) => `Note ${i}: the release checklist item ${i} is done and verified.`).join('\n'))
  const ledger = makeLedger(PARTS, PART_BYTES)
  for (const [rel, text] of Object.entries(ledger.files)) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true })
    writeFileSync(join(cwd, rel), text)
  }
  execFileSync('git', ['init', '-q', cwd])
  return { cwd, home, ledger }
}

interface Measured {
  stats: RunStats
  /** Wall time minus the model's time on the critical path. */
  overhead: number
  ok: boolean
  note?: string
  /** The run's final text (its result). */
  answer: string
  /** Its fan-out hand-offs (RunStats.handOffs), the last reply's end → the printed answer fourth; null outside a fan-out. */
  handOffs: number[] | null
}

const billed = (s: RunStats) => s.uncached + CACHE_PRICE.write5m * s.write5m + CACHE_PRICE.write1h * s.write1h + CACHE_PRICE.read * s.read
const dollars = (s: RunStats, model = MODEL) =>
  costOf(model, { inputTokens: s.uncached, outputTokens: s.output, cacheReadTokens: s.read, cacheWriteTokens: s.write5m }) +
  (s.write1h * CACHE_PRICE.write1h * 3) / 1e6

/**
 * The overhead, one arithmetic for every side: from the first request's arrival to the printed result, minus
 * `modelCalls` latencies and the critical path's output time (the same replies for every side).
 */
const overheadOf = (endedAt: number, stats: RunStats, modelCalls: number, pace: Pace): number =>
  endedAt - stats.firstArrival - modelCalls * pace.latency - stats.criticalOutputMs

/** A run's four fan-out hand-offs (RunStats.handOffs, then the last reply → the printed answer), or null. */
const fourHandOffs = (endedAt: number, stats: RunStats): number[] | null => {
  const h = stats.handOffs
  return h ? [h.spawn, h.tool, h.report, endedAt - h.lastReply] : null
}

/** A run of either side (`fanout run` or `claude -p`, both print a JSON result), measured the same way. */
function measured(run: { code: number | null; endedAt: number; result: any; stderr: string }, stats: RunStats, modelCalls: number, pace: Pace): Measured {
  const ok = run.code === 0 && run.result?.is_error === false
  return {
    stats,
    overhead: overheadOf(run.endedAt, stats, modelCalls, pace),
    handOffs: fourHandOffs(run.endedAt, stats),
    ok,
    answer: String(run.result?.result ?? ''),
    ...(!ok ? { note: (run.result?.result ?? run.stderr).toString().slice(0, 200) } : {})
  }
}

/** `fanout run` as a fresh process; `mode` and `context` other than the defaults go in its settings.json. */
async function fanout(
  server: CostServer,
  p: { cwd: string; home: string },
  prompt: string,
  mode: CacheSharing,
  pace: Pace,
  modelCalls: number,
  model = MODEL,
  context?: Partial<ContextSettings>,
  nodeArgs?: string[]
): Promise<Measured> {
  await server.reset(pace.latency, pace.rate)
  const settings = { ...(mode !== 'first' ? { promptCacheSharing: mode } : {}), ...(context ? { context } : {}) }
  const run = await runFanoutProcess({
    root: ROOT,
    cwd: p.cwd,
    home: p.home,
    baseUrl: server.url,
    prompt,
    model,
    ...(Object.keys(settings).length ? { settings } : {}),
    ...(nodeArgs ? { nodeArgs, env: { FANOUT_CODE_CACHE_DIR: TRIAL_CACHE } } : {})
  })
  return measured(run, await server.stats(), modelCalls, pace)
}

/** The fan-out's hops by the SDK alone (sdk-floor.ts), its overhead computed as the two sides' are; null when it failed. */
async function sdkFloorRun(
  server: CostServer,
  p: { cwd: string },
  prompt: string,
  pace: Pace
): Promise<{ overhead: number; handOffs: number[] | null } | null> {
  await server.reset(pace.latency, pace.rate)
  const run = await runSdkFloorProcess({ root: ROOT, cwd: p.cwd, baseUrl: server.url, prompt, model: MODEL })
  const stats = await server.stats()
  if (!run.ok) {
    console.log(`  the SDK-alone run failed: ${run.note}`)
    return null
  }
  return { overhead: overheadOf(run.endedAt, stats, CRITICAL_CALLS, pace), handOffs: fourHandOffs(run.endedAt, stats) }
}

/** Each hand-off's median over the runs that have them, `a / b / c / d` ms; null when none has. */
function handOffMedians(runs: Array<number[] | null>): string | null {
  const all = runs.filter((h): h is number[] => h !== null)
  if (!all.length) return null
  return [0, 1, 2, 3].map((i) => median(all.map((h) => h[i]!)).toFixed(1)).join(' / ')
}

async function claudeCode(
  server: CostServer,
  p: { cwd: string; home: string },
  prompt: string,
  pace: Pace,
  modelCalls: number,
  model = MODEL
): Promise<Measured> {
  await server.reset(pace.latency, pace.rate)
  const run = await runClaudeCode({ cwd: p.cwd, home: p.home, baseUrl: server.url, prompt, model, tools: ['Read', 'Glob', 'Agent'] })
  return measured(run, await server.stats(), modelCalls, pace)
}

const n = (x: number) => Math.round(x).toLocaleString('en-US')
const ms = (x: number) => `${x.toFixed(0)} ms`

function table(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`
  console.log(line(head))
  for (const r of rows) console.log(line(r))
}

const costRow = (name: string, m: Measured): string[] => [
  name + (m.ok ? '' : ' (FAILED)'),
  n(m.stats.requests),
  n(m.stats.uncached),
  n(m.stats.write5m + m.stats.write1h),
  n(m.stats.read),
  n(billed(m.stats)),
  `$${dollars(m.stats).toFixed(4)}`
]
const COST_HEAD = ['', 'requests', 'uncached', 'cache writes', 'cache reads', 'billed input', 'cost']

/** Model calls on a fan-out's critical path, subtracted alike from both sides' wall time. */
const CRITICAL_CALLS = 4

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

/** The run whose overhead is the median (the lower middle one of an even count): its cost figures are shown. */
function medianRun(runs: Measured[]): Measured {
  const s = [...runs].sort((a, b) => a.overhead - b.overhead)
  return s[Math.floor((s.length - 1) / 2)]!
}

export interface SizeFigures {
  billed: { fanout: number; claudeCode: number | null }
  /** `floor`: the same hops made by the SDK alone (sdk-floor.ts), the part of both sides' overhead neither can cut. */
  overhead: { fanout: number; claudeCode: number | null; latencyCost: number; floor: number | null }
  /** Agents Claude Code really ran (its own limits may refuse some), or null when not measured. */
  claudeCodeAgents: number | null
}

export interface VsClaudeCode {
  /** Each fan-out size run, by size. */
  sizes: Record<number, SizeFigures>
  /** Why Claude Code was not measured, when it was not. */
  skip?: string
}

export async function benchVsClaudeCode(): Promise<VsClaudeCode> {
  const cc = claudeCodeBinary()
  const bin = 'path' in cc ? cc.path : null
  console.log(
    `\nFanout (\`fanout run\`, default settings) beside Claude Code ${bin ? claudeCodeVersion(bin) : '(not installed)'} (\`claude -p\`), each a fresh process, on the same scripted scenarios (${MODEL}; server in its own process, prompt cache simulated; load average ${load()})`
  )
  if (!bin) console.log(`  Claude Code: not measured — ${'skip' in cc ? cc.skip : ''}`)
  console.log('  billed input = uncached + 1.25 × cache writes + 0.1 × cache reads (input-token equivalents); cost adds output at list price')
  console.log("  overhead = wall time from the first request to the printed result − the model's time on the critical path, the same")
  console.log(
    `  for both: ${CRITICAL_CALLS}·L (main, worker's tool call, worker's answer, main's summary) and those replies' output time at ${RATE ? `${RATE} tokens a second (the replies stream as a model writes them)` : 'no output rate (each reply arrives at once)'}; latency vs off = the median overhead more than sharing off's median (as many runs, in the same rounds)`
  )
  const server = await CostServer.start()
  const p = makeProject()
  const summary: VsClaudeCode = {
    sizes: {},
    ...(!bin ? { skip: (cc as { skip: string }).skip } : {})
  }
  try {
    // One run of each, not shown: the first run of a binary after a build pays for its code cache and cold
    // file caches, which a person pays once, not at every run.
    const warmUp = `${FAN_OUT_MARK} N=4: start 4 agents at once, each lists the TypeScript files under src.`
    // The trial's run: default settings, its flags and its own code cache.
    const trial = (prompt: string) => fanout(server, p, prompt, 'first', FAN_PACE, CRITICAL_CALLS, MODEL, undefined, TRIAL_ARGS)
    if (SCENARIOS.includes('fan-out')) await fanout(server, p, warmUp, 'first', FAN_PACE, CRITICAL_CALLS)
    if (TRIAL_ARGS.length && SCENARIOS.includes('fan-out')) await trial(warmUp)
    if (bin && SCENARIOS.includes('fan-out')) await claudeCode(server, p, warmUp, FAN_PACE, CRITICAL_CALLS)
    for (const size of SCENARIOS.includes('fan-out') ? SIZES : []) {
      const prompt = `${FAN_OUT_MARK} N=${size}: start ${size} agents at once, each lists the TypeScript files under src.`
      // Interleaved pairs: Fanout, Claude Code, Fanout, Claude Code…
      const loadBefore = load()
      const wakeBefore = await idleRoundTripText()
      const fan: Measured[] = []
      const claude: Measured[] = []
      const floor: Array<{ overhead: number; handOffs: number[] | null }> = []
      // Sharing off runs as often as the default, in the same rounds: the latency the default's sharing adds is
      // a difference of two medians, not of a median and one run (which swung it from −6 to +7 ms).
      const offs: Measured[] = []
      const trials: Measured[] = []
      for (let i = 0; i < REPEATS; i++) {
        fan.push(await fanout(server, p, prompt, 'first', FAN_PACE, CRITICAL_CALLS))
        if (bin) claude.push(await claudeCode(server, p, prompt, FAN_PACE, CRITICAL_CALLS))
        const bare = await sdkFloorRun(server, p, prompt, FAN_PACE)
        if (bare !== null) floor.push(bare)
        offs.push(await fanout(server, p, prompt, 'off', FAN_PACE, CRITICAL_CALLS))
        if (TRIAL_ARGS.length) trials.push(await trial(prompt))
      }
      // Prewarm once, for its cost: the latency it adds (a whole model call) does not need a median to be seen.
      const prewarm = await fanout(server, p, prompt, 'prewarm', FAN_PACE, CRITICAL_CALLS)
      const off = medianRun(offs)
      const first = medianRun(fan)
      const medianOverhead = (runs: ReadonlyArray<{ overhead: number }>) => median(runs.map((x) => x.overhead))
      const [fanOverhead, offOverhead] = [medianOverhead(fan), medianOverhead(offs)]
      const cc = claude.length ? medianRun(claude) : null
      console.log(
        `\n  ${size}-way fan-out (each agent Globs once, then answers; L = ${L} ms a model call, output at ${RATE || '∞'} tokens/s; ${REPEATS} interleaved pairs; load average ${loadBefore} -> ${load()}; idle round trip between two processes ${wakeBefore} -> ${await idleRoundTripText()})`
      )
      const rows = [costRow('Fanout, sharing: first (default)', first), costRow('Fanout, sharing: prewarm', prewarm), costRow('Fanout, sharing: off', off)]
      if (cc) rows.push(costRow('Claude Code', cc))
      table(
        [...COST_HEAD, 'overhead median', 'min', 'latency vs off'],
        rows.map((r, i) => {
          const runs = [fan, [prewarm], offs, claude][i]!
          const overhead = medianOverhead(runs)
          const more = overhead - offOverhead
          return [...r, ms(overhead), ms(Math.min(...runs.map((x) => x.overhead))), i < 2 ? `${more < 0 ? '−' : '+'}${ms(Math.abs(more))}` : '']
        })
      )
      if (cc && cc.stats.agents < size)
        console.log(`  Claude Code ran ${cc.stats.agents} of the ${size} agents asked for (its own limits refused the rest): its row is not the same work`)
      if (floor.length)
        console.log(
          `  the SDK alone on the same hops (a fresh process, the SDK's own fetch; no transcripts, permissions or events, smaller requests; sdk-floor.ts): overhead median ${ms(medianOverhead(floor))}, min ${ms(Math.min(...floor.map((f) => f.overhead)))}`
        )
      if (trials.length)
        console.log(
          `  trial, Fanout (default settings) with ${TRIAL_ARGS.join(' ')} (BENCH_TRIAL_NODE_ARGS, in the same rounds): overhead median ${ms(medianOverhead(trials))}, min ${ms(Math.min(...trials.map((x) => x.overhead)))}; the default's ${ms(fanOverhead)}, min ${ms(Math.min(...fan.map((x) => x.overhead)))}`
        )
      if (cc) {
        const [fm, cm] = [fanOverhead, medianOverhead(claude)]
        console.log(
          `  billed input: Fanout ${n(billed(first.stats))} vs Claude Code ${n(billed(cc.stats))} (1/${(billed(cc.stats) / billed(first.stats)).toFixed(1)}); overhead median: Fanout ${ms(fm)} vs Claude Code ${ms(cm)} (1/${(cm / Math.max(1, fm)).toFixed(1)})`
        )
      }
      // Where each side's overhead goes: the same four hand-offs, by the server's clock (the last by the printed answer).
      const sides = [
        ['Fanout', handOffMedians(fan.map((m) => m.handOffs))],
        ['Fanout with sharing off', handOffMedians(offs.map((m) => m.handOffs))],
        ['Claude Code', handOffMedians(claude.map((m) => m.handOffs))],
        [`Fanout with ${TRIAL_ARGS.join(' ')}`, trials.length ? handOffMedians(trials.map((m) => m.handOffs)) : null],
        ['the SDK alone', handOffMedians(floor.map((f) => f.handOffs))]
      ].filter((x): x is [string, string] => x[1] !== null)
      if (sides.length)
        console.log(
          `  hand-offs on the critical path, medians in ms (main agent's reply → last worker's request / its tool reply → its next request / last answer → main agent's request / last reply → answer printed): ${sides.map(([who, h]) => `${who} ${h}`).join('; ')}`
        )
      // The scripted server collects between runs (cost-server-process.ts); what it still collected inside them.
      const gcOf = (runs: Measured[]) => (runs.length ? `${median(runs.map((m) => m.stats.serverGcMs)).toFixed(1)} ms` : '-')
      console.log(`  the scripted server's own garbage collection inside a run, median: Fanout's runs ${gcOf(fan)}, Claude Code's ${gcOf(claude)}`)
      for (const m of [...fan, prewarm, ...offs, ...trials, ...claude]) if (!m.ok) console.log(`  a run failed: ${m.note}`)
      const figures: SizeFigures = {
        claudeCodeAgents: cc ? cc.stats.agents : null,
        billed: { fanout: billed(first.stats), claudeCode: cc ? billed(cc.stats) : null },
        overhead: {
          fanout: fanOverhead,
          claudeCode: cc ? medianOverhead(claude) : null,
          latencyCost: fanOverhead - offOverhead,
          floor: floor.length ? medianOverhead(floor) : null
        }
      }
      summary.sizes[size] = figures
    }

    if (SCENARIOS.includes('forks')) {
      const size = 16
      const prompt = `${FORKS_MARK} N=${size}: read notes.md, then fork yourself ${size} times.`
      const first = await fanout(server, p, prompt, 'first', FAN_PACE, 5)
      const off = await fanout(server, p, prompt, 'off', FAN_PACE, 5)
      const claude = bin ? await claudeCode(server, p, prompt, FAN_PACE, 5) : null
      console.log(`\n  Fork fan-out: the main agent reads a 6k-token file, then forks itself ${size} times; each fork Globs once`)
      const rows = [costRow('Fanout, sharing: first', first), costRow('Fanout, sharing: off', off)]
      if (claude) rows.push(costRow('Claude Code', claude))
      table(COST_HEAD, rows)
      for (const m of [first, off, claude]) if (m && !m.ok) console.log(`  a run failed: ${m.note}`)
      if (claude && claude.stats.agents < size)
        console.log(`  Claude Code ran ${claude.stats.agents} of the ${size} forks asked for: its row is not the same work`)
    }

    if (SCENARIOS.includes('long')) await longSession(server, p, bin !== null)
  } finally {
    server.stop()
    rmSync(TRIAL_CACHE, { recursive: true, force: true })
  }
  console.log(`  load average at the end: ${load()}`)
  return summary
}

/**
 * The long session of the compaction issue on a 200k-token model, each side compacting as it does by default;
 * the server enforces the window, so a side that does not manage its context fails with the API's 400.
 */
async function longSession(server: CostServer, p: { cwd: string; home: string; ledger: Ledger }, withClaudeCode: boolean): Promise<void> {
  const prompt = `${LONG_MARK} parts=${PARTS}: ${LEDGER_TASK(PARTS)}`
  const fan = await fanout(server, p, prompt, 'first', LONG_PACE, PARTS + 1, LONG_MODEL)
  // Fanout's default clears old tool results (locally, off Anthropic's own API) before it compacts; that
  // rewrites the cached conversation, so compaction alone is measured too.
  const compactOnly = await fanout(server, p, prompt, 'first', LONG_PACE, PARTS + 1, LONG_MODEL, { toolResultClearing: 'off' })
  const claude = withClaudeCode ? await claudeCode(server, p, prompt, LONG_PACE, PARTS + 1, LONG_MODEL) : null
  const window = contextWindowFor(LONG_MODEL)
  const kb = Math.round(PART_BYTES / 1024)
  console.log(
    `\n  Long session (#14): ${PARTS} parts of ~${kb} KB read one a turn, then the sum; ${LONG_MODEL} (${n(window)}-token window, enforced); each side compacts by its defaults (L = ${LONG_L} ms)`
  )
  const finished = (m: Measured) => m.ok && m.answer.includes(`is ${p.ledger.sum}.`)
  const rows = [
    ['Fanout (defaults: clearing + compaction)', fan] as const,
    ['Fanout, compaction only', compactOnly] as const,
    ...(claude ? [['Claude Code', claude] as const] : [])
  ]
  table(
    ['', 'requests', 'uncached', 'cache writes', 'cache reads', 'billed input', 'cost', 'peak request', 'compactions', '400 too long', 'finished'],
    rows.map(([name, m]) => [
      name,
      n(m.stats.requests),
      n(m.stats.uncached),
      n(m.stats.write5m + m.stats.write1h),
      n(m.stats.read),
      n(billed(m.stats)),
      `$${dollars(m.stats, LONG_MODEL).toFixed(4)}`,
      n(m.stats.peak),
      n(m.stats.summaries),
      n(m.stats.tooLong),
      finished(m) ? 'yes (sum right)' : m.ok ? 'NO (wrong answer)' : 'NO (failed)'
    ])
  )
  const ratio = (a: Measured, b: Measured) => `${(billed(a.stats) / billed(b.stats)).toFixed(2)}×`
  if (claude) console.log(`  billed input vs Claude Code: Fanout defaults ${ratio(fan, claude)}, compaction only ${ratio(compactOnly, claude)}`)
  for (const [name, m] of rows) if (!finished(m)) console.log(`  ${name}: ${(m.note ?? m.answer).slice(0, 200)}`)
}
