// What this machine's Chromium can do at all: a bare page (no app, no runtime, no socket) with 64 boxes shaped
// like the overview's compact tiles, writing each box's text at every frame as 64 agents streaming would. The
// streaming figures above it are the app's; these are the floor under them on the same machine and browser, so
// a reader can tell what the page adds from what the machine costs. The same page writing half the boxes a frame
// shows how much of a frame is per box and how much is fixed. Not a target.
import type { Browser } from 'playwright-core'
import { pct } from './percentile'

const SECONDS = Number(process.env.BENCH_UI_FLOOR_SECONDS ?? 8)
const BOXES = 64

/** The page's globals this uses (the bench compiles without DOM types). */
interface FloorPage {
  document: {
    getElementById(id: string): { appendChild(node: unknown): void }
    createElement(tag: string): { className: string; innerHTML: string; querySelector(s: string): { appendChild(node: unknown): void } }
    createTextNode(text: string): { nodeValue: string }
  }
  requestAnimationFrame(fn: (t: number) => void): number
  performance: { now(): number }
}

const PAGE = `<!doctype html><style>
body { margin: 0; font: 12px system-ui, sans-serif; background: #fff; color: #222 }
.grid { display: grid; grid-template-columns: repeat(5, 1fr); gap: 8px; padding: 8px; margin-left: 650px }
.tile { position: relative; height: 63px; border: 1px solid #ddd; border-left: 3px solid #36c; border-radius: 6px }
.body { position: absolute; inset: 0; contain: strict; display: flex; flex-direction: column; gap: 1px; padding: 3px 6px 4px 10px }
.head { height: 16px; font-weight: 600 }
.now { height: 15px; line-height: 15px; overflow: clip; display: flex; flex-direction: column; justify-content: flex-end; word-break: break-word }
.stats { height: 15px; line-height: 15px; color: #666 }
</style><div class="grid" id="grid"></div>`

/** In the page: writes the boxes' text for `seconds` (all, or half of them a frame); the frame intervals, ms. */
function writeBoxes(args: { boxes: number; seconds: number; half: boolean }): Promise<number[]> {
  const w = globalThis as unknown as FloorPage
  const words = 'the parser reads each token and the lexer keeps its position so that errors can say where they happened while callers'.split(' ')
  const grid = w.document.getElementById('grid')
  const boxes = Array.from({ length: args.boxes }, (_, i) => {
    const tile = w.document.createElement('div')
    tile.className = 'tile'
    tile.innerHTML = `<div class="body"><div class="head">Stream part ${i + 1}</div><div class="now"><span></span></div><div class="stats">t1/30 5.9k tok $0.001 3%</div></div>`
    const node = w.document.createTextNode('')
    tile.querySelector('span').appendChild(node)
    grid.appendChild(tile)
    return { node, text: '' }
  })
  return new Promise((resolve) => {
    const intervals: number[] = []
    let frame = 0
    let seq = 0
    let prev = -1
    const end = w.performance.now() + args.seconds * 1000
    const tick = (t: number) => {
      if (prev >= 0) intervals.push(t - prev)
      prev = t
      frame++
      boxes.forEach((box, i) => {
        if (args.half && i % 2 !== frame % 2) return
        seq++
        box.text = `${box.text} ${words[seq % words.length]} ${words[(seq * 7) % words.length]} ‹${seq}›`.slice(-92)
        box.node.nodeValue = box.text
      })
      if (w.performance.now() < end) w.requestAnimationFrame(tick)
      else resolve(intervals)
    }
    w.requestAnimationFrame(tick)
  })
}

/** Prints the floor: the bare page writing every box a frame, then half of them. */
export async function benchFloor(browser: Browser, viewport: { width: number; height: number }): Promise<void> {
  console.log(
    `\nUI floor: a bare page (no app, runtime or socket) writing ${BOXES} tile-shaped boxes' text at every frame for ${SECONDS} s, same Chromium and ${viewport.width}×${viewport.height} (what the machine costs; not a target)`
  )
  for (const half of [false, true]) {
    const page = await browser.newPage({ viewport })
    try {
      await page.setContent(PAGE)
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
      const taskSeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0
      const before = await taskSeconds()
      const intervals = (await page.evaluate(writeBoxes, { boxes: BOXES, seconds: SECONDS, half })).sort((a, b) => a - b)
      const busy = (await taskSeconds()) - before
      const at = (p: number) => pct(intervals, p).toFixed(1)
      const perSecond = (busy * 1000) / SECONDS
      console.log(
        `  ${half ? 'half the boxes a frame' : 'every box a frame    '}  ${(intervals.length / SECONDS).toFixed(1)} fps; frame interval p50 ${at(50)} ms, p95 ${at(95)} ms; main thread ${perSecond.toFixed(0)} ms/s (${((perSecond * SECONDS) / Math.max(1, intervals.length)).toFixed(1)} ms a frame)`
      )
    } finally {
      await page.close()
    }
  }
}
