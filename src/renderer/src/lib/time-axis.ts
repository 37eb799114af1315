// Tick marks for the timeline: round steps (1 s, 2 s, 5 s … 1 h) so that about six fit the span.
const NICE_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600].map((s) => s * 1000)

export function axisTicks(span: number, target = 6): number[] {
  const step = NICE_STEPS.find((s) => span / s <= target) ?? NICE_STEPS[NICE_STEPS.length - 1]
  const ticks: number[] = []
  for (let t = 0; t <= span; t += step) ticks.push(t)
  return ticks
}

