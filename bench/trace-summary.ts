// Optional tracing for the UI benchmark (BENCH_UI_TRACE=dir): a Chromium trace of a measured phase (open
// it in DevTools' Performance panel or ui.perfetto.dev), summarized as the renderer main thread's time per
// kind of work — script, style, layout, paint, HTML parsing — which a CPU profile alone lumps together.
import { mkdirSync, writeFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'

interface TraceEvent {
  name: string
  ph: string
  pid: number
  tid: number
  ts?: number
  dur?: number
  /** Thread (CPU) time: what the work cost, even when other processes held the CPU meanwhile. */
  tdur?: number
  args?: { name?: string }
}

export interface Tracer {
  stop(label: string): Promise<string[]>
}

// Kinds of main-thread work, each summed on its own (RunTask holds the others; FunctionCall is inside RunTask).
const KINDS = [
  'RunTask',
  'FunctionCall',
  'EvaluateScript',
  'v8.run',
  'ParseHTML',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
  'HitTest',
  'MajorGC',
  'MinorGC'
]

export async function startTrace(browser: Browser, page: Page, dir: string | undefined): Promise<Tracer> {
  if (!dir) return { stop: async () => [] }
  // BENCH_UI_TRACE_CATEGORIES adds categories, e.g. disabled-by-default-devtools.timeline.invalidationTracking to
  // see what made each paint and layout.
  const extra = (process.env.BENCH_UI_TRACE_CATEGORIES ?? '').split(',').filter(Boolean)
  await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline', ...extra] })
  return {
    async stop(label) {
      const buffer = await browser.stopTracing()
      const file = `${dir}/ui-${label}.trace.json`
      mkdirSync(dir, { recursive: true })
      writeFileSync(file, buffer)
      return [`  trace               ${file}; renderer main thread, total per kind (wall and CPU ms):`, ...summarizeTrace(JSON.parse(buffer.toString('utf8')))]
    }
  }
}

export function summarizeTrace(trace: { traceEvents: TraceEvent[] } | TraceEvent[]): string[] {
  const events = Array.isArray(trace) ? trace : trace.traceEvents
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  if (!main) return ['    (no renderer main thread in the trace)']
  const totals = new Map<string, { ms: number; cpu: number; n: number }>()
  // A kind can nest in itself (Paint of the document holds a Paint per scroller): count the outer one only.
  const endOf = new Map<string, number>()
  const mine = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && KINDS.includes(e.name))
    .sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0))
  for (const e of mine) {
    if ((e.ts ?? 0) < (endOf.get(e.name) ?? -1)) continue
    endOf.set(e.name, (e.ts ?? 0) + (e.dur ?? 0))
    const t = totals.get(e.name) ?? { ms: 0, cpu: 0, n: 0 }
    t.ms += (e.dur ?? 0) / 1000
    t.cpu += (e.tdur ?? 0) / 1000
    t.n++
    totals.set(e.name, t)
  }
  return [
    '      wall    cpu   count',
    ...[...totals.entries()]
      .sort((a, b) => b[1].ms - a[1].ms)
      .map(([name, t]) => `    ${t.ms.toFixed(0).padStart(6)} ${t.cpu.toFixed(0).padStart(6)} ms ${String(t.n).padStart(6)}×  ${name}`)
  ]
}
