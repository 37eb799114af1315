// The sidebar's times: newest session on top, and "just now" becomes "2 min ago" as time passes, with the
// page left open (the page's clock is Playwright's, moved on by hand; the host's is real).
import { expect, test } from '@playwright/test'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.use({ viewport: { width: 1280, height: 800 } })
test.afterEach(async () => app?.close())

test('sidebar: newest activity first, and relative times move on without a reload', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  await page.clock.install()
  await page.goto(app.url)
  const items = page.getByTestId('session-item')
  for (const prompt of ['First task, fan out to 0', 'Second task, fan out to 0']) {
    await page.getByTestId('new-session').click()
    await page.getByTestId('new-prompt').fill(prompt)
    await page.getByTestId('new-prompt-send').click()
    await expect(page.getByTestId('session-item').filter({ hasText: prompt })).toHaveAttribute('title', /\nDone/, { timeout: 45_000 })
  }
  await expect(items.nth(0)).toContainText('Second task')
  await expect(items.nth(1)).toContainText('First task')
  await expect(items.nth(0)).toContainText('just now')

  await page.reload()
  await expect(items.nth(0)).toContainText('Second task')
  await expect(items.nth(1)).toContainText('First task')

  // Two minutes after each session's last activity (the host's clock), its label says so. Each is timed
  // from its own moment: the second session took as long as the machine let it, so one shared jump of two
  // minutes could read "3 min ago" for the first (a label is rounded to the nearest minute).
  const updatedAt = async (i: number) => Date.parse((await items.nth(i).locator('time').getAttribute('datetime'))!)
  const [second, first] = [await updatedAt(0), await updatedAt(1)]
  await page.clock.pauseAt(first + 120_000)
  await expect(items.nth(1)).toContainText('2 min ago')
  await page.clock.pauseAt(second + 120_000)
  await expect(items.nth(0)).toContainText('2 min ago')
  await page.clock.resume() // (a paused clock draws no frames: the screenshot waits for some)
  await page.clock.fastForward('01:00:00')
  await expect(items.nth(0)).toContainText('1 h ago')
  await shoot(page, 'sidebar-times')
})
