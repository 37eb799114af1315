// Waits for the page to be still, instead of for a fixed time: fonts loaded, two frames drawn (a resize or
// a colour-scheme change laid out and its transitions begun), then every finite animation and CSS
// transition under way at that moment finished, and one more frame painted. Endless animations (a running
// agent's pulse, a spinner) never finish and are not waited for; nor are those a live run starts later.
import type { Page } from '@playwright/test'

// A string, run in the page (the e2e code is type-checked without the DOM's types).
const STILL = `(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()))
  await document.fonts.ready
  await frame()
  await frame()
  const moving = document.getAnimations().filter((a) => a.playState === 'running' && a.effect && a.effect.getComputedTiming().endTime !== Infinity)
  await Promise.allSettled(moving.map((a) => a.finished))
  await frame()
})()`

export async function settle(page: Page): Promise<void> {
  await page.evaluate(STILL)
}

/** Resizes the viewport and waits until the page has laid itself out at the new size. */
export async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size)
  await settle(page)
}
