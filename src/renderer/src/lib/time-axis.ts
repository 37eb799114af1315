// Tick marks for the timeline: round steps (1 s, 2 s, 5 s … 1 h), as many as the track's width has room
// for, each label kept inside the track (the first starts at its tick, the last ends at it).
const NICE_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600].map((s) => s * 1000)
/** Room one label ("12:30") needs, with a gap to the next. */
export const TICK_LABEL_PX = 56

export function axisTicks(span: number, target = 6): number[] {
  const step = NICE_STEPS.find((s) => span / s <= target) ?? NICE_STEPS[NICE_STEPS.length - 1]
  const ticks: number[] = []
  for (let t = 0; t <= span; t += step) ticks.push(t)
  return ticks
}

export interface AxisTick {
  t: number
  align: 'start' | 'center' | 'end'
}

/** Ticks for a track `width` px wide: never closer than a label's width, none hanging past either end. */
export function axisLabels(span: number, width: number): AxisTick[] {
  const target = Math.max(1, Math.min(6, Math.floor(width / TICK_LABEL_PX)))
  const ticks = axisTicks(span, target)
  const px = (t: number) => (t / span) * width
  return ticks.map((t) => {
    const x = px(t)
    return { t, align: x < TICK_LABEL_PX / 2 ? 'start' : x > width - TICK_LABEL_PX / 2 ? 'end' : 'center' }
  })
}

/** The agent-label column of the timeline: a third of a narrow pane, at most 270 px. */
export const timelineLabelWidth = (width: number): number => Math.round(Math.max(130, Math.min(270, width * 0.36)))
