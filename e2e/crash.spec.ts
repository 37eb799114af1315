// A session cut off by a crash: reopened, nothing claims to run; its agents read as interrupted, the
// counts agree, and Resume lets them finish. And Stop on a session another process still writes.
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.use({ viewport: { width: 1500, height: 920 } })
test.afterEach(async () => app?.close())

/** Starts a two-agent fan-out and copies its data mid-run; returns the copy's session id and folder. */
async function copyMidRun(page: Page, app: BrowserMode): Promise<{ sessionId: string; copy: string }> {
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Crash test, fan out to 2')
  await page.getByTestId('new-prompt-send').click()
  const reviewer = page.locator('[data-testid=agent-panel]', { hasText: 'code-reviewer' })
  await expect(reviewer).toHaveAttribute('data-status', 'running', { timeout: 20_000 })
  const [{ sessionId }] = (await app.host.listSessions({})).sessions
  await app.host.openSession({ sessionId }) // writes out what the live session holds
  const copy = join(app.root, 'copied-data')
  cpSync(app.dataDir, copy, { recursive: true })
  return { sessionId, copy }
}

test('a session a crash cut off reopens as interrupted and resumes', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  const reviewer = page.locator('[data-testid=agent-panel]', { hasText: 'code-reviewer' })
  // The crash: what is on disk now, under a writer that is gone, is all the next launch gets.
  const { sessionId, copy: crashed } = await copyMidRun(page, app)
  const indexFile = join(crashed, 'sessions', sessionId, 'session.json')
  writeFileSync(indexFile, JSON.stringify({ ...JSON.parse(readFileSync(indexFile, 'utf8')), writer: { pid: 99_999_999, hostname: hostname() } }))
  await app.restart({ dataDir: crashed })

  await page.goto(app.url)
  const item = page.getByTestId('session-item').first()
  await item.click()
  await expect(reviewer).toHaveAttribute('data-status', 'interrupted')
  await expect(page.locator('[data-testid=agent-panel][data-status=running]')).toHaveCount(0)
  await expect(page.getByTestId('session-summary')).toContainText('Interrupted after')
  await expect(page.getByTestId('session-still-working')).toHaveCount(0)
  await expect(page.getByTestId('stop-session')).toHaveCount(0)
  // Every view counts the subagents (the main agent is not among them), in the same words.
  await expect(item).toContainText('2 subagents')
  await expect(page.getByTestId('header-agent-count')).toHaveText('2 subagents')
  await expect(page.locator('.status-bar')).toContainText('2 subagents')
  await expect(page.getByTestId('status-count-interrupted')).toHaveText('2 interrupted')
  await expect(page.getByTestId('interrupted-bar')).toContainText('Fanout stopped while')
  await shoot(page, 'crash-reopened')

  await page.getByTestId('resume-interrupted').click()
  await expect(page.getByTestId('interrupted-bar')).toHaveCount(0, { timeout: 45_000 })
  await expect(page.getByTestId('session-summary')).toContainText('Finished', { timeout: 40_000 })
  await expect(page.locator('[data-testid=agent-panel][data-status=interrupted]')).toHaveCount(0)
  await expect(page.getByTestId('header-agent-count')).toHaveText('2 subagents')
  expect(problems).toEqual([])
})

test('Stop on a session another process still writes says why under the bar, at full width', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  // The copy names this process as its writer, which is alive: the session runs, but not in this window.
  const { copy } = await copyMidRun(page, app)
  await app.restart({ dataDir: copy })
  await page.goto(app.url)
  await page.getByTestId('session-item').first().click()
  await page.getByTestId('stop-session').click()
  const error = page.getByTestId('stop-error')
  await expect(error).toContainText('nothing to stop here')
  const bar = (await page.locator('.running-bar').boundingBox())!
  const bottom = (await page.locator('.conversation-bottom').boundingBox())!
  const box = (await error.boundingBox())!
  expect(bar.height).toBeLessThan(40) // the bar keeps its one line
  expect(box.width).toBeGreaterThan(bottom.width - 40) // the sentence has the width of the pane
  await shoot(page, 'stop-error')
})
