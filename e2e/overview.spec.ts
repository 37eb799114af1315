// The overview at scale: every agent's current action on screen without scrolling (16 at 1280×800, 64 at
// 1920×1080), tiles that never move under the pointer (Stop leaves every other tile where it was, and says
// what it stopped), "waiting for the model" on a tile whose request is out, arrow keys and Enter between
// tiles and full panels, and Alt+J to the agent that needs the person. Screenshots of the overview at 1024,
// 1280 and 1920, light and dark, go to e2e/artifacts/screens/overview-*.png.
import { type Locator, type Page } from '@playwright/test'
import { expect, test } from './support/app-test'
import { shoot } from './support/screens'
import { e2eScript } from './support/e2e-model'

const tiles = (page: Page) => page.locator('[data-tile]')

/** Every tile wholly inside the overview's visible area, which does not scroll, and saying what it does now. */
async function expectAllOnScreen(page: Page, n: number) {
  await expect(tiles(page)).toHaveCount(n, { timeout: 60_000 })
  const scroller = page.locator('.overview .panels-scroll')
  const m = await scroller.evaluate((el) => {
    const box = el.getBoundingClientRect()
    const out = [...el.querySelectorAll('[data-tile]')].filter((t) => {
      const r = t.getBoundingClientRect()
      return r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.left < box.left - 0.5 || r.right > box.right + 0.5
    })
    return { overflow: el.scrollHeight - el.clientHeight, outside: out.map((t) => t.getAttribute('data-agent-id')) }
  })
  expect(m.overflow, 'the overview scrolls').toBeLessThanOrEqual(1)
  expect(m.outside).toEqual([])
  // Each tile says what its agent is doing now, legibly: not empty, not cut to nothing.
  await expect
    .poll(async () => (await page.locator('[data-testid=tile-now]').allInnerTexts()).filter((t) => t.trim().length >= 3).length, { timeout: 30_000 })
    .toBe(n)
  expect(await cutLines(page), 'a tile shows a line of its text cut in half').toEqual([])
}

/** Tiles whose text shows part of a line, or runs under the figures or buttons below it. */
async function cutLines(page: Page): Promise<string[]> {
  return page.locator('[data-testid=tile-now]').evaluateAll((els) =>
    els
      .filter((el) => {
        const box = el.getBoundingClientRect()
        // What is drawn below it (the figures are hidden on the shortest tiles).
        const next = el.nextElementSibling?.getBoundingClientRect()
        const below = next && next.height > 0 ? next : undefined
        const style = el.ownerDocument.defaultView!.getComputedStyle(el)
        const line = parseFloat(style.lineHeight)
        const wraps = style.whiteSpace !== 'nowrap'
        return (below && box.bottom > below.top + 0.5) || (wraps && Math.abs(box.height / line - Math.round(box.height / line)) > 0.05)
      })
      .map(
        (el) =>
          `${el.closest('[data-tile]')?.getAttribute('data-agent-id') ?? '?'} ${el.className}: ${el.getBoundingClientRect().height}px over ${el.nextElementSibling?.className}`
      )
  )
}

/** Two frames: a layout after a resize has been drawn. */
const drawn = (page: Page) =>
  page
    .locator('body')
    .evaluate(
      (body) => new Promise((done) => body.ownerDocument.defaultView!.requestAnimationFrame(() => body.ownerDocument.defaultView!.requestAnimationFrame(done)))
    )

async function boxes(list: Locator): Promise<Record<string, { x: number; y: number; width: number; height: number }>> {
  return Object.fromEntries(
    await list.evaluateAll((els) =>
      els.map((e) => [e.getAttribute('data-agent-id')!, (({ x, y, width, height }) => ({ x, y, width, height }))(e.getBoundingClientRect())])
    )
  )
}

test('sixteen at 1280×800: every current action on screen; Stop leaves every other tile in place and says what it stopped', async ({ page, openApp }) => {
  test.setTimeout(180_000)
  await openApp({ speed: 1, viewport: { width: 1280, height: 800 }, prompt: 'Check the whole parser, fan out to 16' })
  await expectAllOnScreen(page, 16)
  await expect(page.getByTestId('overview')).toHaveAttribute('data-density', 'tiles')
  // Each tile has its figures: turn, tokens, cost; the context once a call has answered.
  const first = page.getByTestId('agent-tile').first()
  await expect(first.getByTestId('tile-turn')).toHaveText(/^t\d/)
  await expect(first.getByTestId('tile-context')).toHaveText(/^(<1|\d+)%/, { timeout: 30_000 })
  await expect(first.getByTestId('tile-tokens')).toHaveText(/^[\d.]+[kM]? tok$/)
  // The exact counts are the figures' tooltips, there once the pointer is over them.
  await first.getByTestId('tile-tokens').hover()
  await expect(first.getByTestId('tile-tokens')).toHaveAttribute('title', /^[\d,]+ tokens$/)
  await expect(first.getByTestId('tile-context')).toHaveAttribute('title', /^Context: [\d,]+ of [\d,]+ tokens$/)
  // The meter along the tile's bottom (its body's background) fills the share of the context the figure says.
  // The fill's width as drawn: the first background layer's width, resolved in the body's padding box (where a
  // background is laid out) by a box given that width, against the track's (the width right of the colour bar).
  const meter = await first.evaluate((tile) => {
    const body = tile.querySelector('.tile-body')!
    const layer = body.ownerDocument.defaultView!.getComputedStyle(body).backgroundSize.split(',')[0]!.trim()
    const probe = body.ownerDocument.createElement('div')
    probe.style.cssText = `position: absolute; left: 0; top: 0; height: 0; width: ${layer.slice(0, layer.lastIndexOf(' '))}`
    body.append(probe)
    const fill = probe.getBoundingClientRect().width
    probe.remove()
    return {
      shown: tile.querySelector('[data-testid=tile-context]')!.textContent!,
      on: body.classList.contains('has-meter'),
      ctx: fill / (body.clientWidth - 4)
    }
  })
  expect(meter.on).toBe(true)
  if (meter.shown.startsWith('<1')) expect(meter.ctx).toBeLessThan(0.005)
  else expect(Math.abs(meter.ctx * 100 - Number.parseInt(meter.shown, 10))).toBeLessThanOrEqual(0.55)
  // The task names the tile first (what differs between agents; agent-names.spec.ts measures it), the whole in its tooltip.
  const untitled = await page
    .locator('[data-testid=agent-tile] .tile-desc')
    .evaluateAll((els) => els.filter((e) => !e.textContent?.trim() || !e.getAttribute('title')?.startsWith(e.textContent.trim())).map((e) => e.textContent))
  expect(untitled).toEqual([])

  // Stop a running one with the pointer: every other tile stays exactly where it was.
  const running = page.locator('[data-testid=agent-tile][data-status=running]').filter({ hasText: 'Review error handling' }).first()
  await expect(running).toBeVisible()
  const id = (await running.getAttribute('data-agent-id'))!
  await running.hover()
  await expect(running.getByTestId('tile-stop')).toBeVisible()
  const before = await boxes(tiles(page))
  await running.getByTestId('tile-stop').click()
  await expect(page.locator(`[data-tile][data-agent-id="${id}"]`)).toHaveAttribute('data-status', 'stopped')
  const toast = page.getByTestId('toast').filter({ hasText: 'Stopped code-reviewer' })
  await expect(toast).toContainText('Review error handling in the lexer')
  // A while later, other agents finished meanwhile, still nothing has moved under the pointer.
  await expect(page.locator('[data-testid=agent-tile][data-status=completed]')).not.toHaveCount(0, { timeout: 60_000 })
  const after = await boxes(tiles(page))
  for (const [agent, box] of Object.entries(before)) expect(after[agent], agent).toEqual(box)
  await shoot(page, 'overview-stop-held-1280')
  // Tidy settles it at once: the stopped agent and those done leave the grid for the Finished list.
  await page.getByTestId('overview-tidy').click()
  await expect(page.locator(`[data-testid=finished-row][data-agent-id="${id}"]`)).toContainText('Stopped')
})

test('sixty-four at 1920×1080: every current action on screen, in light and dark; the density can be chosen', async ({ page, openApp }) => {
  test.setTimeout(240_000)
  // Sixty-four running throughout: every step counts them (a finished agent leaves the grid, and on a loaded
  // machine the first are done before the last screenshot), so their reports wait until the test is over.
  let over!: () => void
  const reportsHeld = new Promise<void>((r) => (over = r))
  await openApp({
    speed: 2,
    viewport: { width: 1920, height: 1080 },
    respond: e2eScript({ speed: 2, reportsHeld }),
    prompt: 'Audit the whole repository, fan out to 64'
  })
  try {
    await sixtyFour(page)
  } finally {
    over()
  }
})

async function sixtyFour(page: Page) {
  await expectAllOnScreen(page, 64)
  await expect(page.getByTestId('overview')).toHaveAttribute('data-density', 'tiles')
  await shoot(page, 'overview-64-1920')
  // The same run at 1280 and 1024: denser, still legible (it may scroll: 64 is beyond what those sizes hold).
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 700 }
  ]) {
    await page.setViewportSize(size)
    await expect(page.getByTestId('overview')).toHaveAttribute('data-density', 'compact')
    await drawn(page)
    expect(await cutLines(page), `a tile cut a line in half at ${size.width}`).toEqual([])
    await shoot(page, `overview-64-${size.width}`)
  }
  // The person's choice of density holds: full panels (scrolling), then back to auto.
  await page.setViewportSize({ width: 1920, height: 1080 })
  await page.getByTestId('overview-density').selectOption('panels')
  await expect(page.getByTestId('agent-panel')).toHaveCount(64)
  await page.getByTestId('overview-density').selectOption('auto')
  await expect(page.getByTestId('agent-tile')).toHaveCount(64)
}

test('a tile whose request is out says it waits on the model, with the time; panel, tree and timeline too', async ({ page, openApp }) => {
  test.setTimeout(120_000)
  // The paused calls stay out until the test has seen the wait everywhere it shows.
  let answer!: () => void
  const modelPause = new Promise<void>((r) => (answer = r))
  // Calls made, by agent: the wait looked at is a paused second call, not the short one before a first reply
  // (every agent has that, and it ends on its own as soon as the slowest sibling has started).
  const calls = new Map<string, number>()
  await openApp({
    speed: 1,
    viewport: { width: 1280, height: 800 },
    respond: e2eScript({ speed: 1, modelPause }),
    prompt: 'Map it while the model pauses, fan out to 8',
    before: (app) =>
      void app.host.onEvents((batch) => {
        for (const e of batch) if (e.type === 'model_request' && e.attempt === 1) calls.set(e.agentId, (calls.get(e.agentId) ?? 0) + 1)
      })
  })
  await expect.poll(() => [...calls.values()].some((n) => n >= 2), { timeout: 30_000 }).toBe(true)
  const id = [...calls].find(([, n]) => n >= 2)![0]
  const waiting = page.locator(`[data-tile][data-agent-id="${id}"]`)
  await expect(waiting.getByTestId('model-wait')).toBeVisible()
  await expect(waiting.getByTestId('model-wait')).toContainText(/Waiting for the model(…| · \d+ s)/)
  // The time counts up while it waits.
  await expect(waiting.getByTestId('model-wait')).toContainText(/· ([2-9]|[1-9]\d+) s/, { timeout: 10_000 })
  await shoot(page, 'overview-waiting-for-model-1280')
  // The tree marks it, and the timeline draws the wait hatched.
  await page.getByTestId('tab-timeline').click()
  const row = page.locator(`[data-testid=timeline-row][data-agent-id="${id}"]`)
  await expect(row.getByTestId('model-wait')).toBeVisible()
  await expect(row.locator('.tl-wait-model')).not.toHaveCount(0)
  await shoot(page, 'timeline-waiting-for-model-1280')
  // Its full panel says so too; once its reply streams, the mark goes.
  await page.getByTestId('tab-panels').click()
  await page.locator(`[data-tile][data-agent-id="${id}"]`).getByTestId('tile-now').click()
  await expect(page.getByTestId('maximized-panel').getByTestId('model-wait')).toBeVisible()
  answer()
  await expect(page.getByTestId('maximized-panel').getByTestId('model-wait')).toHaveCount(0, { timeout: 30_000 })
})

test('keyboard: arrows between tiles, Enter to the full panel and Escape back, M to steer; Alt+J to the agent that needs you', async ({ page, openApp }) => {
  test.setTimeout(120_000)
  await openApp({ speed: 1, viewport: { width: 1280, height: 800 }, prompt: 'Check everything, fan out to 12' })
  await expect(tiles(page)).toHaveCount(12, { timeout: 30_000 })
  const focusedTile = () => page.evaluate<string | null>("document.activeElement?.closest('[data-tile]')?.getAttribute('data-agent-id') ?? null")

  // Tab reaches the grid at one tile; arrows move by where tiles are. The pointer is on the grid first, so
  // nothing moves from here on (read before, the order could change as an agent finishes, as it should).
  await tiles(page).first().hover()
  await tiles(page).first().focus()
  const order = await tiles(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-agent-id')!))
  expect(await focusedTile()).toBe(order[0])
  await page.keyboard.press('ArrowRight')
  expect(await focusedTile()).toBe(order[1])
  const cols = Number(await page.getByTestId('panels-grid').getAttribute('data-cols'))
  await page.keyboard.press('ArrowDown')
  expect(await focusedTile()).toBe(order[1 + cols])
  await page.keyboard.press('End')
  expect(await focusedTile()).toBe(order[order.length - 1])
  await page.keyboard.press('Home')
  expect(await focusedTile()).toBe(order[0])
  // The focused tile shows its actions without hover.
  await page.mouse.move(5, 5)
  await expect(tiles(page).first().getByTestId('tile-actions')).toBeVisible()
  await expect(tiles(page).nth(1).getByTestId('tile-actions')).toBeHidden()

  // Enter opens its full panel; Escape comes back to the tile.
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('maximized-panel')).toHaveAttribute('data-agent-id', order[0])
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('maximized-panel')).toHaveCount(0)
  await expect.poll(focusedTile).toBe(order[0])

  // M steers: a message box on the tile; Escape closes it, focus back on the tile.
  const tile = page.locator(`[data-tile][data-agent-id="${order[0]}"]`)
  if ((await tile.getAttribute('data-status')) === 'running') {
    await page.keyboard.press('m')
    await expect(tile.getByTestId('tile-message-input')).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(tile.getByTestId('tile-message-input')).toHaveCount(0)
    await expect.poll(focusedTile).toBe(order[0])
  }

  // Alt+J: to the agent that needs the person (a permission request), marked; again, to the next one.
  await expect(page.getByTestId('permissions-badge')).toHaveText(/[1-9]/, { timeout: 30_000 })
  const marked = page.locator('[data-tile].needs-you')
  await expect(marked).not.toHaveCount(0)
  await expect(page.getByTestId('overview-attention')).toContainText('need you')
  await page.locator('[data-testid=followup]').focus()
  await page.keyboard.press('Alt+j')
  const first = await focusedTile()
  expect(first).not.toBeNull()
  await expect(page.locator(`[data-tile][data-agent-id="${first}"]`)).toHaveClass(/needs-you/)
  await expect(page.locator(`[data-tile][data-agent-id="${first}"]`).getByTestId('tile-attention')).toHaveText('Needs you')
  await shoot(page, 'overview-attention-1280')
  const count = await marked.count()
  if (count > 1) {
    await page.keyboard.press('Alt+j')
    await expect.poll(focusedTile).not.toBe(first)
  }
})

test('the overview at 1024, 1280 and 1920, light and dark, with the run under way', async ({ page, openApp }) => {
  test.setTimeout(180_000)
  await openApp({ speed: 2, viewport: { width: 1280, height: 800 }, prompt: 'Review the parser module end to end, fan out to 16' })
  await expectAllOnScreen(page, 16)
  await expect(page.locator('[data-tile].needs-you')).not.toHaveCount(0, { timeout: 60_000 })
  for (const size of [
    { width: 1024, height: 700 },
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 }
  ]) {
    await page.setViewportSize(size)
    await drawn(page)
    expect(await cutLines(page), `a tile cut a line in half at ${size.width}`).toEqual([])
    await shoot(page, `overview-16-${size.width}`)
  }
})
