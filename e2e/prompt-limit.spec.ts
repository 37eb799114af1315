// The prompt box says when a paste is longer than Fanout takes, keeps it to shorten, and sends nothing
// until it fits (a paste of megabytes once closed the browser-mode connection, and with it the process).
import { expect, test } from '@playwright/test'
import { PROMPT_MAX_CHARS } from '../src/shared/ipc-contract'
import { startBrowserMode, type BrowserMode } from './support/fixtures'

let app: BrowserMode

test.afterEach(async () => {
  await app?.close()
})

test('an over-long prompt is named, kept and not sent; shortened, it starts the session', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(app.url)
  const box = page.getByTestId('new-prompt')
  const send = page.getByTestId('new-prompt-send')
  await box.fill('x'.repeat(PROMPT_MAX_CHARS + 1))
  await expect(page.getByTestId('new-prompt-too-long')).toHaveText(
    'This prompt is 500,001 characters; Fanout sends at most 500,000. Shorten it (or put the long part in a file and refer to it) to send.'
  )
  await expect(send).toBeDisabled()
  await expect(box).toHaveAttribute('aria-invalid', 'true')
  await box.press('Enter')
  expect((await app.host.handlers['sessions.list']({ cwd: app.project })).sessions).toHaveLength(0)
  await box.press('End')
  await box.press('Backspace')
  await expect(page.getByTestId('new-prompt-too-long')).toBeHidden()
  await expect(page.getByTestId('new-prompt-length')).toHaveText('500,000 of 500,000 characters')
  await box.fill('Review the parser.')
  await send.click()
  await expect(page.getByTestId('followup')).toBeVisible({ timeout: 20_000 })
})
