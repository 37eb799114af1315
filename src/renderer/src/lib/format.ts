// Numbers as people read them in a dense UI: 0:42, 1.2 s, 12.3k, $0.042, "3 min ago".

export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const ss = String(s).padStart(2, '0')
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return ''
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
  return formatClock(ms)
}

// One formatter: toLocaleString builds a new one per call, which costs a tile's figures most of their render.
const WHOLE = new Intl.NumberFormat('en-US')

/** 12,345: a count in full, for tooltips. */
export function formatCount(n: number): string {
  return WHOLE.format(n)
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n)
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`
  return `${(n / 1_000_000).toFixed(1)}M`
}

/**
 * Under a cent to the tenth of a cent, else to the cent, from $100 in dollars. The precision is chosen after
 * rounding, so a cost just under a boundary reads like the boundary itself: $0.00996 is "$0.01", not "$0.010".
 */
export function formatCost(usd: number): string {
  if (!usd) return '$0.00'
  // Spent, but under a tenth of a cent: "$0.000" would read as nothing spent.
  if (usd > 0 && usd < 0.0005) return '<$0.001'
  const mills = Math.round(usd * 1000) / 1000
  if (mills < 0.01) return `$${mills.toFixed(3)}`
  const cents = Math.round(usd * 100) / 100
  if (cents < 100) return `$${cents.toFixed(2)}`
  return `$${Math.round(usd)}`
}

// Dates too: Date's toLocale…String builds a formatter per call (~0.1 ms each). The sidebar's session rows, drawn
// again at each of a fan-out's agent starts, spent more time in their tooltip's date than in anything else.
const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })
const DAY_YEAR = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' })
const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
const DATE_TIME = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric'
})
const SHORT_DATE_TIME = new Intl.DateTimeFormat(undefined, { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false })

export function formatRelative(ts: number, now = Date.now()): string {
  const d = Math.max(0, now - ts)
  if (d < 45_000) return 'just now'
  if (d < 3_600_000) return `${Math.round(d / 60_000)} min ago`
  if (d < 86_400_000) return `${Math.round(d / 3_600_000)} h ago`
  const sameYear = new Date(ts).getFullYear() === new Date(now).getFullYear()
  return (sameYear ? DAY : DAY_YEAR).format(ts)
}

/** 14:03:27, in the person's locale. */
export function formatTime(ts: number): string {
  return TIME.format(ts)
}

/** The date and time in full, as Date's toLocaleString writes it: for tooltips. */
export function formatDateTime(ts: number): string {
  return DATE_TIME.format(ts)
}

/** "12/3, 14:03": a run in a short list. */
export function formatShortDateTime(ts: number): string {
  return SHORT_DATE_TIME.format(ts)
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

export function firstLine(text: string): string {
  return text.trim().split('\n', 1)[0] ?? ''
}
