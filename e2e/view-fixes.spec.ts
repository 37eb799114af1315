// The session view at the widths people use (1024, 1280, 1920) with a dozen agents: the grid uses the
// width, every count agrees, a message to a running agent shows in its panel without cutting its text,
// Escape leaves a maximized panel, the finished grid shows every panel and the one named, and the
// timeline's labels fit a narrow pane. Screenshots go to e2e/artifacts/screens/fix-*.png.
import { expect, test, type Locator, type Page } from '@playwright/test'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { expectAllUnderWay } from './support/app-test'
import { resize, settle } from './support/settle'

let app: BrowserMode
test.use({ viewport: { width: 1280, height: 800 } })
test.afterEach(async () => app?.close())

/** A screenshot once the page is still (a highlight faded in, a resize laid out). */
const snap = async (page: Page, name: string) => {
  await settle(page)
  await page.screenshot({ path: `e2e/artifacts/screens/fix-${name}.png` })
}

/** How many columns the panels sit in: their distinct left edges. */
async function columns(panels: Locator): Promise<number> {
  const boxes = await panels.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)))
  return new Set(boxes).size
}

/** The count words of the tab strip and of the status bar: the same words, read from one count. */
async function countWords(page: Page): Promise<{ tab: string[]; bar: string[] }> {
  const words = (sel: string) => page.locator(sel).evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? ''))
  return { tab: await words('[data-testid^=tab-count-]'), bar: await words('[data-testid^=status-count-]') }
}

test('twelve agents at 1280, 1024 and 1920: grid, counts, a message, maximize, finished grid, timeline', async ({ page }) => {
  test.setTimeout(180_000)
  app = await startBrowserMode({ hasApiKey: true, speed: 0.4 })
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  // Full panels whatever their number (the person's choice of density): this test is about the panels.
  await page.addInitScript("localStorage.setItem('fanout.overviewDensity', 'panels')")
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Audit every module, fan out to 12')
  await page.getByTestId('new-prompt-send').click()

  const panels = page.getByTestId('agent-panel')
  await expect(panels).toHaveCount(12, { timeout: 30_000 })
  expect(await columns(panels)).toBe(2)
  await expect(page.getByTestId('tab-count-running')).toHaveText('12 running')
  await expect(page.getByTestId('status-count-running')).toHaveText('12 running')
  await expectAllUnderWay(page)
  await snap(page, '1280-twelve-running')
  // A panel scrolled down fades the line cut at its top; one at its top does not.
  const fades = () =>
    page.$$eval('.panel-body', (bodies) =>
      bodies.map((b) => ({
        scrolled: (b.querySelector('.panel-scroll')?.scrollTop ?? 0) > 2,
        fade: b.ownerDocument.defaultView!.getComputedStyle(b, '::after').opacity
      }))
    )
  await expect.poll(async () => (await fades()).some((f) => f.scrolled), { timeout: 20_000 }).toBe(true)
  // (Polled: a scroll reaches the page as an event a moment after the scroller moved.)
  await expect.poll(async () => (await fades()).every((f) => f.fade === (f.scrolled ? '1' : '0'))).toBe(true)

  // The splitter gives the agents pane more room, stops where the conversation would be too narrow,
  // and a double-click restores the split.
  const splitter = page.getByTestId('splitter')
  const paneWidth = async () => (await page.locator('.right-pane').boundingBox())!.width
  const before = await paneWidth()
  const at = (await splitter.boundingBox())!
  await page.mouse.move(at.x + 1, at.y + 300)
  await page.mouse.down()
  await page.mouse.move(at.x - 200, at.y + 300, { steps: 4 })
  await page.mouse.up()
  await expect.poll(paneWidth).toBeGreaterThan(before + 40)
  expect((await page.locator('.conversation').boundingBox())!.width).toBeGreaterThanOrEqual(319)
  await snap(page, '1280-splitter-wider-agents')
  const moved = (await splitter.boundingBox())!
  await page.mouse.dblclick(moved.x, moved.y + 300) // the handle is a hairline with a wider grip
  await expect.poll(paneWidth).toBe(before)

  // A message to the slow reviewer while it streams: an inbox row in its panel, its text left whole.
  const reviewer = panels.filter({ hasText: 'Review error handling' }).first()
  await expect(reviewer.locator('.panel-body')).toContainText('Reading the lexer', { timeout: 20_000 })
  await reviewer.getByTestId('panel-message').click()
  await reviewer.getByTestId('panel-message-input').fill('Also check the parser.')
  await reviewer.getByTestId('panel-message-input').press('Enter')
  await expect(reviewer.getByTestId('user-message')).toContainText('Also check the parser.')
  await expect(reviewer.locator('.panel-body')).toContainText('Splitting on whitespace loses positions entirely.', { timeout: 30_000 })
  await expect(reviewer.locator('.panel-body')).not.toContainText('<agent-message')
  await snap(page, '1280-message-in-panel')

  // Maximize it, then Escape goes back to the grid.
  await reviewer.getByTestId('panel-maximize').click()
  await expect(page.getByTestId('maximized-panel')).toBeVisible()
  await expect(page.getByTestId('maximized-panel').getByTestId('user-message').filter({ hasText: 'Also check the parser.' })).toHaveCount(1)
  // An expanded tool call labels its output 'Output · 8 ms', in sentence case, not 'OUTPUT · 8 MS'.
  const read = page.getByTestId('maximized-panel').locator('[data-testid=tool-row][data-tool=Read]').first()
  await read.locator('.tool-head').click()
  const label = read.locator('.tool-section-label', { hasText: 'Output' })
  await expect(label).toHaveText(/^Output · \d+ (ms|s)$/)
  expect(await label.evaluate((e) => e.ownerDocument.defaultView!.getComputedStyle(e).textTransform)).toBe('none')
  await snap(page, '1280-maximized')
  // The header's corner: its middle now holds buttons (the cost opens the usage table).
  await page.locator('.session-header').click({ position: { x: 4, y: 4 } })
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('maximized-panel')).toHaveCount(0)

  // The test-writers wait for permission: counted as waiting, not running, the same in both places.
  await expect(page.getByTestId('tab-count-waiting')).toContainText('waiting for permission', { timeout: 30_000 })
  const waiting = await countWords(page)
  expect(waiting.tab).toEqual(waiting.bar)
  // The toast announcing the requests keeps off the prompt box and the panels' Allow buttons.
  const toast = page.locator('.toast').first()
  if (await toast.isVisible()) {
    const t = (await toast.boundingBox())!
    const session = (await page.locator('.session-body').boundingBox())!
    expect(t.x + t.width).toBeLessThanOrEqual(session.x)
  }
  await snap(page, '1280-waiting')
  await page.getByTestId('permissions-button').click()
  const queue = page.getByTestId('permission-queue')
  // Allow each until none is left; a request answered a moment ago may still be on its way out.
  const allow = queue.getByTestId('perm-allow')
  await expect(async () => {
    if (await allow.count()) await allow.first().click({ timeout: 1000 })
    await expect(allow).toHaveCount(0, { timeout: 500 })
  }).toPass({ timeout: 60_000 })
  await page.keyboard.press('Escape')

  // All done: every panel is in the grid (nothing hidden behind one expanded panel), counts agree.
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 120_000 })
  await expect(panels).toHaveCount(12)
  await expect(page.getByTestId('finished-row')).toHaveCount(0)
  const done = await countWords(page)
  expect(done.tab).toEqual(done.bar)
  expect(done.tab.join(' ')).toMatch(/^12 done$/)
  // The card named in the conversation is the panel brought into view and highlighted.
  // (The transcript is virtualized: from its top, the last card drawn names a panel below the fold.)
  await page.getByTestId('transcript').evaluate((el) => (el.scrollTop = 0))
  await expect(page.getByTestId('agent-card').first()).toBeVisible()
  // That one card, by its agent: "the last card" changes as the list draws more rows once scrolled, and
  // scrolled to the middle, not the bottom edge, where the "Jump to latest" button floats over it.
  const cardId = (await page.getByTestId('agent-card').last().getAttribute('data-agent-id'))!
  const card = page.locator(`[data-testid=agent-card][data-agent-id="${cardId}"]`)
  await card.evaluate((el) => el.scrollIntoView({ block: 'center' }))
  await card.click()
  const named = page.locator('[data-testid=agent-panel].focused')
  await expect(named).toHaveCount(1)
  await expect(named).toHaveAttribute('data-agent-id', cardId)
  await expect(named).toBeInViewport()
  await snap(page, '1280-finished-grid')

  // 1024: the timeline's tick labels neither overlap nor run past the track; a bar opens its panel.
  await page.setViewportSize({ width: 1024, height: 700 })
  await page.getByTestId('tab-timeline').click()
  await expect(page.getByTestId('timeline-row')).toHaveCount(13)
  const ticks = await page
    .locator('.tl-axis .tl-tick')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })))
  const track = await page.locator('.tl-axis .tl-track').evaluate((e) => e.getBoundingClientRect().right)
  for (let i = 1; i < ticks.length; i++) expect(ticks[i].left).toBeGreaterThan(ticks[i - 1].right)
  expect(ticks.at(-1)!.right).toBeLessThanOrEqual(track + 1)
  await snap(page, '1024-timeline')
  const row = page.getByTestId('timeline-row').nth(3)
  const id = await row.getAttribute('data-agent-id')
  await row.locator('.tl-bar').click()
  await expect(page.locator(`[data-testid=agent-panel][data-agent-id="${id}"]`)).toHaveClass(/focused/)
  await expect(page.locator(`[data-testid=agent-panel][data-agent-id="${id}"]`)).toBeInViewport()
  await snap(page, '1024-after-timeline-click')

  // 1920: three or four columns.
  await resize(page, { width: 1920, height: 1080 })
  expect(await columns(panels)).toBeGreaterThanOrEqual(3)
  await snap(page, '1920-finished-grid')
  await page.getByTestId('tab-timeline').click()
  await snap(page, '1920-timeline')
  expect(problems).toEqual([])
})
