// "Always allow" says which rule it adds and answers every waiting request that rule covers; several
// alike requests can be allowed once together.
import { expect, test } from '@playwright/test'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.use({ viewport: { width: 1280, height: 800 } })
test.afterEach(async () => app?.close())

test('permission queue: the rule Always allow adds, applied to the alike requests waiting', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  await page.goto(app.url)
  // Eight agents: two test-writers each ask to run `npm test`.
  await page.getByTestId('new-prompt').fill('Check everything, fan out to 8')
  await page.getByTestId('new-prompt-send').click()
  await expect(page.getByTestId('permissions-badge')).toHaveText('2', { timeout: 30_000 })
  await page.getByTestId('permissions-button').click()
  const queue = page.getByTestId('permission-queue')
  const cards = queue.getByTestId('permission-card')
  await expect(cards).toHaveCount(2)
  await expect(cards.first().getByTestId('perm-always')).toHaveText('Always allow Bash(npm test:*)')
  await expect(cards.first().getByTestId('perm-rule-note')).toHaveText('“Always allow” adds the rule Bash(npm test:*) for the rest of this session and allows the 1 other waiting request it covers.')
  await expect(cards.first().getByTestId('perm-allow-like')).toHaveText('Allow all 2 like this')
  await shoot(page, 'perm-queue-always')

  await cards.first().getByTestId('perm-always').click()
  await expect(cards).toHaveCount(0)
  await expect(queue).toContainText('Nothing is waiting for your approval.')
  await expect(page.getByTestId('permissions-badge')).toHaveCount(0)
})
