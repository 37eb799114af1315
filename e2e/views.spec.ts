// Screenshots of every main view with realistic data, in light and dark, saved under e2e/artifacts/
// for a person to look at. Each also asserts the view rendered what it is for.
import { expect, test, type Page } from '@playwright/test'
import { shoot } from './support/screens'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { expectAllUnderWay } from './support/app-test'
import { e2eScript } from './support/e2e-model'

let app: BrowserMode

test.use({ viewport: { width: 1600, height: 960 } })

test.afterEach(async () => {
  await app?.close()
})

test('first run, live fan-out, permission, timeline, settings, finished', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: false, speed: 1 })
  await page.goto(app.url)
  await expect(page.getByTestId('first-run')).toBeVisible()
  await shoot(page, '01-first-run')

  await page.getByTestId('first-run-demo').click()
  await expect(page.getByTestId('agent-panel')).toHaveCount(4)
  await expect(page.getByTestId('panel-permission')).toBeVisible({ timeout: 20_000 })
  await shoot(page, '02-live-panels')

  await page.getByTestId('tab-timeline').click()
  await expect(page.getByTestId('timeline-row')).toHaveCount(5)
  await shoot(page, '03-timeline')

  await page.getByTestId('permissions-button').click()
  await expect(page.getByTestId('permission-queue').getByTestId('permission-card')).toHaveCount(1)
  await shoot(page, '04-permission-queue')
  await page.getByTestId('permission-queue').getByTestId('perm-allow').click()
  await page.keyboard.press('Escape')

  await page.getByTestId('tab-panels').click()
  await page.getByTestId('agent-panel').first().getByTestId('panel-maximize').click()
  await expect(page.getByTestId('maximized-panel')).toBeVisible()
  await shoot(page, '05-maximized')
  await page.getByTestId('maximized-panel').getByTestId('panel-maximize').click()

  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 40_000 })
  // The demo's own words as written: none taken for a secret and redacted.
  await expect(page.getByTestId('transcript')).toContainText('This is a scripted demo')
  await expect(page.getByTestId('transcript')).not.toContainText('[REDACTED]')
  await shoot(page, '06-finished')

  // A follow-up gets the scripted demo's own answer; the session does not fail.
  await page.getByTestId('followup').fill('Now list the biggest files')
  await page.getByTestId('followup').press('Enter')
  await expect(page.getByTestId('transcript')).toContainText('You asked: “Now list the biggest files”', { timeout: 20_000 })
  await expect(page.getByTestId('session-summary')).toContainText('Finished')
  await shoot(page, '06b-demo-follow-up')

  await page.getByTestId('open-settings').click()
  await expect(page.getByTestId('settings-dialog')).toBeVisible()
  await shoot(page, '07-settings')
})

test('many agents: 12 and 32 side by side, every one on screen', async ({ page }) => {
  // Two fan-outs, eleven of their agents in new worktrees: minutes, not one, on a loaded machine.
  test.setTimeout(150_000)
  // Every report held until the agents have been counted and pictured: all of them still running then (on a
  // loaded machine the quickest were done before the last had started, leaving the grid).
  let twelveCounted!: () => void
  const twelveHeld = new Promise<void>((r) => (twelveCounted = r))
  app = await startBrowserMode({ hasApiKey: true, speed: 0.4, respond: e2eScript({ speed: 0.4, reportsHeld: twelveHeld }) })
  try {
    await page.goto(app.url)
    await page.getByTestId('new-prompt').fill('Audit every module, fan out to 12')
    await shoot(page, '08-new-session')
    await page.getByTestId('new-prompt-send').click()
    const tiles = page.locator('[data-tile]')
    // Three of the twelve start in new worktrees, which a loaded machine can take seconds to create.
    await expect(tiles).toHaveCount(12, { timeout: 30_000 })
    await expectAllUnderWay(page)
    await shoot(page, '09-twelve-agents')
  } finally {
    twelveCounted()
  }
  await page.getByTestId('new-session').click()
  // Slower pacing for 32, their reports held the same way until the test is over.
  let over!: () => void
  const reportsHeld = new Promise<void>((r) => (over = r))
  await app.restart({ speed: 2, respond: e2eScript({ speed: 2, reportsHeld }) })
  try {
    await thirtyTwo(page)
  } finally {
    over()
  }
})

async function thirtyTwo(page: Page) {
  const tiles = page.locator('[data-tile]')
  await page.goto(app.url)
  await page.getByTestId('new-session').click()
  await page.getByTestId('new-prompt').fill('Audit everything, fan out to 32')
  await page.getByTestId('new-prompt-send').click()
  await expect(tiles).toHaveCount(32, { timeout: 30_000 })
  // All 32 on screen: the overview does not scroll.
  const scroller = page.locator('.overview .panels-scroll')
  expect(await scroller.evaluate((e) => e.scrollHeight - e.clientHeight)).toBeLessThanOrEqual(1)
  for (const tile of await tiles.all()) await expect(tile).toBeInViewport()
  await expectAllUnderWay(page)
  await shoot(page, '10-thirty-two-agents')

  // The person's density: full panels. A panel out of view draws nothing while away; scrolled to, it shows
  // what its agent streamed meanwhile.
  await page.getByTestId('overview-density').selectOption('panels')
  await expect(page.getByTestId('agent-panel')).toHaveCount(32)
  const last = page.getByTestId('agent-panel').last()
  await last.scrollIntoViewIfNeeded()
  await expect(last.locator('.panel-body .markdown').first()).toBeVisible({ timeout: 20_000 })
}
