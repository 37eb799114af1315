// The UI figures, in Debian's Chromium against browser mode (the real web server, WebSocket and event
// pump; the built renderer):
//  1. Live streaming: N agents (64) each stream D text deltas a second (50) for S seconds (20) from a
//     synthetic host, into the overview at 1920×1080 (every agent's tile on screen). Prints animation-frame
//     intervals, long tasks, event-to-painted latency (and to the DOM), the start burst and JS heap, with
//     every event recorded by the runtime in the same process, as browser mode does.
//  2. Opening a recorded 100,000-event session through the real host: click to painted transcript.
//  3. Switching Subagents ↔ Tree & timeline with the 64 agents running (ui-switch.ts).
// BENCH_UI_PHASES=stream,open,switch runs some of them.
// Prints figures against the targets; never fails on time. BENCH_UI_SECONDS shortens the stream; BENCH_UI_RUNS
// (3) is how many times it runs, the targets judged on the median of each figure over the runs.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import config, { chromiumPath } from '../playwright.config'
import { LocalRuntimeHost } from '../src/main/runtime/host'
import { saveApiKey, transcriptPath } from '../src/main/runtime/store'
import { startWebServer } from '../src/main/web/server'
import { startProfile } from './cpu-profile'
import { startTrace } from './trace-summary'
import { writeBigSession } from './ui-big-session'
import { watchProblems } from '../e2e/support/page-problems'
import {
  arrivals,
  installArrivalClock,
  installMessageClock,
  startStreamProbe,
  stopStreamProbe,
  timeCatchUp,
  timeOpenSession,
  type StreamProbeResult
} from './ui-probe'
import { StreamHost, type StreamRun } from './ui-stream-host'
import { onPageClock, pageClockOffset } from './ui-clock'
import { benchFloor } from './ui-floor'
import { benchPaneSwitch } from './ui-switch'
import { pct, sortNum } from './percentile'

const SECONDS = Number(process.env.BENCH_UI_SECONDS ?? 20)
/** How many times the streaming phase runs; its targets are judged on each figure's median (streamRuns). */
const STREAM_RUNS = Math.max(1, Number(process.env.BENCH_UI_RUNS ?? 3))
const AGENTS = Number(process.env.BENCH_UI_AGENTS ?? 64)
const RATE = Number(process.env.BENCH_UI_RATE ?? 50)
const OPEN_EVENTS = Number(process.env.BENCH_UI_OPEN_EVENTS ?? 100_000)
const OPEN_RUNS = Number(process.env.BENCH_UI_OPEN_RUNS ?? 3)
const VIEWPORT = { width: 1920, height: 1080 }
/**
 * How the 64 agents start. `paced` (the runs judged): the main agent's reply comes after a model's first-token
 * latency (300 ms, the fan-out bench's scripted model) and writes its Agent calls one after another, 32 a second,
 * each subagent started as its call has streamed whole, as the runtime starts them. That is ten times as fast as
 * the fastest model writes such calls (~200 tokens/s, 60 tokens or more a call): a user never gets 64 at once.
 * `instant`: every call and every start at once, with the session's first events: the worst case, run once after
 * the judged runs (BENCH_UI_INSTANT=0 skips it) and printed, not judged. BENCH_UI_BURST=instant judges it instead.
 */
const BURST = process.env.BENCH_UI_BURST === 'instant' ? 'instant' : 'paced'
const PACED = { firstTokenMs: 300, callsPerSecond: 32 }
const INSTANT_RUN = BURST === 'paced' && process.env.BENCH_UI_INSTANT !== '0'
/** A folder to save CPU profiles of the measured phases in (and print where the time went). */
const PROFILE_DIR = process.env.BENCH_UI_PROFILE
/** A folder to save Chromium traces of the measured phases in (and print time per kind of work). */
const TRACE_DIR = process.env.BENCH_UI_TRACE
/** A PNG path: a screenshot of the panels as the stream ends, to see what was measured. */
const SCREENSHOT = process.env.BENCH_UI_SCREENSHOT
/** Set: also print when each delta reached the page (installArrivalClock; it costs the page a second parse). */
const ARRIVALS = !!process.env.BENCH_UI_ARRIVALS

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : 'n/a')
const signedMs = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(0)} ms`
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target')

/**
 * Latency of every delta to a tile (or panel) on screen: the first time a marker at or past its seq was in the
 * DOM, minus its send time. Panels out of view are left out: they draw nothing until scrolled to (by design).
 */
export function deliveryLatencies(
  run: StreamRun,
  probe: Pick<StreamProbeResult, 'seen' | 'onScreen'>
): { latencies: number[]; missing: number; deltas: number } {
  const { seen } = probe
  const latencies: number[] = []
  let missing = 0
  let deltas = 0
  for (const [id, sent] of Object.entries(run.sent)) {
    if (!probe.onScreen.includes(id)) continue
    deltas += sent.length
    const shown = seen[id] ?? []
    let j = 0
    for (let seq = 0; seq < sent.length; seq++) {
      while (j < shown.length && shown[j][0] < seq) j++
      if (j < shown.length) latencies.push(shown[j][1] - sent[seq])
      else missing++
    }
  }
  return { latencies, missing, deltas }
}

async function tempHost(cwd: string, dataDir: string, home: string): Promise<LocalRuntimeHost> {
  mkdirSync(dataDir, { recursive: true })
  await saveApiKey(dataDir, 'sk-ant-bench-not-used') // a stored key: the app opens on its main screen
  return new LocalRuntimeHost({ cwd, dataDir, home, env: {}, sessionDefaults: { managedSettingsFile: null } })
}

async function heapUsed(page: Page, collect = false): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  if (collect) await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  await cdp.detach()
  return usedSize
}

type Metrics = Record<string, number>

/**
 * The renderer's own counters, read before and after a phase. Durations are thread ticks (CPU time), so
 * they say what the work cost even when the thread waited for a core meanwhile. Counting runs while
 * the Performance domain is enabled, so one session stays open across the phase.
 */
async function rendererMetrics(page: Page): Promise<() => Promise<Metrics>> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
  return async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]))
}

/** CPU ms per second of the run, per counter. */
function cpuPerSecond(before: Metrics, after: Metrics, seconds: number): (name: string) => string {
  return (name) => `${((((after[name] ?? 0) - (before[name] ?? 0)) * 1000) / seconds).toFixed(0)}`
}

const load = () => `load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`

/** The streaming figures #28's Done-when judges (closing note). */
export interface UiFigures {
  agents: number
  p95Frame: number
  /** The longest task over 50 ms, or 0 when none. */
  longestTask: number
  longTasks: number
  paintedP95: number
  /** Each against its target, judged as the lines above print it. */
  met: { frame: boolean; tasks: boolean; painted: boolean }
}

// Frame intervals at 60 Hz read 16.67 ms (16.6-16.8 on a clock coarsened to 100 µs): one vsync with its jitter meets
// the target, two do not.
const frameMet = (p95: number) => p95 < 17.5
const paintedMet = (p95: number) => p95 <= 100

/**
 * The streaming phase, run STREAM_RUNS times in a fresh page and host each: one run's frames swing with what else
 * the machine did meanwhile (here p95 frame 33-50 ms, event→painted p95 99-143 ms from one run to the next), so
 * the targets are judged on the median of each figure over the runs, and every run's figures are printed.
 */
async function streamRuns(browser: Browser, rendererDir: string, tmp: string): Promise<UiFigures> {
  const runs: UiFigures[] = []
  for (let i = 0; i < STREAM_RUNS; i++) {
    const dir = join(tmp, `stream-${i + 1}`)
    mkdirSync(dir, { recursive: true })
    if (STREAM_RUNS > 1) process.stdout.write(`\n[stream run ${i + 1} of ${STREAM_RUNS}]`)
    runs.push(await benchStreaming(browser, rendererDir, dir, i === 0, BURST))
  }
  const instant = INSTANT_RUN ? await instantRun(browser, rendererDir, tmp) : null
  const worst = () => {
    if (!instant) return
    console.log(
      `  worst case, not judged: all ${AGENTS} agents at once with the session's first events (no model's reply brings them so): ${instant.longTasks} tasks over 50 ms, longest ${ms(instant.longestTask)}; p95 frame ${ms(instant.p95Frame)}; event→painted p95 ${ms(instant.paintedP95)}`
    )
  }
  if (runs.length === 1) {
    worst()
    return runs[0]
  }
  const median = (pick: (f: UiFigures) => number) => pct(sortNum(runs.map(pick)), 50)
  const each = (pick: (f: UiFigures) => number) => runs.map((f) => `${pick(f).toFixed(1)} ms`).join(', ')
  const p95Frame = median((f) => f.p95Frame)
  const longTasks = median((f) => f.longTasks)
  const paintedP95 = median((f) => f.paintedP95)
  const figures: UiFigures = {
    agents: AGENTS,
    p95Frame,
    longestTask: median((f) => f.longestTask),
    longTasks,
    paintedP95,
    met: { frame: frameMet(p95Frame), tasks: longTasks === 0, painted: paintedMet(paintedP95) }
  }
  console.log(`\nUI, ${AGENTS} agents streaming: the median of ${runs.length} runs (each run above; the targets are judged on these)`)
  console.log(`  p95 frame time      ${ms(figures.p95Frame)} (runs: ${each((f) => f.p95Frame)})  (target ≤ 16.7 ms: ${verdict(figures.met.frame)})`)
  console.log(
    `  long tasks          ${figures.longTasks} over 50 ms, longest ${ms(figures.longestTask)} (runs: ${runs.map((f) => `${f.longTasks}, longest ${f.longestTask.toFixed(0)} ms`).join('; ')})  (target none: ${verdict(figures.met.tasks)})`
  )
  console.log(`  event→painted p95   ${ms(figures.paintedP95)} (runs: ${each((f) => f.paintedP95)})  (target ≤ 100 ms: ${verdict(figures.met.painted)})`)
  worst()
  return figures
}

async function instantRun(browser: Browser, rendererDir: string, tmp: string): Promise<UiFigures> {
  const dir = join(tmp, 'stream-instant')
  mkdirSync(dir, { recursive: true })
  process.stdout.write(`\n[worst case: every agent at once, not judged]`)
  return benchStreaming(browser, rendererDir, dir, false, 'instant')
}

async function benchStreaming(browser: Browser, rendererDir: string, tmp: string, first: boolean, burst: 'paced' | 'instant'): Promise<UiFigures> {
  const project = join(tmp, 'stream-project')
  mkdirSync(project, { recursive: true })
  const host = new StreamHost(await tempHost(project, join(tmp, 'stream-data'), join(tmp, 'home')), {
    agents: AGENTS,
    deltasPerSecond: RATE,
    recordTo: join(tmp, 'stream-recorded'),
    ...(burst === 'paced' ? { reply: PACED } : {})
  })
  const server = await startWebServer({ host, rendererDir })
  const page = await browser.newPage({ viewport: VIEWPORT })
  // The page's errors while measured (a ResizeObserver loop among them): figures of a page that failed mean little.
  const pageErrors = watchProblems(page, { console: true })
  // A ResizeObserver loop is an error event on the window, which neither uncaught errors nor the console report.
  await page.addInitScript(() => {
    const w = globalThis as unknown as { addEventListener(type: 'error', on: (e: { message: string }) => void): void }
    w.addEventListener('error', (e) => console.error(`window error: ${e.message}`))
  })
  if (ARRIVALS) await page.addInitScript(installArrivalClock)
  try {
    await page.goto(server.url)
    await page.getByTestId('new-prompt').fill(`Benchmark: ${AGENTS} agents streaming`)
    const heapStart = await heapUsed(page, true)
    let heapPeak = heapStart
    const profiler = await startProfile(page, first ? PROFILE_DIR : undefined)
    const tracer = await startTrace(browser, page, first ? TRACE_DIR : undefined)
    const loadBefore = load()
    const metrics = await rendererMetrics(page)
    const metricsBefore = await metrics()
    // The host stamps what it sends on its clock, the page what it paints on its own: lined up here (ui-clock.ts).
    const clock = await pageClockOffset(page)
    // Measured from before the prompt is sent: the 64 agents' start burst is part of what is measured.
    await page.evaluate(startStreamProbe, AGENTS)
    await page.getByTestId('new-prompt-send').click()
    await page
      .locator('[data-tile]')
      .nth(AGENTS - 1)
      .waitFor({ timeout: 30_000 })
    const sampler = setInterval(
      () =>
        void heapUsed(page).then(
          (h) => (heapPeak = Math.max(heapPeak, h)),
          () => {}
        ),
      1000
    )
    // This process's share of the machine while the agents stream: the runtime (host, recorder, the socket's
    // batching) and the bench's driver, and how late its event loop ran (a late loop holds the deltas back).
    const loopDelay = monitorEventLoopDelay({ resolution: 1 })
    loopDelay.enable()
    const cpuBefore = process.cpuUsage()
    const hostRun = await host.stream(SECONDS)
    const run: StreamRun = { ...hostRun, sent: onPageClock(hostRun.sent, clock.offset) }
    loopDelay.disable()
    const processCpu = process.cpuUsage(cpuBefore)
    await page.waitForTimeout(400) // the last deltas reach the screen
    clearInterval(sampler)
    const probe = await page.evaluate(stopStreamProbe)
    // Cross-origin isolated (the server's headers), the page's clocks read to 5 µs; otherwise to 100 µs, with jitter.
    const isolated = await page.evaluate(() => (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true)
    const metricsAfter = await metrics()
    const loadAfter = load()
    const heapEnd = await heapUsed(page)
    if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT })
    const heapAfterGc = await heapUsed(page, true)
    const catchUp = await page.evaluate(timeCatchUp, Object.fromEntries(Object.entries(run.sent).map(([id, s]) => [id, s.length - 1])))
    host.finish()
    const profile = [...(await profiler.stop('stream')), ...(await tracer.stop('stream'))]

    const sent = Object.values(run.sent).reduce((n, s) => n + s.length, 0)
    const frames = sortNum(probe.frames)
    const { latencies, missing, deltas } = deliveryLatencies(run, probe)
    const lat = sortNum(latencies)
    const arrived = ARRIVALS ? sortNum(deliveryLatencies(run, { seen: await page.evaluate(arrivals), onScreen: probe.onScreen }).latencies) : null
    const painted = deliveryLatencies(run, { seen: probe.painted, onScreen: probe.onScreen })
    const paintLat = sortNum(painted.latencies)
    const burstMs = probe.tilesPaintedAt ? probe.tilesPaintedAt - (host.burstAt + clock.offset) : NaN
    const longest = Math.max(0, ...probe.longTasks)
    // Long tasks of the start burst (tiles mounting) and of the stream are different work: said apart.
    const inBurst = probe.longTaskAt.filter((at) => !probe.tilesPaintedAt || at < probe.tilesPaintedAt).length
    const longestFrame = Math.max(0, ...probe.frames)
    const droppedFrames = probe.frames.filter((f) => f > 1.5 * pct(frames, 50)).length
    console.log(
      `\nUI: ${AGENTS} agents start (${burst === 'paced' ? `as the main agent's reply writes their calls: its first token after ${PACED.firstTokenMs} ms, then ${PACED.callsPerSecond} calls a second; each agent's reply begins ${PACED.firstTokenMs} ms after its start` : "all at once, with the session's first events"}), then stream ${RATE} text deltas/s each for ${SECONDS} s (Chromium ${browser.version()}, ${VIEWPORT.width}×${VIEWPORT.height}, browser mode; every event also recorded by the runtime in the same process: transcripts, session index)`
    )
    console.log(
      `  start burst         ${burst === 'paced' ? "the reply's first token" : `${AGENTS} agents' start events`} → all ${AGENTS} tiles painted in ${ms(burstMs)} (frames and long tasks below include it)`
    )
    console.log(`  deltas sent         ${sent} (${(sent / (run.durationMs / 1000)).toFixed(0)}/s)`)
    console.log(
      `  frames              ${frames.length} (${(frames.length / (probe.elapsedMs / 1000)).toFixed(1)} fps); interval p50 ${ms(pct(frames, 50))}, p95 ${ms(pct(frames, 95))}, p99 ${ms(pct(frames, 99))}, max ${ms(longestFrame)}; ${droppedFrames} frames over 1.5× the median; clock ${isolated ? 'to 5 µs (cross-origin isolated)' : 'to 100 µs with jitter (not cross-origin isolated)'}, ${clock.offset >= 0 ? '+' : '−'}${ms(Math.abs(clock.offset))} from the bench's (round trip ${ms(clock.roundTrip)})`
    )
    console.log(`  p95 frame time      ${ms(pct(frames, 95))}  (target ≤ 16.7 ms, one vsync: ${verdict(frameMet(pct(frames, 95)))})`)
    console.log(
      `  longest task        ${probe.longTasks.length ? ms(longest) : 'none over 50 ms'}; ${probe.longTasks.length} long tasks (${inBurst} of them began before the ${AGENTS} tiles were painted), ${probe.longFrames.length} long animation frames (target: none over 50 ms: ${verdict(!probe.longTasks.length)})`
    )
    // When each began, from the start burst's first event (negative: before it, as the session's view opened).
    if (probe.longTasks.length)
      console.log(
        `  long tasks          ${probe.longTasks.map((d, i) => `${d.toFixed(0)} ms at ${signedMs(probe.longTaskAt[i] - (host.burstAt + clock.offset))}`).join(', ')} (from the start burst's first event)`
      )
    console.log(
      `  event→painted       p50 ${ms(pct(paintLat, 50))}, p95 ${ms(pct(paintLat, 95))}, p99 ${ms(pct(paintLat, 99))}, max ${ms(paintLat[paintLat.length - 1])} over the ${probe.onScreen.length} agents on screen, as ${probe.density} (${deltas} deltas, ${painted.missing} never painted)  (target p95 ≤ 100 ms: ${verdict(paintedMet(pct(paintLat, 95)))})`
    )
    console.log(
      `  event→DOM           p50 ${ms(pct(lat, 50))}, p95 ${ms(pct(lat, 95))}, p99 ${ms(pct(lat, 99))}, max ${ms(lat[lat.length - 1])} (in the page, not yet painted; ${missing} never shown)`
    )
    if (arrived)
      console.log(
        `  event→page          p50 ${ms(pct(arrived, 50))}, p95 ${ms(pct(arrived, 95))}, p99 ${ms(pct(arrived, 99))} (the socket's message event in the page, before the app's handler: the host's batching, the socket, the page's queue)`
      )
    const delayMs = (q: number) => (loopDelay.percentile(q) / 1e6).toFixed(1)
    console.log(
      `  bench process       CPU ${((processCpu.user + processCpu.system) / 1000 / (run.durationMs / 1000)).toFixed(0)} ms/s while streaming (the runtime's host and recorder, and the bench's driver); event-loop delay p50 ${delayMs(50)} ms, p99 ${delayMs(99)} ms`
    )
    if (catchUp)
      console.log(
        `  panels out of view  ${AGENTS - probe.onScreen.length} drew nothing while away; scrolled into view, ${catchUp.panels} showed their latest text in ${ms(catchUp.ms)}`
      )
    else console.log(`  out of view         none: all ${AGENTS} agents on screen`)
    const cpu = cpuPerSecond(metricsBefore, metricsAfter, (run.durationMs + 400) / 1000)
    console.log(
      `  renderer CPU        main thread ${cpu('ThreadTime')} ms/s, ${(((metricsAfter.ThreadTime - metricsBefore.ThreadTime) * 1000) / Math.max(1, frames.length)).toFixed(1)} ms per frame (script ${cpu('ScriptDuration')}, style ${cpu('RecalcStyleDuration')}, layout ${cpu('LayoutDuration')} ms/s); whole renderer process ${cpu('ProcessTime')} ms/s`
    )
    console.log(
      `  machine             ${loadBefore} before, ${loadAfter.replace('load average ', '')} after (frame and latency figures need a free core; CPU figures do not)`
    )
    console.log(`  JS heap             ${mb(heapStart)} before (after GC), peak ${mb(heapPeak)}, ${mb(heapEnd)} at the end, ${mb(heapAfterGc)} after GC`)
    console.log(`  page errors         ${pageErrors.length ? `${pageErrors.length}: ${[...new Set(pageErrors)].slice(0, 3).join(' | ')}` : 'none'}`)
    for (const line of profile) console.log(line)
    return {
      agents: AGENTS,
      p95Frame: pct(frames, 95),
      longestTask: longest,
      longTasks: probe.longTasks.length,
      paintedP95: pct(paintLat, 95),
      met: { frame: frameMet(pct(frames, 95)), tasks: !probe.longTasks.length, painted: paintedMet(pct(paintLat, 95)) }
    }
  } finally {
    await page.close()
    await server.close()
    await host.close()
  }
}

async function benchOpen(browser: Browser, rendererDir: string, tmp: string): Promise<void> {
  const project = join(tmp, 'open-project')
  const dataDir = join(tmp, 'open-data')
  mkdirSync(project, { recursive: true })
  const host = await tempHost(project, dataDir, join(tmp, 'home'))
  const writeStart = performance.now()
  const big = await writeBigSession({ dataDir, cwd: project, events: OPEN_EVENTS })
  const writeMs = performance.now() - writeStart
  const size = statSync(transcriptPath(dataDir, big.sessionId, big.agentId)).size
  const hostTimes: number[] = []
  const open = host.handlers['sessions.open']
  host.handlers['sessions.open'] = async (r) => {
    const t = performance.now()
    const res = await open(r)
    hostTimes.push(performance.now() - t)
    return res
  }
  const server = await startWebServer({ host, rendererDir })
  const runs: number[] = []
  const pageWork: number[] = []
  const wholeRuns: number[] = []
  let profile: string[] = []
  try {
    for (let i = 0; i < OPEN_RUNS; i++) {
      const page = await browser.newPage({ viewport: VIEWPORT })
      try {
        await page.addInitScript(installMessageClock)
        await page.goto(server.url)
        await page.getByTestId('session-item').first().waitFor()
        const profiler = await startProfile(page, i === 0 ? PROFILE_DIR : undefined)
        const tracer = await startTrace(browser, page, i === 0 ? TRACE_DIR : undefined)
        const { total, arrived, whole } = await page.evaluate(timeOpenSession, { title: big.title, lastText: big.lastText })
        runs.push(total)
        pageWork.push(total - arrived)
        wholeRuns.push(whole)
        if (i === 0) profile = [...(await profiler.stop('open')), ...(await tracer.stop('open'))]
      } finally {
        await page.close()
      }
    }
  } finally {
    await server.close()
    await host.close()
  }
  const sorted = sortNum(runs)
  const median = pct(sorted, 50)
  console.log(
    `\nUI: open a recorded session of ${big.events.toLocaleString('en-US')} events (one transcript, ${mb(size)}; written by the session recorder in ${(writeMs / 1000).toFixed(1)} s)`
  )
  console.log(
    `  click → transcript painted   median ${ms(median)} of ${runs.length} (${runs.map((r) => r.toFixed(0)).join(', ')} ms)  (target < 1000 ms: ${verdict(median < 1000)})`
  )
  console.log(
    `  host sessions.open           median ${ms(pct(sortNum(hostTimes), 50))} (reading the session's view checkpoint, or replaying its transcripts, and cutting its newest part; then the answer is checked, serialized and sent)`
  )
  console.log(`  page: answer → painted       median ${ms(pct(sortNum(pageWork), 50))} (parse and render: the renderer's part)`)
  console.log(`  click → whole session in     median ${ms(pct(sortNum(wholeRuns), 50))} (the older items, a page at a time, after the paint; not a target)`)
  for (const line of profile) console.log(line)
}

/** Runs the UI phases; the streaming figures when that phase ran, else null. */
export async function benchUi(root: string): Promise<UiFigures | null> {
  // BENCH_UI_RENDERER points at another build (e.g. an unminified one, for readable profiles).
  const rendererDir = process.env.BENCH_UI_RENDERER ?? join(root, 'out/renderer')
  if (!existsSync(join(rendererDir, 'index.html'))) {
    console.log(`\nUI: skipped — no built renderer at ${rendererDir} (run npm run build).`)
    return null
  }
  if (!existsSync(chromiumPath)) {
    console.log(`\nUI: skipped — no Chromium at ${chromiumPath} (apt install chromium, or set FANOUT_CHROMIUM).`)
    return null
  }
  const tmp = mkdtempSync(join(tmpdir(), 'fanout-bench-ui-'))
  const browser = await chromium.launch({ executablePath: chromiumPath, args: config.use?.launchOptions?.args })
  let figures: UiFigures | null = null
  try {
    const phases = process.env.BENCH_UI_PHASES?.split(',').map((s) => s.trim())
    const run = (phase: string) => !phases || phases.includes(phase)
    if (run('stream')) figures = await streamRuns(browser, rendererDir, tmp)
    if (run('floor')) await benchFloor(browser, VIEWPORT)
    if (run('open')) await benchOpen(browser, rendererDir, tmp)
    if (run('switch')) {
      const project = join(tmp, 'switch-project')
      mkdirSync(project, { recursive: true })
      await benchPaneSwitch(browser, rendererDir, tmp, await tempHost(project, join(tmp, 'switch-data'), join(tmp, 'home')), AGENTS, {
        profile: PROFILE_DIR,
        trace: TRACE_DIR
      })
    }
  } finally {
    await browser.close()
    rmSync(tmp, { recursive: true, force: true })
  }
  return figures
}
