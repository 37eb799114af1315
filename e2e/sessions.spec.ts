// A session in the sidebar: renamed in place (kept after a reload), and deleted after asking — its folder
// goes — while a running one cannot be.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, sendPrompt, expectWaiting } from './support/app-test'
import { shoot } from './support/screens'

test.use({ viewport: { width: 1280, height: 800 } })

test('sidebar: rename a session, refuse to delete a running one, delete a finished one', async ({ page, openApp }) => {
  const app = await openApp()
  // "fan out to 0": the main agent answers at once, without subagents.
  await sendPrompt(page, 'Say hello, fan out to 0')
  const row = page.getByTestId('session-row').first()
  await expect(row.getByTestId('session-item')).toContainText('no subagents')
  await expect(row.getByTestId('session-item')).toHaveAttribute('title', /\nDone/, { timeout: 45_000 })

  await row.hover()
  await row.getByTestId('session-more').click()
  await shoot(page, 'session-menu')
  await row.getByTestId('session-rename').click()
  const input = row.getByTestId('session-rename-input')
  await expect(input).toBeFocused()
  await input.fill('Greeting check')
  await shoot(page, 'session-rename')
  await input.press('Enter')
  await expect(row.getByTestId('session-item')).toContainText('Greeting check')
  await page.reload()
  await expect(page.getByTestId('session-item').first()).toContainText('Greeting check')

  // A second session that stays running (two test-writers wait for permission).
  await page.getByTestId('new-session').click()
  await sendPrompt(page, 'Check everything, fan out to 8')
  await expectWaiting(page, 2)
  const running = page.getByTestId('session-row').filter({ hasText: 'fan out to 8' })
  await running.hover()
  await running.getByTestId('session-more').click()
  await running.getByTestId('session-delete').click()
  const dialog = page.getByTestId('delete-session-dialog')
  await expect(dialog).toContainText('is still running. Stop it first')
  await expect(dialog.getByTestId('delete-session-confirm')).toHaveCount(0)
  await page.keyboard.press('Escape')

  const done = page.getByTestId('session-row').filter({ hasText: 'Greeting check' })
  const folders = join(app.dataDir, 'sessions')
  await done.hover()
  await done.getByTestId('session-more').click()
  await done.getByTestId('session-delete').click()
  await expect(dialog).toContainText('Delete “Greeting check”?')
  await shoot(page, 'session-delete')
  await dialog.getByTestId('delete-session-confirm').click()
  await expect(page.getByTestId('session-row')).toHaveCount(1)
  await expect(page.getByTestId('session-row')).not.toContainText('Greeting check')
  expect(readdirSync(folders)).toHaveLength(1) // only the running session's folder is left
})
