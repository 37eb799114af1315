// Keyboard focus never falls to <body> when what held it goes away: maximizing and restoring a panel,
// answering a permission request (in the queue dialog and on a panel), confirming or abandoning a session
// rename, and closing the session ⋯ menu. The ⋯ menu follows the menu pattern: arrows, Home/End, Escape, Tab.
import type { Locator, Page } from '@playwright/test'
import { expect, test, expectWaiting } from './support/app-test'
import { shoot } from './support/screens'

test.use({ viewport: { width: 1280, height: 800 } })

/** What has focus, for a readable failure: its test id, or its tag. */
const focusedId = (page: Page) =>
  page.evaluate<string | null>("document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName.toLowerCase() ?? null")

/** Press a key: focus lands on `target`. */
async function pressTo(page: Page, key: string, target: Locator) {
  await page.keyboard.press(key)
  await expect(target).toBeFocused()
}

test('maximize and restore a panel with Enter and Escape: focus stays on its maximize button', async ({ page, openApp }) => {
  await openApp({ prompt: 'Check the parser, fan out to 4' })
  // The test-writer waits for permission to run `npm test`, so its panel stays in the grid.
  const panel = page.getByTestId('agent-panel').filter({ hasText: 'Run the parser test suite' })
  await expect(panel.getByTestId('panel-permission')).toBeVisible({ timeout: 30_000 })
  const agentId = await panel.getAttribute('data-agent-id')
  const gridButton = page.locator(`[data-testid=agent-panel][data-agent-id="${agentId}"] [data-testid=panel-maximize]`)
  await expect(gridButton).toHaveAttribute('aria-label', 'Maximize this panel')

  await gridButton.focus()
  await page.keyboard.press('Enter')
  const maximized = page.getByTestId('maximized-panel')
  await expect(maximized).toBeVisible()
  const restore = maximized.getByTestId('panel-maximize')
  await expect(restore).toBeFocused()
  await expect(restore).toHaveAttribute('aria-label', 'Back to the grid')
  await shoot(page, 'focus-maximized-restore-button')

  // Escape goes back to the grid, onto the button that maximized it.
  await page.keyboard.press('Escape')
  await expect(maximized).toHaveCount(0)
  await expect.poll(() => focusedId(page)).toBe('panel-maximize')
  await expect(gridButton).toBeFocused()

  // And Enter on the restore button does the same.
  await pressTo(page, 'Enter', restore)
  await page.keyboard.press('Enter')
  await expect(maximized).toHaveCount(0)
  await expect(gridButton).toBeFocused()

  // The message box, dismissed with Escape, gives focus back to the button that opened it.
  const message = panel.getByTestId('panel-message')
  await message.focus()
  await pressTo(page, 'Enter', panel.getByTestId('panel-message-input'))
  await page.keyboard.press('Escape')
  await expect(panel.getByTestId('panel-message-input')).toHaveCount(0)
  await expect(message).toBeFocused()
})

test('Allow once in the permission dialog moves on to the next request, and the last answer closes it', async ({ page, openApp }) => {
  await openApp({ prompt: 'Check everything, fan out to 8' })
  await expectWaiting(page, 2)
  await page.getByTestId('permissions-button').focus()
  await page.keyboard.press('Enter')
  const queue = page.getByTestId('permission-queue')
  // The two alike requests share a card, each with its own answers.
  const items = queue.getByTestId('permission-group-item')
  await expect(items).toHaveCount(2)
  await expect(items.first().getByTestId('perm-allow')).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(queue.getByTestId('perm-allow')).toHaveCount(1)
  await expect.poll(() => focusedId(page)).toBe('perm-allow')
  await expect(queue.getByTestId('perm-allow')).toBeFocused()

  // The last answer closes the dialog; focus goes back to the button that opened it.
  await page.keyboard.press('Enter')
  await expect(queue).toHaveCount(0)
  await expect(page.getByTestId('permissions-button')).toBeFocused()
})

test('Allow once on a panel moves on to the next panel that asks, then to the prompt box', async ({ page, openApp }) => {
  await openApp({ prompt: 'Check everything, fan out to 8' })
  await expectWaiting(page, 2)
  const asking = page.getByTestId('panel-permission')
  await expect(asking).toHaveCount(2)
  await asking.first().getByTestId('perm-allow').focus()
  await page.keyboard.press('Enter')
  await expect(asking).toHaveCount(1)
  await expect(asking.first().getByTestId('perm-allow')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(asking).toHaveCount(0)
  await expect(page.getByTestId('followup')).toBeFocused()
})

test('session ⋯ menu: arrows, Home/End, Escape and Tab; rename returns focus to the session', async ({ page, openApp }) => {
  await openApp({ prompt: 'Say hello, fan out to 0' })
  const row = page.getByTestId('session-row').first()
  await expect(row.getByTestId('session-item')).toHaveAttribute('title', /\nDone/, { timeout: 45_000 })

  const more = row.getByTestId('session-more')
  const menu = row.getByRole('menu')
  const rename = row.getByRole('menuitem', { name: 'Rename' })
  const remove = row.getByRole('menuitem', { name: 'Delete…' })
  await more.focus()
  await page.keyboard.press('Enter')
  await expect(menu).toBeVisible()
  await expect(more).toHaveAttribute('aria-expanded', 'true')
  await expect(rename).toBeFocused()
  await pressTo(page, 'ArrowDown', remove)
  await shoot(page, 'focus-session-menu-arrow')
  await pressTo(page, 'ArrowDown', rename) // wraps around
  await pressTo(page, 'ArrowUp', remove) // and back
  await pressTo(page, 'Home', rename)
  await pressTo(page, 'End', remove)

  // Escape closes it and gives focus back to ⋯.
  await page.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
  await expect(more).toBeFocused()
  await expect(more).toHaveAttribute('aria-expanded', 'false')

  // ArrowDown on ⋯ opens the menu too; Tab closes it and moves on from ⋯.
  await pressTo(page, 'ArrowDown', rename)
  await page.keyboard.press('Tab')
  await expect(menu).toHaveCount(0)
  await expect.poll(() => focusedId(page)).not.toBe('body')
  await expect(more).not.toBeFocused()

  // Rename, confirmed with Enter: focus goes back to the session.
  await more.focus()
  await page.keyboard.press('Enter')
  await page.keyboard.press('Enter') // Rename
  const input = row.getByTestId('session-rename-input')
  await expect(input).toBeFocused()
  await input.fill('Greeting check')
  await page.keyboard.press('Enter')
  await expect(row.getByTestId('session-item')).toContainText('Greeting check')
  await expect(row.getByTestId('session-item')).toBeFocused()

  // Rename abandoned with Escape: the same.
  await more.focus()
  await page.keyboard.press('Enter')
  await pressTo(page, 'Enter', input)
  await page.keyboard.press('Escape')
  await expect(input).toHaveCount(0)
  await expect(row.getByTestId('session-item')).toBeFocused()
  await expect(row.getByTestId('session-item')).toContainText('Greeting check')

  // Delete… then Keep it: focus goes back to ⋯, not to the menu item that went away.
  await more.focus()
  await pressTo(page, 'ArrowUp', remove) // opens the menu on its last item
  await page.keyboard.press('Enter')
  const dialog = page.getByTestId('delete-session-dialog')
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(more).toBeFocused()
})
