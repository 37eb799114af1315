// What the UI benchmark measures inside the page. Each function here is serialized by Playwright and runs
// in the browser, so it may use only its arguments and the page's globals (typed below, because the
// bench compiles without DOM types). Nothing here touches the renderer's code: the probe watches the DOM.

interface Rect {
  top: number
  bottom: number
}
interface El {
  closest(selector: string): El | null
  getBoundingClientRect(): Rect
  querySelectorAll(selector: string): Iterable<El>
  scrollTop: number
  scrollHeight: number
  getAttribute(name: string): string | null
  querySelector(selector: string): El | null
  readonly parentElement: El | null
  readonly textContent: string | null
  readonly nodeType: number
  readonly nodeValue: string | null
  click(): void
}
interface Mutation {
  readonly target: El
}
interface Page {
  document: { body: El; querySelector(selector: string): El | null; querySelectorAll(selector: string): Iterable<El> }
  innerHeight: number
  MutationObserver: new (cb: (records: Mutation[]) => void) => { observe(target: El, options: object): void; disconnect(): void }
  PerformanceObserver: new (
    cb: (list: { getEntries(): Array<{ duration: number; startTime: number }> }) => void
  ) => {
    observe(options: object): void
    disconnect(): void
  }
  requestAnimationFrame(cb: (t: number) => void): number
  queueMicrotask(cb: () => void): void
  setTimeout(cb: () => void, ms: number): number
  performance: { now(): number; timeOrigin: number }
  __fanoutBench?: StreamProbe
  /** performance.now() when the answer to sessions.open arrived (see installMessageClock). */
  __fanoutOpenAnsweredAt?: number
  /** performance.now() when the last page of the opened session's older items arrived. */
  __fanoutOpenWholeAt?: number
  WeakMap: WeakMapConstructor
  WebSocket: new (...args: unknown[]) => { addEventListener(type: string, cb: (e: { data: unknown }) => void): void }
  /** Per agent id: [marker, epoch ms its delta reached the page] (see installArrivalClock). */
  __fanoutArrived?: Record<string, Array<[number, number]>>
}

/** The last `‹seq›` marker in an element's text, or -1. */
type LastMarker = (el: El) => number

export interface StreamProbeResult {
  /** Intervals between consecutive animation frames, ms. */
  frames: number[]
  /** Durations of tasks over 50 ms (longtask entries), ms. */
  longTasks: number[]
  /** When each of those tasks began, epoch ms (to tell the start burst's from the stream's). */
  longTaskAt: number[]
  /** Durations of animation frames over 50 ms (long-animation-frame entries), ms. */
  longFrames: number[]
  /** Per agent id: [highest marker on screen, epoch ms when it appeared in the DOM], in the order seen. */
  seen: Record<string, Array<[number, number]>>
  /**
   * The same markers, with the epoch ms they were painted: a task once the frame that paints the DOM update has
   * been laid out and painted (the same frame when the update came from its animation-frame callbacks, else the
   * next one).
   */
  painted: Record<string, Array<[number, number]>>
  /** From start to stop, ms (the start burst and the stream). */
  elapsedMs: number
  /** Epoch ms when the expected number of tiles was first on screen, painted (the start burst); 0 if never. */
  tilesPaintedAt: number
  /** Agents whose tile or panel was visible when the probe stopped (the rest were scrolled out of view). */
  onScreen: string[]
  /** The overview's density as measured (tiles, compact, panels). */
  density: string
}

interface StreamProbe {
  stop(): StreamProbeResult
}

/**
 * Starts measuring: every animation frame, long tasks, and, for each agent panel, when the highest
 * `‹seq›` marker of its streamed text first appears in the DOM. Markers are appended in order, so the
 * last one in a panel's text tells which deltas are now visible.
 */
export function startStreamProbe(expectTiles: number): void {
  const w = globalThis as unknown as Page
  // Agent ids of the panels in the visible part of the panels grid (and the window).
  const panelsOnScreen = (): string[] => {
    const scroller = w.document.querySelector('.panels-scroll')
    const box = scroller ? scroller.getBoundingClientRect() : { top: 0, bottom: w.innerHeight }
    const top = Math.max(0, box.top)
    const bottom = Math.min(w.innerHeight, box.bottom)
    return [...w.document.querySelectorAll('[data-tile]')]
      .filter((p) => {
        const r = p.getBoundingClientRect()
        return r.bottom > top && r.top < bottom
      })
      .map((p) => p.getAttribute('data-agent-id')!)
  }
  const now = () => w.performance.timeOrigin + w.performance.now()
  const result: StreamProbeResult = {
    frames: [],
    longTasks: [],
    longTaskAt: [],
    longFrames: [],
    seen: {},
    painted: {},
    elapsedMs: 0,
    tilesPaintedAt: 0,
    onScreen: [],
    density: ''
  }
  const startedAt = now()
  // Markers in the DOM not yet painted, stamped together once the frame that paints them has been painted.
  let unpainted: Array<[string, number]> = []
  let tilesInDom = false
  let paintScheduled = false
  // Whether the DOM changes now come from a frame's animation-frame callbacks (the app applies live events
  // there): that same frame lays them out and paints them, in the task that runs the callbacks, so a task
  // posted then runs once they are painted. A change made in any other task is painted by the next frame: its
  // animation frame first, then a task. (Waiting for the next frame in both cases stamped most deltas one frame
  // late.) Each callback is wrapped to say so; the mutation observer's microtask, queued by the callback's first
  // change, runs before the one that clears the flag.
  const raf = w.requestAnimationFrame
  let inFrameCallback = false
  w.requestAnimationFrame = (cb) =>
    raf((t) => {
      inFrameCallback = true
      try {
        cb(t)
      } finally {
        w.queueMicrotask(() => (inFrameCallback = false))
      }
    })
  const stamp = () => {
    paintScheduled = false
    const at = now()
    for (const [id, seq] of unpainted) (result.painted[id] ??= []).push([seq, at])
    unpainted = []
    if (tilesInDom && !result.tilesPaintedAt) result.tilesPaintedAt = at
  }
  const afterPaint = () => {
    if (paintScheduled) return
    paintScheduled = true
    if (inFrameCallback) w.setTimeout(stamp, 0)
    else raf(() => w.setTimeout(stamp, 0))
  }
  const last: Record<string, number> = {}
  const panelOf = new w.WeakMap<El, El | null>()
  let running = true
  let prev = -1
  const frame = (t: number) => {
    if (!running) return
    if (prev >= 0) result.frames.push(t - prev)
    prev = t
    w.requestAnimationFrame(frame)
  }
  w.requestAnimationFrame(frame)

  const observers = ['longtask', 'long-animation-frame'].map((type) => {
    const o = new w.PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (type === 'longtask') {
          result.longTasks.push(e.duration)
          result.longTaskAt.push(w.performance.timeOrigin + e.startTime)
        } else result.longFrames.push(e.duration)
      }
    })
    try {
      o.observe({ type, buffered: false })
    } catch {}
    return o
  })

  const mo = new w.MutationObserver((records) => {
    const at = now()
    if (!tilesInDom && [...w.document.querySelectorAll('[data-tile]')].length >= expectTiles) {
      tilesInDom = true
      afterPaint()
    }
    // Per agent, the texts to read: a text node whose value changed is read alone (a tile's text is one node),
    // anything else as the whole panel's text. The probe's own work shares the page's main thread with the app,
    // so it reads as little as tells which markers are in the DOM.
    const texts = new Map<string, Array<string | null>>()
    for (const r of records) {
      const node = r.target
      let panel = panelOf.get(node)
      if (panel === undefined) {
        const el = (node as El).closest ? node : node.parentElement
        panel = el?.closest('[data-agent-id]') ?? null
        panelOf.set(node, panel)
      }
      if (!panel) continue
      const id = panel.getAttribute('data-agent-id')!
      const list = texts.get(id) ?? []
      texts.set(id, list)
      list.push(node.nodeType === 3 ? node.nodeValue : (panel.textContent ?? ''))
    }
    for (const [id, list] of texts) {
      let seq = -1
      for (const text of list) {
        const open = text?.lastIndexOf('‹') ?? -1
        const close = open < 0 ? -1 : text!.indexOf('›', open)
        const n = close > open ? Number(text!.slice(open + 1, close)) : NaN
        if (Number.isFinite(n) && n > seq) seq = n
      }
      if (seq < 0 || seq <= (last[id] ?? -1)) continue
      last[id] = seq
      ;(result.seen[id] ??= []).push([seq, at])
      unpainted.push([id, seq])
      afterPaint()
    }
  })
  mo.observe(w.document.body, { childList: true, subtree: true, characterData: true })

  w.__fanoutBench = {
    stop() {
      running = false
      w.requestAnimationFrame = raf
      result.elapsedMs = now() - startedAt
      mo.disconnect()
      for (const o of observers) o.disconnect()
      result.onScreen = panelsOnScreen()
      result.density = w.document.querySelector('[data-testid="overview"]')?.getAttribute('data-density') ?? '?'
      return result
    }
  }
}

export function stopStreamProbe(): StreamProbeResult {
  const w = globalThis as unknown as Page
  const probe = w.__fanoutBench
  if (!probe) throw new Error('The stream probe was not started in this page.')
  return probe.stop()
}

/**
 * Scrolls the panels grid to its end and resolves with the ms until every panel that came into view shows
 * its agent's last delta (`finalSeq`), painted: what a panel held while out of view costs when it returns.
 * Null when no panel was out of view.
 */
export function timeCatchUp(finalSeq: Record<string, number>): Promise<{ ms: number; panels: number } | null> {
  const w = globalThis as unknown as Page
  const scroller = w.document.querySelector('.panels-scroll')
  if (!scroller) return Promise.resolve(null)
  const lastMarker: LastMarker = (el) => {
    const text = el.textContent ?? ''
    const open = text.lastIndexOf('‹')
    const close = text.indexOf('›', open)
    return open >= 0 && close > open ? Number(text.slice(open + 1, close)) : -1
  }
  const panels = () => [...w.document.querySelectorAll('[data-tile]')]
  const box = scroller.getBoundingClientRect()
  const inView = (p: El) => {
    const r = p.getBoundingClientRect()
    return r.bottom > box.top && r.top < box.bottom
  }
  const before = new Set(panels().filter(inView))
  return new Promise((resolve) => {
    const t0 = w.performance.now()
    scroller.scrollTop = scroller.scrollHeight
    const check = () => {
      const arrived = panels().filter((p) => inView(p) && !before.has(p))
      if (!arrived.length) return resolve(null)
      const done = arrived.every((p) => lastMarker(p) === finalSeq[p.getAttribute('data-agent-id')!])
      if (done) resolve({ ms: w.performance.now() - t0, panels: arrived.length })
      else if (w.performance.now() - t0 > 10_000) resolve({ ms: NaN, panels: arrived.length })
      else w.requestAnimationFrame(check)
    }
    w.requestAnimationFrame(check)
  })
}

/**
 * An init script: notes when the answer to sessions.open (the session's state, its newest part) reaches
 * the page, before the app's own handler parses it, so the open time splits into "host and transfer" and
 * "the page's work"; and when the last page of its older items arrives (the whole session is in).
 */
export function installMessageClock(): void {
  const w = globalThis as unknown as Page
  const Base = w.WebSocket
  w.WebSocket = class extends Base {
    constructor(...args: unknown[]) {
      super(...args)
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string' || !e.data.startsWith('{"kind":"result"')) return
        if (e.data.includes('"olderItems":')) w.__fanoutOpenAnsweredAt ??= w.performance.now()
        if (e.data.includes('"olderItems":{}') || (e.data.includes('"page":{') && e.data.endsWith('"more":null}}}')))
          w.__fanoutOpenWholeAt ??= w.performance.now()
      })
    }
  }
}

/**
 * Stamps when each streamed delta reached the page: the socket's message event, before the app's own handler
 * (added first, so it runs first), with the epoch ms and the delta's last `‹seq›` marker per agent, as `seen`
 * holds them. Beside event→DOM it splits the way there (the host's batching, the socket, the page's task queue)
 * from the page's own part. It parses every message a second time, which costs the page time, so the bench
 * installs it only when asked (BENCH_UI_ARRIVALS).
 */
export function installArrivalClock(): void {
  const w = globalThis as unknown as Page
  const Base = w.WebSocket
  const arrived: Record<string, Array<[number, number]>> = (w.__fanoutArrived = {})
  w.WebSocket = class extends Base {
    constructor(...args: unknown[]) {
      super(...args)
      this.addEventListener('message', (e) => {
        const at = w.performance.timeOrigin + w.performance.now()
        if (typeof e.data !== 'string' || !e.data.startsWith('{"kind":"events"')) return
        const { events } = JSON.parse(e.data) as { events: Array<{ type: string; agentId: string; text?: string }> }
        for (const ev of events) {
          const marker = ev.type === 'text_delta' ? /‹(\d+)›[^‹]*$/.exec(ev.text ?? '') : null
          if (marker) (arrived[ev.agentId] ??= []).push([Number(marker[1]), at])
        }
      })
    }
  }
}

/** What installArrivalClock recorded. */
export const arrivals = (): Record<string, Array<[number, number]>> => (globalThis as unknown as Page).__fanoutArrived ?? {}

/**
 * Clicks the session in the sidebar and resolves with the ms from the click until the conversation shows
 * the transcript's last text and the finished-session footer, painted (the frame after they appear); and
 * when the answer arrived, and the last of the older items (NaN if not in within 10 s of the click).
 */
export function timeOpenSession(args: { title: string; lastText: string }): Promise<{ total: number; arrived: number; whole: number }> {
  const w = globalThis as unknown as Page
  const d = w.document
  const ready = () => {
    const transcript = d.querySelector('[data-testid="transcript"]')
    return !!transcript?.querySelector('[data-testid="session-summary"]') && (transcript.textContent ?? '').includes(args.lastText)
  }
  return new Promise((resolve, reject) => {
    const item = [...(d as unknown as { querySelectorAll(s: string): Iterable<El> }).querySelectorAll('[data-testid="session-item"]')].find((el) =>
      (el.textContent ?? '').includes(args.title)
    )
    if (!item) return reject(new Error(`No session titled "${args.title}" in the sidebar.`))
    let done = false
    const finish = () => {
      if (done) return
      done = true
      mo.disconnect()
      // The frame after the DOM is complete: by then it has been laid out and painted.
      w.requestAnimationFrame(() =>
        w.setTimeout(() => {
          const total = w.performance.now() - t0
          const whole = () =>
            w.__fanoutOpenWholeAt === undefined && w.performance.now() - t0 < 10_000
              ? w.setTimeout(whole, 20)
              : resolve({ total, arrived: (w.__fanoutOpenAnsweredAt ?? NaN) - t0, whole: (w.__fanoutOpenWholeAt ?? NaN) - t0 })
          whole()
        }, 0)
      )
    }
    const mo = new w.MutationObserver(() => {
      if (ready()) finish()
    })
    mo.observe(d.body, { childList: true, subtree: true, characterData: true })
    w.__fanoutOpenAnsweredAt = undefined
    w.__fanoutOpenWholeAt = undefined
    const t0 = w.performance.now()
    item.click()
  })
}
