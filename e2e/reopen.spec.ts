// Reopening a long recorded session: the newest part shows first, the older items join above it, the
// start is reachable by scrolling up, the totals count everything, and the session can go on.
import { expect, test, type Locator } from '@playwright/test'
import { writeBigSession } from '../bench/ui-big-session'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.use({ viewport: { width: 1500, height: 920 } })
test.afterEach(async () => app?.close())

/**
 * Scrolls a transcript to its top until `first` shows (older items may still be arriving), with the wheel as a
 * person does: a scroll no one made by hand leaves the list following its end.
 */
async function scrollToStart(transcript: Locator, first: Locator): Promise<void> {
  await transcript.hover()
  await expect(async () => {
    await transcript.page().mouse.wheel(0, -1_000_000)
    await expect(first).toBeVisible({ timeout: 200 })
  }).toPass({ timeout: 45_000 })
}

test('a long session reopens at its end, reaches its start, counts everything and goes on', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  // 6,000 events: 544 turns of thought, text and a tool call, far more than the first part sent.
  const big = await writeBigSession({ dataDir: app.dataDir, cwd: app.project, events: 6_000, resumable: true })
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  await page.goto(app.url)
  await page.getByTestId('session-item').filter({ hasText: big.title }).click()

  const transcript = page.getByTestId('transcript')
  await expect(transcript).toContainText(big.lastText)
  // Totals are the whole session's even before its older items are in.
  await expect(page.getByTestId('session-summary')).toContainText('544 tool calls')
  const listed = /\$[\d.,]+/.exec((await page.getByTestId('session-item').filter({ hasText: big.title }).innerText()) ?? '')![0]
  await expect(page.getByTestId('session-cost')).toHaveText(listed)

  // Scrolling up reaches the first message; its first tool call is there with its input and output.
  await scrollToStart(transcript, page.getByTestId('user-message').filter({ hasText: 'read every module and check its tests' }))
  await expect(page.getByTestId('transcript-older')).toHaveCount(0)
  await expect(transcript).toContainText('Turn 1.')
  const firstTool = page.getByTestId('tool-row').filter({ hasText: 'export function f1' }).first()
  await firstTool.click()
  await expect(firstTool).toContainText('export function f2(x: number)')
  await shoot(page, 'reopened-long-session-start')

  // The session goes on: a follow-up runs, and its reply lands after everything that was there.
  await page.getByTestId('followup').fill('One more pass, please.')
  await page.getByTestId('followup').press('Enter')
  await transcript.evaluate((el) => (el.scrollTop = el.scrollHeight))
  await expect(transcript).toContainText('Picking up where the long session left off', { timeout: 30_000 })
  await expect(page.getByTestId('session-summary')).toContainText('544 tool calls')
  const text = await transcript.innerText()
  expect(text.indexOf(big.lastText)).toBeLessThan(text.indexOf('One more pass, please.'))
  expect(text.indexOf('One more pass, please.')).toBeLessThan(text.indexOf('Picking up where'))
  expect(problems).toEqual([])
})
