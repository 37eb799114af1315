// The prompt cache in the app: after a fan-out, the header says how much of the input was read from the
// cache and its tooltip splits the bill (uncached, written at 1.25×, read at 0.1×), as each agent's panel
// does; Settings offers how agents that start together share the cache, and keeps the choice.
// Screenshots at 1024, 1280 and 1920 wide, light and dark: e2e/artifacts/screens/cache-*.png.
import { expect, test, allowTheOneAsking } from './support/app-test'
import { shoot } from './support/screens'

const WIDTHS = [1024, 1280, 1920]

test('the header and the panels show what the prompt cache saved; Settings keeps how agents share it', async ({ page, openApp }) => {
  test.setTimeout(180_000)
  await openApp({ speed: 1, viewport: { width: 1280, height: 800 }, prompt: 'Review the parser module end to end, fan out to 4' })
  await allowTheOneAsking(page, { asking: 40_000, finish: 60_000 })

  // Siblings read their shared instructions from the cache: most of the input was read, not written.
  const cached = page.getByTestId('session-cached')
  await expect(cached).toHaveText(/^\d+% cached$/)
  const share = Number((await cached.textContent())!.replace(/\D/g, ''))
  expect(share).toBeGreaterThan(30)
  const tip = (await page.getByTestId('session-cost').getAttribute('title'))!
  expect(tip).toMatch(
    /^All agents: [\d,]+ input tokens: [\d,]+ uncached, [\d,]+ written to the prompt cache \(billed at 1\.25×\), [\d,]+ read from it \(0\.1×\)\. [\d,]+ output tokens\. \$\d/
  )
  const read = Number(/([\d,]+) read from it/.exec(tip)![1].replace(/,/g, ''))
  expect(read).toBeGreaterThan(0)
  // Each panel's cost says the same for its agent, and the panels add up to the header's total.
  const panelTips = await page.getByTestId('panel-cost').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''))
  expect(panelTips.length).toBeGreaterThan(0)
  for (const t of panelTips) expect(t).toMatch(/read from it \(0\.1×\)/)

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 })
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { innerWidth: number }).innerWidth)).toBe(width)
    // The header's figures stay on one line, none cut; below 1200 px the cached share gives its room to the title.
    await expect(cached).toBeVisible({ visible: width >= 1200 })
    // One line: every figure's middle at the same height (the context meter with its Compact button is taller than the text).
    const stats = await page.locator('.session-header-stats > span').evaluateAll((els) =>
      els
        .filter((e) => e.getClientRects().length)
        .map((e) => ({
          text: e.textContent,
          cut: e.scrollWidth - e.clientWidth,
          middle: e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2
        }))
    )
    for (const s of stats) expect(s.cut, `${s.text} is cut at ${width}`).toBeLessThanOrEqual(0)
    const middles = stats.map((s) => s.middle)
    expect(Math.max(...middles) - Math.min(...middles), `the header's figures wrap at ${width}: ${JSON.stringify(stats)}`).toBeLessThan(4)
    await shoot(page, `cache-header-${width}`)
  }

  // Settings: the choice, its explanation, and a saved change that a reopened dialog shows.
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.getByTestId('open-settings').click()
  const select = page.getByTestId('setting-promptCacheSharing')
  await expect(select).toHaveValue('first')
  await expect(page.getByTestId('promptCacheSharing-hint')).toContainText('a tenth of the input price')
  await select.scrollIntoViewIfNeeded()
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { innerWidth: number }).innerWidth)).toBe(width)
    await select.scrollIntoViewIfNeeded()
    await shoot(page, `cache-settings-${width}`)
  }
  await select.selectOption('prewarm')
  await page.getByTestId('settings-save').click()
  await expect(page.getByTestId('settings-dialog').getByText('Saved.')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('settings-dialog')).toHaveCount(0)
  await page.getByTestId('open-settings').click()
  await expect(page.getByTestId('setting-promptCacheSharing')).toHaveValue('prewarm')
})
