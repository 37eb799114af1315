// Without a sandbox (no bubblewrap), the app says so once in the transcript, as a notice, and the read-only
// command it would have run without asking waits for approval instead, saying why in a few words (the
// sandbox's sentence shows once on a screen).
import { expect, test } from '@playwright/test'
import { reply } from '../src/main/runtime/model/scripted/reply'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.afterEach(async () => app?.close())

for (const width of [1024, 1280, 1920]) {
  test(`the sandbox notice and the approval it leads to (${width} wide)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 })
    app = await startBrowserMode({
      hasApiKey: true,
      sandboxUnavailable: true,
      respond: (req) =>
        req.toolNames.includes('Bash') && req.turn === 0
          ? reply.toolUse('Bash', { command: 'git status --short', description: 'Look at the working tree' })
          : reply.text('Looked at the working tree.')
    })
    await page.goto(app.url)
    await page.getByTestId('new-prompt').fill('What changed?')
    await page.getByTestId('new-prompt-send').click()
    const notice = page.locator('.msg-notice', { hasText: 'The Bash sandbox is unavailable' })
    await expect(notice).toHaveCount(1, { timeout: 30_000 })
    await expect(notice).toContainText('bubblewrap not found at /nonexistent/bwrap')
    await expect(notice).toContainText('ask for approval instead')
    await expect(page.getByTestId('permissions-badge')).toHaveText('1')
    // The sentence shows once on the screen: the approval it leads to says why in a few words.
    await expect(page.getByTestId('permission-reason').first()).toHaveText('Asks because the Bash sandbox is unavailable.')
    await expect(page.getByText('bubblewrap not found at /nonexistent/bwrap')).toHaveCount(1)
    await shoot(page, `sandbox-notice-${width}`)
  })
}
