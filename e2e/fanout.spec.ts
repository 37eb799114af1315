// The user's path through browser mode: a prompt fans out into four subagents side by side, one is
// stopped mid-run, one asks permission and is approved, all finish, the summary shows, and the
// session reopens after the server restarts.
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { startWebServer } from '../src/main/web/server'
import { startBrowserMode, type BrowserMode } from './support/fixtures'

let app: BrowserMode
test.use({ viewport: { width: 1500, height: 920 } })
test.afterEach(async () => app?.close())

test('fan-out: stream, stop one, approve one, finish, reopen after restart', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  const problems: string[] = []
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
  page.on('pageerror', (e) => problems.push(e.message))
  await page.goto(app.url)
  await expect(page.getByTestId('connection')).toHaveText(/Connected/)

  await page.getByTestId('new-prompt').fill('Review the parser: map it, review lexer errors, run its tests, and check the docs')
  await page.getByTestId('new-prompt-send').click()

  // Four subagents appear side by side, each in its own panel.
  const panels = page.getByTestId('agent-panel')
  await expect(panels).toHaveCount(4, { timeout: 20_000 })
  const boxes = await Promise.all([0, 1].map((i) => panels.nth(i).boundingBox()))
  expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x + boxes[0]!.width - 1) // next to each other, not stacked

  // They stream: a panel's text grows while it runs.
  const reviewer = page.locator('[data-testid=agent-panel]', { hasText: 'code-reviewer' })
  const before = (await reviewer.locator('.panel-body').innerText()).length
  await expect.poll(async () => (await reviewer.locator('.panel-body').innerText()).length).toBeGreaterThan(before)

  // Stop the reviewer mid-run.
  await expect(reviewer).toHaveAttribute('data-status', 'running')
  await reviewer.getByTestId('panel-stop').click()
  const stoppedRow = page.locator('[data-testid=finished-row]', { hasText: 'code-reviewer' })
  await expect(stoppedRow).toContainText('Stopped')

  // One asks permission; the badge counts it; approve it on the panel.
  const asking = page.locator('[data-testid=agent-panel]', { has: page.getByTestId('panel-permission') })
  await expect(asking).toHaveCount(1, { timeout: 20_000 })
  await expect(page.getByTestId('permissions-badge')).toHaveText('1')
  await expect(asking.getByTestId('panel-permission')).toContainText('npm test')
  await asking.getByTestId('perm-allow').click()
  await expect(page.getByTestId('permissions-badge')).toHaveCount(0)

  // All finish; the summary shows, naming the stopped agent.
  const summary = page.getByTestId('session-summary')
  await expect(summary).toBeVisible({ timeout: 40_000 })
  await expect(summary).toContainText('4 subagents')
  await expect(page.getByTestId('transcript')).toContainText('Summary')
  await expect(page.getByTestId('transcript')).toContainText('stopped before finishing')
  await expect(page.getByTestId('session-item').first()).toContainText('5 agents')

  // Restart the server (new process state, new token): the session reopens from its transcripts.
  await app.restart()
  await page.goto(app.url)
  await expect(page.getByTestId('session-item')).toHaveCount(1)
  await page.getByTestId('session-item').first().click()
  await expect(page.getByTestId('session-summary')).toContainText('4 subagents')
  await expect(page.getByTestId('agent-panel')).toHaveCount(4) // all finished: every panel back in the grid
  await expect(page.locator('[data-testid=agent-panel][data-status=stopped]')).toContainText('code-reviewer')
  await expect(page.locator('[data-testid=agent-panel][data-status=completed]')).toHaveCount(3)
  // No script errors and no CSP violations along the way.
  expect(problems).toEqual([])
})

test('the page refuses to work without this launch’s token', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  await page.goto(app.url.replace(/#token=.*/, ''))
  await expect(page.getByTestId('unauthorized')).toContainText('without its access token')
  await page.goto('about:blank')
  await page.goto(app.url.replace(/#token=.*/, '#token=' + 'a'.repeat(64)))
  await expect(page.getByTestId('unauthorized')).toContainText('refused', { timeout: 15_000 })
})

test('a page from before a restart says so and to open the new address, instead of reconnecting forever', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  await page.goto(app.url)
  await expect(page.getByTestId('connection')).toHaveText(/Connected/)
  const port = Number(new URL(app.url).port)
  await app.server.close()
  await expect(page.getByTestId('connection')).toHaveText(/reconnecting/)
  // What could not be done is said in the person's words.
  await page.getByTestId('new-prompt').fill('Map the parser')
  await page.getByTestId('new-prompt-send').click()
  await expect(page.getByText('Could not start the session: not connected to Fanout.')).toBeVisible()
  // Fanout starts again at the same address, with a new token: the page stops and says what to do.
  const restarted = await startWebServer({ host: app.host, rendererDir: join(process.cwd(), 'out/renderer'), port })
  try {
    await expect(page.getByTestId('unauthorized')).toContainText('Fanout was restarted', { timeout: 15_000 })
  } finally {
    await restarted.close()
  }
})

test('first run: the key is write-only and never comes back to the page', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: false })
  await page.goto(app.url)
  await expect(page.getByTestId('first-run')).toBeVisible()
  await expect(page.getByTestId('first-run')).toContainText('scripted')
  const key = 'sk-ant-api03-e2e-secret-key-0123456789'
  await page.getByTestId('api-key-input').fill(key)
  await page.getByTestId('api-key-save').click()
  await expect(page.getByTestId('first-run')).toHaveCount(0)
  await page.getByTestId('open-settings').click()
  await expect(page.getByTestId('settings-dialog')).toContainText('A key is stored')
  await expect(page.getByTestId('api-key-input')).toHaveValue('')
  expect(await page.content()).not.toContain(key)
})

test('settings: a bad value is refused with a sentence saying which field', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  await page.goto(app.url)
  await page.getByTestId('open-settings').click()
  await page.getByTestId('setting-baseUrl').fill('ftp://example.com')
  await page.getByTestId('settings-save').click()
  await expect(page.getByTestId('settings-dialog').getByRole('alert')).toContainText('baseUrl: must be an http:// or https:// URL')
  await page.getByTestId('setting-baseUrl').fill('http://127.0.0.1:8080')
  await page.getByTestId('setting-maxConcurrentAgents').fill('4')
  await page.getByTestId('settings-save').click()
  await expect(page.getByTestId('settings-dialog')).toContainText('Saved.')
})
