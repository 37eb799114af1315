// A session cut off by a crash: reopened, nothing claims to run; its agents read as interrupted, the
// counts agree, and Resume lets them finish. (A session another process runs: session-owner.spec.ts.)
import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { markWriterDead } from '../src/main/runtime/store/test-fixtures'
import type { Page } from '@playwright/test'
import { expect, test, sendPrompt, watchProblems } from './support/app-test'
import type { BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'
import { e2eScript } from './support/e2e-model'

let app: BrowserMode
test.use({ viewport: { width: 1500, height: 920 } })

/**
 * Starts a two-agent fan-out and copies its data mid-run, both agents working (their reports wait for the
 * copy: the quick Explore would otherwise be done first on some runs); returns the copy's session id and folder.
 */
async function copyMidRun(page: Page, app: BrowserMode, copied: () => void): Promise<{ sessionId: string; copy: string }> {
  await sendPrompt(page, 'Crash test, fan out to 2')
  const reviewer = page.locator('[data-testid=agent-panel]', { hasText: 'code-reviewer' })
  await expect(reviewer).toHaveAttribute('data-status', 'running', { timeout: 20_000 })
  await expect(page.locator('[data-testid=agent-panel][data-status=running]')).toHaveCount(2)
  const [{ sessionId }] = (await app.host.handlers['sessions.list']({})).sessions
  await app.host.handlers['sessions.open']({ sessionId }) // writes out what the live session holds
  const copy = join(app.root, 'copied-data')
  cpSync(app.dataDir, copy, { recursive: true })
  copied()
  return { sessionId, copy }
}

test('a session a crash cut off reopens as interrupted and resumes', async ({ page, openApp }) => {
  const problems = watchProblems(page)
  let copied!: () => void
  const reportsHeld = new Promise<void>((r) => (copied = r))
  app = await openApp({ respond: e2eScript({ speed: 0.5, reportsHeld }) })
  const reviewer = page.locator('[data-testid=agent-panel]', { hasText: 'code-reviewer' })
  // The crash: what is on disk now, under a writer that is gone, is all the next launch gets.
  const { sessionId, copy: crashed } = await copyMidRun(page, app, copied)
  await markWriterDead(crashed, sessionId)
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
