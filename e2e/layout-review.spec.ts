// The new-user layout review at 1024×700, 1280×800 and 1920×1080, light and dark: the agents pane header
// during a run, the sidebar's session names, the permission toast, the agent editor's header, library and
// side panels, and the New agent dialog. Screenshots go to e2e/artifacts/screens/review-*.png.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'
import { resize } from './support/settle'

let app: BrowserMode
test.afterEach(async () => app?.close())

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 }
]

const at = resize

/**
 * The agents pane's tab strip on one line: each tab's icon and label side by side, the summary neither
 * wrapped nor cut, nothing past the strip's edge; the summary's whole text in its tooltip.
 */
async function expectOneLineStrip(page: Page) {
  const strip = page.locator('.right-pane .pane-tabs')
  const m = await strip.evaluate((el) => {
    const box = el.getBoundingClientRect()
    const summary = el.querySelector('.pane-tabs-summary')!
    const tabs = [...el.querySelectorAll('[role=tab]')].map((t) => {
      // The line boxes of the tab's visible text and its icon: a wrapped label adds a second line.
      const visible = [t.querySelector('svg')!.getBoundingClientRect()]
      const walker = t.ownerDocument.createTreeWalker(t, 4 /* NodeFilter.SHOW_TEXT */)
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent?.trim() || n.parentElement!.getBoundingClientRect().width <= 1) continue // visually hidden
        const range = t.ownerDocument.createRange()
        range.selectNodeContents(n)
        visible.push(...range.getClientRects())
      }
      return { height: t.getBoundingClientRect().height, tops: visible.map((r) => Math.round(r.top + r.height / 2)), right: t.getBoundingClientRect().right }
    })
    return {
      stripHeight: box.height,
      stripRight: box.right,
      overflow: el.scrollWidth - el.clientWidth,
      tabs,
      summary: {
        height: summary.getBoundingClientRect().height,
        left: summary.getBoundingClientRect().left,
        right: summary.getBoundingClientRect().right,
        cut: summary.scrollWidth - summary.clientWidth,
        title: summary.getAttribute('title')
      }
    }
  })
  expect(m.stripHeight).toBeLessThanOrEqual(37)
  expect(m.overflow).toBeLessThanOrEqual(0)
  for (const t of m.tabs) {
    expect(t.height).toBeLessThanOrEqual(28)
    // Icon, label and count on one line (their middles within a couple of pixels).
    expect(Math.max(...t.tops) - Math.min(...t.tops)).toBeLessThanOrEqual(2)
  }
  expect(m.summary.height).toBeLessThanOrEqual(20)
  expect(m.summary.cut).toBeLessThanOrEqual(0)
  expect(m.summary.left).toBeGreaterThanOrEqual(Math.max(...m.tabs.map((t) => t.right)))
  expect(m.summary.right).toBeLessThanOrEqual(m.stripRight)
  expect(m.summary.title).toMatch(/running, 1 waiting for permission, \d+ done/)
}

/** Each sidebar session name has its row's whole first line (no tag or ⋯ button beside it when not hovered). */
async function expectSessionNamesHaveTheRow(page: Page) {
  await page.mouse.move(600, 5) // off the sidebar: no row is hovered
  const rows = await page.locator('.session-item-body').evaluateAll((bodies) =>
    bodies.map((b) => {
      const name = b.querySelector('.session-title-text')!.getBoundingClientRect()
      const body = b.getBoundingClientRect()
      const more = b.closest('.session-row')!.querySelector('.session-more')!
      const style = b.ownerDocument.defaultView!.getComputedStyle
      const moreShown = Number(style(more.parentElement!).opacity) * Number(style(more).opacity) > 0
      return { nameWidth: name.width, bodyWidth: body.width, moreShown }
    })
  )
  expect(rows.length).toBeGreaterThanOrEqual(2)
  for (const r of rows) {
    expect(r.nameWidth).toBeGreaterThanOrEqual(r.bodyWidth - 1)
    expect(r.moreShown).toBe(false)
  }
  const demo = page.getByTestId('session-row').filter({ hasText: 'Scripted demo' })
  await expect(demo.locator('.session-meta')).toContainText('scripted')
  // Hovered, the ⋯ button shows over the end of the name.
  await demo.hover()
  await expect(demo.getByTestId('session-more')).toBeInViewport()
  const more = (await demo.getByTestId('session-more').boundingBox())!
  const row = (await demo.boundingBox())!
  expect(more.x + more.width).toBeLessThanOrEqual(row.x + row.width)
  await page.mouse.move(600, 5)
}

/**
 * The permission toast (at 1024×700) covers no session row, nor the session list at all, nor Settings or the
 * session area; its title and text are whole, not cut with an ellipsis.
 */
async function expectToastClear(page: Page) {
  // (The demo's own request may have a toast too: this one is the run's.)
  const toast = page.locator('.toast').filter({ hasText: 'Permission needed' }).filter({ hasText: 'test-writer' })
  await expect(toast).toBeVisible()
  const box = async (sel: string) => (await page.locator(sel).first().boundingBox())!
  const t = (await toast.boundingBox())!
  const overlaps = (a: typeof t, b: typeof t) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  for (const sel of ['.session-list', '[data-testid=open-settings]', '.session-body']) expect(overlaps(t, await box(sel)), sel).toBe(false)
  const cut = await toast
    .locator('.toast-body > *')
    .evaluateAll((els) => els.map((e) => ({ text: e.textContent, w: e.scrollWidth - e.clientWidth, h: e.scrollHeight - e.clientHeight })))
  for (const c of cut) expect(c, c.text ?? '').toMatchObject({ w: 0, h: 0 })
  await expect(toast).toContainText('test-writer — Run the parser test suite')
}

test('a run: pane header, sidebar names, permission toast', async ({ page }) => {
  test.setTimeout(180_000)
  app = await startBrowserMode({ hasApiKey: true, speed: 2 })
  await page.setViewportSize(SIZES[0])
  await page.goto(app.url)
  await page.getByTestId('run-demo').click()
  await expect(page.locator('[data-tile]')).toHaveCount(4)
  await page.getByTestId('new-session').click()
  await page.getByTestId('new-prompt').fill('Review the parser module end to end, fan out to 6')
  await page.getByTestId('new-prompt-send').click()
  await expect(page.locator('[data-tile]')).toHaveCount(6, { timeout: 30_000 })
  await expect(page.getByTestId('tab-count-waiting')).toBeVisible({ timeout: 30_000 })
  await expectToastClear(page)
  await expect(page.getByTestId('tab-count-done')).toBeVisible({ timeout: 30_000 })
  for (const size of SIZES) {
    await at(page, size)
    await expectOneLineStrip(page)
    await expectSessionNamesHaveTheRow(page)
    await shoot(page, `review-run-${size.width}`)
  }

  // The pane at its narrowest (the splitter dragged right, at 1024): the tabs show their icons, named still.
  await at(page, SIZES[0])
  const splitter = page.getByTestId('splitter')
  const grip = (await splitter.boundingBox())!
  await page.mouse.move(grip.x + 1, grip.y + 300)
  await page.mouse.down()
  await page.mouse.move(grip.x + 300, grip.y + 300, { steps: 4 })
  await page.mouse.up()
  await expect.poll(async () => (await page.locator('.right-pane').boundingBox())!.width).toBeLessThan(400)
  await expectOneLineStrip(page)
  await expect(page.getByRole('tab', { name: 'Tree & timeline' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Tree & timeline' })).toHaveAttribute('title', 'Tree & timeline')
  await expect(page.getByTestId('tab-count-waiting')).toHaveText('1 waiting for permission')
  await shoot(page, 'review-run-1024-narrow-pane')
  await page.mouse.dblclick(grip.x + 300 - 1, grip.y + 300)
})

/**
 * The editor header with the "unsaved" badge: the agent's name and its file name whole, nothing in the
 * header drawn over anything else, the full path in the file's tooltip.
 */
async function expectEditorHeader(page: Page, file: string) {
  const m = await page.locator('.ae-header').evaluate((header) => {
    const file = header.querySelector('.ae-title-file')!
    const base = file.lastElementChild
    const name = header.querySelector('[data-testid=editor-title]')!
    const parts = [name, ...header.querySelectorAll('.tag, button, .ae-title-file')].map((e) => ({
      what: (e.textContent ?? '').trim() || e.className,
      ...e.getBoundingClientRect().toJSON()
    }))
    return {
      nameCut: name.scrollWidth - name.clientWidth,
      fileCut: file.scrollWidth - file.clientWidth,
      base: base && base !== file.firstElementChild ? { text: base.textContent, cut: base.scrollWidth - base.clientWidth } : null,
      title: file.getAttribute('title'),
      parts
    }
  })
  expect(m.nameCut).toBeLessThanOrEqual(0)
  expect(m.fileCut).toBeLessThanOrEqual(0)
  expect(m.base).toEqual({ text: file.split('/').pop(), cut: 0 })
  expect(m.title).toBe(file)
  type Box = (typeof m.parts)[number]
  const overlap = (a: Box, b: Box) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5
  for (const [i, a] of m.parts.entries()) for (const b of m.parts.slice(i + 1)) expect(overlap(a, b), `${a.what} / ${b.what}`).toBe(false)
}

/** The library's search placeholder fits its box, and each filter's label keeps clear of its edges. */
async function expectLibraryTools(page: Page) {
  const placeholder = await page.getByTestId('library-search').evaluate((input) => {
    const ctx = input.ownerDocument.createElement('canvas').getContext('2d')!
    const cs = input.ownerDocument.defaultView!.getComputedStyle(input)
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`
    return {
      text: ctx.measureText(input.getAttribute('placeholder') ?? '').width,
      room: input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)
    }
  })
  expect(placeholder.text).toBeLessThanOrEqual(placeholder.room)
  const search = (await page.locator('.ae-search').boundingBox())!
  const filters = await page.locator('.ae-filter').evaluateAll((els) =>
    els.map((e) => {
      const range = e.ownerDocument.createRange()
      range.selectNodeContents(e)
      const text = range.getBoundingClientRect()
      const box = e.getBoundingClientRect()
      return { label: e.textContent, inset: Math.min(text.left - box.left, box.right - text.right), right: box.right }
    })
  )
  for (const f of filters) expect(f.inset, f.label ?? '').toBeGreaterThanOrEqual(5.5)
  expect(Math.max(...filters.map((f) => f.right))).toBeLessThanOrEqual(search.x + search.width + 0.5)
}

test('the agent editor: header, library, side panels, new agent', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  writeFileSync(
    join(app.project, '.claude/agents/security-code-reviewer.md'),
    '---\nname: security-code-reviewer\ndescription: Reviews code for security problems.\ntools: Read, Grep, Glob\ncolor: red\n---\nYou review code for security problems.\n'
  )
  await page.goto(app.url)
  await page.getByTestId('open-agents').click()
  await page.locator('[data-testid=library-entry][data-agent=security-code-reviewer]').click()
  await expect(page.getByTestId('editor-title')).toHaveText('security-code-reviewer')
  await page.getByTestId('color-green').click()
  await expect(page.getByTestId('unsaved')).toBeVisible()
  const file = join(app.project, '.claude/agents/security-code-reviewer.md')
  for (const size of SIZES) {
    await at(page, size)
    await expectEditorHeader(page, file)
    await expectLibraryTools(page)
    await shoot(page, `review-editor-${size.width}`)
  }

  // At 1024 the problems, effective tools and Try it are tabs beside Form, each in view when chosen.
  await at(page, SIZES[0])
  for (const [tab, panel] of [
    ['problems', 'problems-panel'],
    ['effective', 'effective-panel'],
    ['try', 'try-panel']
  ]) {
    await page.getByTestId(`tab-side-${tab}`).click()
    await expect(page.getByTestId(`tab-side-${tab}`)).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByTestId(panel)).toBeInViewport({ ratio: 0.9 })
    await shoot(page, `review-editor-1024-${tab}`)
  }
  await page.getByTestId('tab-form').click()
  await expect(page.getByTestId('field-color')).toBeInViewport()

  // New agent: each folder shows its meaningful end, ".claude/agents", the whole path in its tooltip.
  await page.getByTestId('new-agent').click()
  for (const size of SIZES) {
    await at(page, size)
    for (const scope of ['project', 'user']) {
      const path = page
        .locator('.ae-scope-option')
        .nth(scope === 'project' ? 0 : 1)
        .locator('.mono')
      const m = await path.evaluate((e) => {
        const end = e.lastElementChild ?? e
        const before = end.previousElementSibling
        const shown = before ? before.getBoundingClientRect().width : 0
        return {
          cut: e.scrollWidth - e.clientWidth,
          end: end.textContent,
          endCut: end.scrollWidth - end.clientWidth,
          shownDir: shown,
          title: e.getAttribute('title') ?? e.textContent
        }
      })
      expect(m.cut).toBeLessThanOrEqual(0)
      expect(m).toMatchObject({ end: 'agents', endCut: 0 })
      expect(m.title).toMatch(/[/\\]\.claude[/\\]agents$/)
      // Enough of the directory shows to read ".claude/" before "agents".
      expect(m.shownDir).toBeGreaterThan(60)
    }
    await shoot(page, `review-new-agent-${size.width}`)
  }
})
