// Per-agent usage and an agent's worktree: the header's cost opens a table of every agent's tokens in and
// out, cache reads and writes, cost, turns and time, sortable, whose total is the header's figure; a
// worktree agent's tile offers its folder — in a browser as the path to copy, with why the page cannot
// open it. Screenshots: e2e/artifacts/screens/usage-*.png, worktree-*.png.
import type { Page } from '@playwright/test'
import { allowTheOneAsking, expect, test } from './support/app-test'
import { shoot } from './support/screens'

const SIZES = [
  { width: 1024, height: 720 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 }
]

async function shootSizes(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await shoot(page, `${name}-${size.width}`)
  }
}

const dollars = (s: string | null) => Number((s ?? '').replace(/[^0-9.]/g, ''))

test('a worktree agent’s folder to copy in a browser; usage by agent with totals, sorted by any column', async ({ page, openApp }) => {
  test.setTimeout(150_000)
  await openApp({ viewport: { width: 1280, height: 800 }, prompt: 'Review the parser and run the tests' })

  // The test writer works in its own worktree (and asks before it runs the tests): its panel offers the folder.
  const tile = page.locator('[data-testid=agent-panel]', { has: page.getByTestId('open-worktree') })
  await expect(tile).toHaveCount(1, { timeout: 30_000 })
  await tile.hover()
  await tile.getByTestId('open-worktree').click()
  const dialog = page.getByTestId('open-worktree-dialog')
  await expect(dialog.getByTestId('worktree-path')).toHaveValue(/\.fanout-worktrees\/tiny-parser\//)
  await expect(dialog.getByTestId('worktree-browser-note')).toContainText('cannot start programs')
  // No button here starts a program: a browser page cannot.
  await expect(dialog.getByTestId('worktree-open-editor')).toHaveCount(0)
  await expect(dialog.getByTestId('worktree-copy')).toBeVisible()
  await shootSizes(page, 'worktree-dialog')
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)

  await allowTheOneAsking(page)

  // Usage by agent: one row each, the total the header's cost.
  const headerCost = await page.getByTestId('session-cost').textContent()
  await page.getByTestId('session-cost').click()
  const table = page.getByTestId('usage-table')
  await expect(table.getByTestId('usage-row')).toHaveCount(5)
  await expect(table.getByTestId('usage-row').filter({ hasText: 'Main agent' })).toHaveCount(1)
  expect(dollars(await table.getByTestId('usage-total-cost').textContent())).toBeCloseTo(dollars(headerCost), 3)
  // Sorted by cost, most first; a click on Turns sorts by turns, another reverses it.
  const costs = await table.getByTestId('usage-cost').allTextContents()
  expect(costs.map(dollars)).toEqual([...costs.map(dollars)].sort((a, b) => b - a))
  await table.getByTestId('usage-sort-turns').click()
  await expect(table.locator('th[aria-sort=descending]')).toContainText('Turns')
  const turns = async () => (await table.locator('[data-testid=usage-row] td:nth-of-type(6)').allTextContents()).map(Number)
  expect(await turns()).toEqual([...(await turns())].sort((a, b) => b - a))
  await table.getByTestId('usage-sort-turns').click()
  await expect(table.locator('th[aria-sort=ascending]')).toContainText('Turns')
  expect(await turns()).toEqual([...(await turns())].sort((a, b) => a - b))
  // Every column in view, the time too, at each size.
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await expect(table.getByTestId('usage-sort-duration')).toBeInViewport({ ratio: 1 })
    await shoot(page, `usage-table-${size.width}`)
  }
})
