// The built-ins typed in the prompt box (/cost, /help…) are answered in the app as cards of their own, with no
// model call; a session that ended on a question still says "Asks you" on its row after a restart; the usage
// table opens from the palette. Screenshots: e2e/artifacts/screens/builtins-*.png (1024, 1280, 1920, light and dark).
import { expect, test } from '@playwright/test'
import { reply } from '../src/main/runtime/model/scripted'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.afterEach(async () => app?.close())

const mod = process.platform === 'darwin' ? 'Meta' : 'Control'

test('built-ins answered in the app, "Asks you" after a restart, usage by agent from the palette', async ({ page }) => {
  test.setTimeout(120_000)
  let calls = 0
  app = await startBrowserMode({
    hasApiKey: true,
    respond: () => (calls++, reply.text('I found two parsers.\n\nWhich one should I keep, the old or the new?'))
  })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Tidy up the parsers.')
  await page.getByTestId('new-prompt-send').click()
  await expect(page.getByTestId('header-question')).toHaveText('Asks you', { timeout: 30_000 })

  // After a restart the row says so from what was recorded, before the session is opened.
  await app.restart()
  await page.goto(app.url)
  await expect(page.getByTestId('session-question')).toHaveText('asks you', { timeout: 30_000 })

  await page.getByTestId('session-item').first().click()
  const followup = page.getByTestId('followup')
  const before = calls
  for (const typed of ['/cost', '/help']) {
    await followup.fill(typed)
    await followup.press('Enter')
    // Enter on the open / menu takes its choice (the same command) first; the next sends it.
    if (await followup.inputValue()) await followup.press('Enter')
    await expect(page.getByTestId('command-output').filter({ hasText: typed })).toHaveCount(1, { timeout: 30_000 })
  }
  await expect(page.getByTestId('command-output').first()).toContainText('Estimated cost:')
  await expect(page.getByTestId('command-output').nth(1)).toContainText('/context')
  await expect(page.getByTestId('command-output').first()).toContainText('not sent to the model')
  expect(calls).toBe(before)
  // The / menu lists them.
  await followup.fill('/co')
  await expect(page.getByTestId('prompt-menu-item').filter({ hasText: '/cost' })).toHaveCount(1)
  await shoot(page, 'builtins-slash-menu')
  await followup.fill('')

  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: width === 1920 ? 1080 : 800 })
    await shoot(page, `builtins-${width}`)
  }

  // The usage table from the palette.
  await page.keyboard.press(`${mod}+k`)
  await page.getByTestId('palette-input').fill('Usage by agent')
  await expect(page.getByTestId('palette-item').first()).toHaveAttribute('data-command', 'session.usage')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('usage-dialog')).toBeVisible()
  await shoot(page, 'builtins-usage-dialog')
})
