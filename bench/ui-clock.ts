// The page's clock against the bench's. A delta is stamped as the bench sends it and the page stamps when it
// is painted: each reads `performance.timeOrigin + now()`, its own wall clock at its start plus the time since,
// and a wall clock set in between (a VM's clock corrected by its host) puts the two seconds apart (seen: 6.7 s
// on every event→painted figure of one run). So the offset is measured, NTP-style, by round trips to the page,
// and the host's stamps are read on the page's clock. Both clocks run on without steps once their process has
// started, so one offset holds for the whole run.
import type { Page } from 'playwright-core'

/** The bench's own clock (the stream host stamps what it sends with it), ms. */
export const hostNow = (): number => performance.timeOrigin + performance.now()

/** How far the page's clock reads ahead of hostNow, ms: from the round trip of `samples` that took least time (its error is at most half that). */
export async function pageClockOffset(page: Page, samples = 15): Promise<{ offset: number; roundTrip: number }> {
  let best = { offset: 0, roundTrip: Number.POSITIVE_INFINITY }
  for (let i = 0; i < samples; i++) {
    const before = hostNow()
    const at = await page.evaluate(() => performance.timeOrigin + performance.now())
    const after = hostNow()
    if (after - before < best.roundTrip) best = { offset: at - (before + after) / 2, roundTrip: after - before }
  }
  return best
}

/** Host stamps (per agent) on the page's clock. */
export const onPageClock = (stamps: Record<string, number[]>, offset: number): Record<string, number[]> =>
  Object.fromEntries(Object.entries(stamps).map(([id, s]) => [id, s.map((t) => t + offset)]))
