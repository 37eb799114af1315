// The first-run key: a key that does not look like an Anthropic one is saved only once confirmed (a
// gateway's token can look like anything), the page says it was saved, and offers Test connection before
// going on.
import { existsSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { reply, startScriptedServer } from '../src/main/runtime/model/scripted'
import { credentialsPath } from '../src/main/runtime/store'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.use({ viewport: { width: 1280, height: 800 } })
test.afterEach(async () => app?.close())

const GOOD_KEY = 'sk-ant-api03-first-run-0123456789abcdefghijklmnopqrstuvwxyz'

test('first run: confirm an odd key, see it saved, test the connection, then go on', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: false })
  const server = await startScriptedServer({ respond: () => reply.text('unused'), apiKey: GOOD_KEY })
  try {
    await app.host.handlers['settings.update']({ baseUrl: server.url }) // the saved endpoint the test goes to
    await page.goto(app.url)
    const firstRun = page.getByTestId('first-run')
    const save = page.getByTestId('api-key-save')

    // "abc": warned, and the first Save asks rather than saves.
    await page.getByTestId('api-key-input').fill('abc')
    await expect(page.getByTestId('api-key-check')).toContainText('does not look like an Anthropic API key')
    await save.click()
    await expect(save).toHaveText('Save anyway')
    await expect(page.getByTestId('api-key-check')).toContainText('Save it anyway')
    expect(existsSync(credentialsPath(app.dataDir))).toBe(false)
    await shoot(page, 'first-run-confirm')
    await save.click()

    // Saved, said so, and the page stays for a test.
    const saved = page.getByTestId('first-run-key-saved')
    await expect(saved).toContainText('Key saved')
    expect(existsSync(credentialsPath(app.dataDir))).toBe(true)
    await expect(firstRun).toBeVisible()
    await expect(page.getByTestId('first-run-skip')).toHaveCount(0) // Continue is the way on
    const result = page.getByTestId('connection-result')
    await page.getByTestId('test-connection').click()
    await expect(result).toContainText(`${server.url} answered but refused the key (401).`)
    await expect(result).toContainText('Check that the key is right, or use a different one.')
    await shoot(page, 'first-run-refused')

    // Another key: the old answer goes with the old key.
    await page.getByTestId('first-run-other-key').click()
    await page.getByTestId('api-key-input').fill(GOOD_KEY)
    await expect(page.getByTestId('api-key-check')).toHaveCount(0)
    await page.getByTestId('api-key-save').click() // a key of the usual form: saved at once
    await expect(saved).toContainText('Key saved')
    await expect(result).toHaveCount(0)
    await page.getByTestId('test-connection').click()
    await expect(result).toHaveText(`Connected: ${server.url} answered and offers 3 models.`)
    await shoot(page, 'first-run-tested')

    await page.getByTestId('first-run-continue').click()
    await expect(firstRun).toHaveCount(0)
    await expect(page.getByTestId('new-prompt')).toBeVisible()
  } finally {
    await server.close()
  }
})
