// Switching the right pane between Subagents (the overview) and Tree & timeline with N live agents (64): a
// click on the tab to the other view painted, in Chromium against browser mode. Each direction a few times;
// prints the median and the slowest (the first switch to a view builds it, later ones show it again).
import { mkdirSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { RuntimeHost } from '../src/shared/host'
import { startWebServer } from '../src/main/web/server'
import { startProfile } from './cpu-profile'
import { startTrace } from './trace-summary'
import { StreamHost } from './ui-stream-host'

const SWITCHES = Number(process.env.BENCH_UI_SWITCHES ?? 6)

/** The page's globals this uses (the bench compiles without DOM types). */
interface PageEl {
  offsetParent: unknown
  click(): void
  getBoundingClientRect(): { height: number }
}
interface PageGlobals {
  document: { querySelector(selector: string): PageEl | null }
  requestAnimationFrame(fn: () => void): number
  performance: { now(): number; mark(name: string): void; measure(name: string, start: string): void }
  setTimeout(fn: () => void, ms: number): unknown
}

/** In the page: clicks a tab and resolves with the ms until the view it shows is on screen and painted. */
export function timeSwitch(args: { tab: string; ready: string }): Promise<number> {
  const w = globalThis as unknown as PageGlobals
  return new Promise((resolve) => {
    const visible = () => {
      const el = w.document.querySelector(args.ready)
      return !!el && el.offsetParent !== null && el.getBoundingClientRect().height > 0
    }
    const start = w.performance.now()
    w.performance.mark(`switch-${args.tab}`)
    w.document.querySelector(`[data-testid=${args.tab}]`)!.click()
    const check = (): void => {
      if (!visible()) {
        w.requestAnimationFrame(check)
        return
      }
      // The frame that shows it: after the next animation frame's paint.
      w.requestAnimationFrame(() =>
        w.setTimeout(() => {
          w.performance.measure(`switched-${args.tab}`, `switch-${args.tab}`)
          resolve(w.performance.now() - start)
        }, 0)
      )
    }
    check()
  })
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export async function benchPaneSwitch(
  browser: Browser,
  rendererDir: string,
  tmp: string,
  inner: RuntimeHost,
  agents: number,
  dirs: { profile?: string; trace?: string } = {}
): Promise<void> {
  const host = new StreamHost(inner, { agents, deltasPerSecond: 20 })
  const server = await startWebServer({ host, rendererDir })
  const page: Page = await browser.newPage({ viewport: { width: 1920, height: 1080 } })
  try {
    await page.goto(server.url)
    await page.getByTestId('new-prompt').fill(`Benchmark: ${agents} agents, switching views`)
    await page.getByTestId('new-prompt-send').click()
    await page
      .locator('[data-tile]')
      .nth(agents - 1)
      .waitFor({ timeout: 30_000 })
    await host.stream(2) // each agent has streamed some text and still runs (its clock ticks)
    await page.waitForTimeout(300)
    mkdirSync(join(tmp, 'switch'), { recursive: true })
    const profiler = await startProfile(page, dirs.profile)
    const tracer = await startTrace(browser, page, dirs.trace)
    // CPU time of the renderer's main thread too (thread ticks): on a loaded machine the wall time waits for a core.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
    const threadMs = async () => 1000 * ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0)
    const toTree: number[] = []
    const toTiles: number[] = []
    const cpuTree: number[] = []
    const cpuTiles: number[] = []
    const timed = async (wall: number[], cpu: number[], args: { tab: string; ready: string }) => {
      const before = await threadMs()
      wall.push(await page.evaluate(timeSwitch, args))
      cpu.push((await threadMs()) - before)
    }
    for (let i = 0; i < SWITCHES; i++) {
      await timed(toTree, cpuTree, { tab: 'tab-timeline', ready: '[data-testid=timeline-row]' })
      await timed(toTiles, cpuTiles, { tab: 'tab-panels', ready: '[data-tile]' })
    }
    await cdp.detach()
    const profile = [...(await profiler.stop('switch')), ...(await tracer.stop('switch'))]
    const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms, slowest ${Math.max(...xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`
    console.log(`\nUI: switching Subagents ↔ Tree & timeline with ${agents} running agents at 1920×1080, click → painted, ${SWITCHES} times each way`)
    console.log(`  → Tree & timeline   ${fmt(toTree)}; main-thread CPU ${fmt(cpuTree)}`)
    console.log(`  → Subagents         ${fmt(toTiles)}; main-thread CPU ${fmt(cpuTiles)}`)
    console.log(
      `  machine             load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores (the wall times need a free core; CPU times do not)`
    )
    for (const line of profile) console.log(line)
    host.finish()
  } finally {
    await page.close()
    await server.close()
    await host.close()
  }
}
