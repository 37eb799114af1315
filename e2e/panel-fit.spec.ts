// A run's panels and cards at 1024×700 and 1280×800: a waiting agent's panel shows the command it asks
// about once, beside the answers; the answers' icons take their buttons' colour; the conversation's agent
// cards keep status, cost and current tool inside their edge; the finished rows fit the agents pane at its
// narrowest, their buttons clickable; the sidebar and the header show one cost for the session.
// Screenshots go to e2e/artifacts/screens/fit-*.png.
import { type Locator, type Page } from '@playwright/test'
import { expect, test } from './support/app-test'
import { shoot } from './support/screens'
import { resize } from './support/settle'

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 }
]

/**
 * How many times `needle` is in the element's rendered text (hidden parts, such as tooltips, are not), not
 * counting the rule "Always allow" names (a rule, not the command again).
 */
const occurrences = (el: Locator, needle: string) =>
  el.evaluate((e, n) => {
    const count = (t: string) => t.split(n).length - 1
    const text = (x: unknown) => (x as { innerText?: string }).innerText ?? ''
    const rules = [...e.querySelectorAll('.perm-rule')].reduce((sum, r) => sum + count(text(r)), 0)
    return count(text(e)) - rules
  }, needle)

/** The waiting panel: the command once, in the block with the answers, the icons in their buttons' colour. */
async function expectOnePermissionBlock(page: Page) {
  const panel = page.getByTestId('agent-panel').filter({ has: page.getByTestId('panel-permission') })
  await expect(panel).toHaveCount(1)
  const block = panel.getByTestId('panel-permission')
  await expect(block).toContainText('npm test')
  await expect(block.getByTestId('perm-allow')).toBeVisible()
  expect(await occurrences(panel, 'npm test')).toBe(1)
  expect(await occurrences(panel, 'needs permission')).toBe(0)
  for (const id of ['perm-allow', 'perm-deny']) {
    const colors = await block.getByTestId(id).evaluate((button) => {
      const style = button.ownerDocument.defaultView!.getComputedStyle
      return { button: style(button).color, icon: style(button.querySelector('svg')!).color }
    })
    expect(colors.icon, id).toBe(colors.button)
  }
}

/**
 * Each agent card: the parts of its lines shown whole and inside the card, clear of the › chevron: status,
 * cost and current tool always (a narrow card may leave out elapsed and turn); only the description and a
 * finished agent's result give way, with an ellipsis.
 */
async function expectCardsFit(page: Page) {
  const cards = await page.getByTestId('agent-card').evaluateAll((els) =>
    els.map((card) => {
      const box = (e: typeof card) => e.getBoundingClientRect()
      const style = card.ownerDocument.defaultView!.getComputedStyle
      const go = card.querySelector('.agent-card-go')
      const limit = go ? box(go).left : box(card).right
      const lines = [...card.querySelectorAll('.agent-card-line')]
      const parts = lines.flatMap((line) =>
        [...line.children].map((e) => ({
          text: (e.textContent ?? '').trim() || e.className,
          gives: e.matches('.agent-card-desc, .agent-card-result, .agent-type-badge'),
          right: box(e).right,
          lineRight: box(line).right,
          cut: e.scrollWidth - e.clientWidth,
          ellipsis: style(e).textOverflow
        }))
      )
      return { card: card.textContent, limit, parts }
    })
  )
  expect(cards.length).toBeGreaterThan(0)
  // A waiting agent's card keeps its status, cost and current tool, however narrow.
  const waiting = page.getByTestId('agent-card').filter({ hasText: 'Needs permission' }).first()
  await expect(waiting.locator('.agent-card-stats')).toContainText(/^Needs permission.*\$0\.\d+▸ Bash$/)
  for (const c of cards) {
    for (const p of c.parts) {
      if (p.gives) {
        expect(p.ellipsis, `${c.card}: ${p.text}`).toBe('ellipsis')
        expect(p.right, `${c.card}: ${p.text}`).toBeLessThanOrEqual(p.lineRight + 0.5)
      } else {
        expect(p.cut, `${c.card}: ${p.text} is cut`).toBeLessThanOrEqual(0)
        expect(p.right, `${c.card}: ${p.text} runs past the card line`).toBeLessThanOrEqual(p.lineRight + 0.5)
      }
      expect(p.right, `${c.card}: ${p.text} runs under the chevron`).toBeLessThanOrEqual(c.limit + 0.5)
    }
  }
}

/** The finished rows within the pane: nothing past a row's edge, and "Open its transcript" clickable. */
async function expectFinishedRowsFit(page: Page) {
  const rows = await page.getByTestId('finished-row').evaluateAll((els) =>
    els.map((row) => {
      // Rows below the fold of the pane's scroller are brought into view first: only then can a click reach them.
      row.scrollIntoView({ block: 'nearest' })
      const r = row.getBoundingClientRect()
      const section = row.closest('.finished-section')!.getBoundingClientRect()
      const open = row.querySelector('[data-testid=finished-open]')!
      const o = open.getBoundingClientRect()
      const hit = row.ownerDocument.elementFromPoint(o.left + o.width / 2, o.top + o.height / 2)
      const parts = [...row.children].map((e) => ({
        what: (e.textContent ?? '').trim() || e.className,
        right: e.getBoundingClientRect().right,
        cut: e.scrollWidth - e.clientWidth,
        ellipsis: row.ownerDocument.defaultView!.getComputedStyle(e).textOverflow
      }))
      return {
        row: row.textContent,
        overflow: row.scrollWidth - row.clientWidth,
        right: r.right,
        sectionRight: section.right,
        openHit: !!hit && open.contains(hit),
        parts
      }
    })
  )
  await page.locator('.panels-scroll').evaluate((el) => el.scrollTo(0, 0))
  expect(rows.length).toBeGreaterThan(0)
  for (const r of rows) {
    expect(r.overflow, r.row ?? '').toBeLessThanOrEqual(0)
    expect(r.right, r.row ?? '').toBeLessThanOrEqual(r.sectionRight + 0.5)
    expect(r.openHit, `${r.row}: Open its transcript is not clickable`).toBe(true)
    for (const p of r.parts) {
      expect(p.right, `${r.row}: ${p.what}`).toBeLessThanOrEqual(r.right + 0.5)
      if (p.cut > 0) expect(p.ellipsis, `${r.row}: ${p.what} is cut without an ellipsis`).toBe('ellipsis')
    }
  }
}

/** The sidebar row of the current session and the header show the same cost. */
async function expectOneCost(page: Page) {
  const header = (await page.getByTestId('session-cost').textContent())!.trim()
  const row = page.locator('.session-row', { has: page.locator('.session-item.active') })
  await expect(row.locator('.session-meta')).toContainText(header)
}

async function dragSplitter(page: Page, dx: number) {
  const grip = (await page.getByTestId('splitter').boundingBox())!
  await page.mouse.move(grip.x + 1, grip.y + 300)
  await page.mouse.down()
  await page.mouse.move(grip.x + 1 + dx, grip.y + 300, { steps: 4 })
  await page.mouse.up()
}

test('a waiting panel, agent cards, finished rows and the cost, at 1024 and 1280', async ({ page, openApp }) => {
  test.setTimeout(180_000)
  // Full panels whatever their number (the person's choice of density): this test is about the panels.
  await page.addInitScript("localStorage.setItem('fanout.overviewDensity', 'panels')")
  await openApp({ speed: 1, viewport: SIZES[0], prompt: 'Review the parser module end to end, fan out to 6' })
  await expect(page.getByTestId('agent-panel')).toHaveCount(6, { timeout: 30_000 })
  await expect(page.getByTestId('panel-permission')).toBeVisible({ timeout: 30_000 })
  await expectOnePermissionBlock(page)
  await expectCardsFit(page)
  await shoot(page, 'fit-waiting-1024')

  // Every other agent done: the test-writer still waits, the rest are finished rows.
  await expect(page.getByTestId('finished-row')).toHaveCount(5, { timeout: 60_000 })
  for (const size of SIZES) {
    await resize(page, size)
    await expectOnePermissionBlock(page)
    await expectCardsFit(page)
    await expectFinishedRowsFit(page)
    await expectOneCost(page)
    await shoot(page, `fit-finished-${size.width}`)
  }

  // The agents pane at its narrowest, at 1024: the rows still fit, and the transcript button opens it.
  await resize(page, SIZES[0])
  await dragSplitter(page, 400)
  await expect.poll(async () => (await page.locator('.right-pane').boundingBox())!.width).toBeLessThan(400)
  await expectFinishedRowsFit(page)
  await expectOnePermissionBlock(page)
  await shoot(page, 'fit-narrow-pane-1024')
  await page.getByTestId('finished-row').first().getByTestId('finished-open').click()
  await expect(page.getByTestId('maximized-panel')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('maximized-panel')).toHaveCount(0)

  // The conversation at its narrowest, at 1024: the cards still keep their stats inside.
  await dragSplitter(page, -800)
  await expect.poll(async () => (await page.locator('.conversation').boundingBox())!.width).toBeLessThan(340)
  await expectCardsFit(page)
  await shoot(page, 'fit-narrow-conversation-1024')
})

test('the scripted demo: the compound command a waiting agent asks about shows once, and its card fits', async ({ page, openApp }) => {
  test.setTimeout(120_000)
  await openApp({ viewport: SIZES[0] })
  await page.getByTestId('run-demo').click()
  const block = page.getByTestId('panel-permission')
  // The compound command part by part: what runs without asking, and what "Always" would cover.
  const parts = block.getByTestId('command-parts')
  await expect(parts.locator('[data-covered=read-only]')).toContainText('du -sh .', { timeout: 60_000 })
  await expect(parts.locator('[data-covered=rule]')).toContainText('node --version')
  await expect(parts.locator('[data-covered=rule]')).toContainText('Bash(node --version)')
  await expect(block.getByTestId('perm-always')).toHaveText('Always allow Bash(node --version)')
  const panel = page.getByTestId('agent-panel').filter({ has: block })
  expect(await occurrences(panel, 'du -sh')).toBe(1)
  await expectCardsFit(page)
  for (const size of SIZES) {
    await resize(page, size)
    expect(await occurrences(panel, 'du -sh')).toBe(1)
    await expectCardsFit(page)
    await shoot(page, `fit-demo-waiting-${size.width}`)
  }
})
