// Effort in the app: the new-session form's effort picker beside agent, model and permissions (one row, no
// overflow at 1024), the choice carried into the session, and the default effort in Settings. Screenshots go
// to e2e/artifacts/screens/effort-*.png.
import { expect, test } from '@playwright/test'
import { reply } from '../src/main/runtime/model/scripted'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.afterEach(async () => app?.close())

test('the new-session form offers effort levels; Settings keeps a default effort', async ({ page }) => {
  const sent: unknown[] = []
  app = await startBrowserMode({
    hasApiKey: true,
    respond: (req) => {
      sent.push(req.body.output_config)
      return reply.text('Done.')
    }
  })
  for (const size of [
    { width: 1024, height: 700 },
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 }
  ]) {
    await page.setViewportSize(size)
    await page.goto(app.url)
    const effort = page.getByTestId('new-effort')
    await expect(effort).toBeVisible()
    expect(await effort.evaluate((el) => Array.from((el as unknown as { options: ArrayLike<{ text: string }> }).options, (o) => o.text))).toEqual([
      'Effort: default',
      'Low effort',
      'Medium effort',
      'High effort',
      'Extra high effort',
      'Max effort'
    ])
    // The pickers stay inside the prompt box.
    const box = await page.locator('.new-session-inner').boundingBox()
    for (const select of await page.locator('.new-session .select-inline').all()) {
      const b = (await select.boundingBox())!
      expect(b.x + b.width).toBeLessThanOrEqual(box!.x + box!.width + 1)
    }
    await effort.selectOption('xhigh')
    await shoot(page, `effort-new-session-${size.width}`)
  }
  // The choice reaches the model with the session's first request.
  await page.getByTestId('new-prompt').fill('Say done')
  await page.getByTestId('new-prompt-send').click()
  await expect.poll(() => sent.length).toBeGreaterThan(0)
  expect(sent[0]).toEqual({ effort: 'xhigh' })

  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(app.url)
  await page.getByText('Settings', { exact: true }).click()
  const setting = page.getByTestId('setting-defaultEffort')
  await expect(setting).toBeVisible()
  await setting.selectOption('high')
  await page.getByTestId('settings-save').click()
  await expect(page.getByText('Saved.')).toBeVisible()
  await shoot(page, 'effort-settings-1280')
  expect((await app.host.handlers['settings.get']({})).settings.defaultEffort).toBe('high')
  await page.keyboard.press('Escape')
  // A new session starts at the saved default.
  await page.getByRole('button', { name: 'New session' }).click()
  await expect
    .poll(() => page.getByTestId('new-effort').evaluate((el) => (el as unknown as { options: ArrayLike<{ text: string }> }).options[0].text))
    .toBe('Effort: high')
})
