// Waits for the page to be still, instead of for a fixed time: fonts loaded, two frames drawn (a resize or
// a colour-scheme change laid out and painted), and every finite animation and CSS transition finished —
// checked again until a pass starts none (a transition's end can start another). Endless animations (a
// running agent's pulse, a spinner) never finish and are not waited for.
import type { Page } from '@playwright/test'
import { expect } from '@playwright/test'

// A string, run in the page (the e2e code is type-checked without the DOM's types).
const STILL = `(async () => {
  await document.fonts.ready
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
  const moving = document.getAnimations().filter((a) => a.playState === 'running' && a.effect && a.effect.getComputedTiming().endTime !== Infinity)
  await Promise.allSettled(moving.map((a) => a.finished))
  return moving.length
})()`

export async function settle(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate<number>(STILL), { message: 'the page stops moving' }).toBe(0)
}

/** Resizes the viewport and waits until the page has laid itself out at the new size. */
export async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size)
  await settle(page)
}
