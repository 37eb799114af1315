// A main agent that ends its turn on a question waits on the person as surely as a permission request does:
// the session's header and its row in the sidebar say so ("Asks you"), and answering takes the badge away.
import { expect, test } from '@playwright/test'
import { reply } from '../src/main/runtime/model/scripted'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.afterEach(async () => app?.close())

test('a main agent that ends on a question gets an "Asks you" badge on its header and row, gone once answered', async ({ page }) => {
  let asked = 0
  app = await startBrowserMode({
    hasApiKey: true,
    respond: () => (asked++ === 0 ? reply.text('I found two parsers.\n\nWhich one should I keep, the old or the new?') : reply.text('Keeping the new one.'))
  })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Tidy up the parsers.')
  await page.getByTestId('new-prompt-send').click()

  await expect(page.getByTestId('header-question')).toHaveText('Asks you', { timeout: 30_000 })
  await expect(page.getByTestId('session-question')).toHaveText('asks you')
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: width === 1920 ? 1080 : 800 })
    await shoot(page, `asks-you-${width}`)
  }
  // The badge takes the person to where they answer.
  await page.getByTestId('header-question').click()
  await expect(page.getByTestId('followup')).toBeFocused()
  await page.getByTestId('followup').fill('The new one.')
  await page.getByTestId('followup').press('Enter')
  await expect(page.getByTestId('assistant-text').filter({ hasText: 'Keeping the new one.' })).toHaveCount(1, { timeout: 30_000 })
  await expect(page.getByTestId('header-question')).toHaveCount(0)
  await expect(page.getByTestId('session-question')).toHaveCount(0)
})
