// The spec's `test`, with what nearly every spec did by hand: `openApp` boots browser mode (a key stored
// unless told otherwise), opens the page and, given a prompt, sends it; every app it opened is closed after
// the test. `watchProblems` collects the page's uncaught errors (and, if asked, console errors).
import { expect, test as base, type Page } from '@playwright/test'
import { startBrowserMode, type BrowserMode } from './fixtures'
import type { E2eHostOptions } from './host-factory'

export interface OpenOptions extends Partial<E2eHostOptions> {
  viewport?: { width: number; height: number }
  /** Runs before the page opens (files the app must find at its first look). */
  before?: (app: BrowserMode) => void | Promise<void>
  /** Opens the page at the app's address (with its token); false leaves that to the test. */
  open?: boolean
  /** Waits until the page says it is connected. */
  connected?: boolean
  /** Sent from the new-session page once it is open. */
  prompt?: string
}

export type OpenApp = (opts?: OpenOptions) => Promise<BrowserMode>

export const test = base.extend<{ openApp: OpenApp }>({
  openApp: async ({ page }, use) => {
    const opened: BrowserMode[] = []
    await use(async ({ viewport, before, open = true, connected, prompt, ...host } = {}) => {
      const app = await startBrowserMode({ hasApiKey: true, ...host })
      opened.push(app)
      if (viewport) await page.setViewportSize(viewport)
      await before?.(app)
      if (open) await page.goto(app.url)
      if (connected) await expect(page.getByTestId('connection')).toHaveText(/Connected/)
      if (prompt !== undefined) await sendPrompt(page, prompt)
      return app
    })
    for (const app of opened.reverse()) await app.close()
  }
})

export { expect }

/** Types a prompt into the new-session box and sends it. */
export async function sendPrompt(page: Page, prompt: string): Promise<void> {
  await page.getByTestId('new-prompt').fill(prompt)
  await page.getByTestId('new-prompt-send').click()
}

export { watchProblems } from './page-problems'

/** Waits for the Permissions button to count `n` requests, and opens the queue if asked. */
export async function expectWaiting(page: Page, n: number, { open = false } = {}): Promise<void> {
  await expect(page.getByTestId('permissions-badge')).toHaveText(String(n), { timeout: 30_000 })
  if (open) await page.getByTestId('permissions-button').click()
}

/** The one agent that asks (the test-writer's `npm test`) is allowed; the run then finishes. */
export async function allowTheOneAsking(page: Page, { asking = 30_000, finish = 40_000 } = {}): Promise<void> {
  const panel = page.locator('[data-testid=agent-panel]', { has: page.getByTestId('panel-permission') })
  await expect(panel).toHaveCount(1, { timeout: asking })
  await panel.getByTestId('perm-allow').click()
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: finish })
}

/**
 * Waits until no agent in the grid is still starting, queued or waiting for its first words: each shows what
 * it streamed, a tool, a request or its result (a tile's activity line, a panel's text or tool rows).
 */
export async function expectAllUnderWay(page: Page): Promise<void> {
  const underWay = page.locator(
    '.tile-now-text, .tile-now-tool, .tile-now-permission, .tile-now-result, .panel-body .markdown, .panel-body [data-testid=tool-row]'
  )
  await expect(page.locator('[data-tile]').filter({ hasNot: underWay })).toHaveCount(0, { timeout: 30_000 })
}
