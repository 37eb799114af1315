// Keyboard focus never falls to <body> when saving takes away the control that had it: Save and Revert in
// the agent editor (disabled once nothing is left to save), Save anyway, the key form on the first-run page
// (replaced by "Key saved") and in Settings (its Save disabled once the field is emptied), and closing
// Settings after "Add an API key in Settings", which goes away once a key is saved.
import type { Page } from '@playwright/test'
import { expect, test, sendPrompt } from './support/app-test'
import { shoot } from './support/screens'

test.use({ viewport: { width: 1400, height: 900 } })

const KEY = 'sk-ant-api03-focus-0123456789abcdefghijklmnopqrstuvwxyz'

/** What has focus, for a readable failure: its test id, or its tag. */
const focused = (page: Page) =>
  page.evaluate<string | null>("document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName.toLowerCase() ?? null")

/** Focus is somewhere, and not on <body>: what the review found after each of these. */
async function notOnBody(page: Page) {
  await expect.poll(() => focused(page)).not.toBe('body')
  expect(await page.evaluate<boolean>('document.activeElement !== document.body && !!document.activeElement?.isConnected')).toBe(true)
}

test('agent editor: Save, Revert and Save anyway from the keyboard leave focus on the agent’s name', async ({ page, openApp }) => {
  await openApp()
  await page.getByTestId('open-agents').click()
  await page.getByTestId('agent-library').locator('[data-testid=library-entry][data-agent="code-reviewer"]').click()
  const title = page.getByTestId('editor-title')
  await expect(title).toHaveText('code-reviewer')

  // Save with Enter: the button is disabled once saved; focus goes to the name, and the toast is said.
  await page.getByTestId('color-green').click()
  await expect(page.getByTestId('unsaved')).toBeVisible()
  const save = page.getByTestId('action-save')
  await save.focus()
  await page.keyboard.press('Enter')
  const saved = page.getByRole('status').filter({ hasText: 'Saved code-reviewer.md' })
  await expect(saved).toBeVisible()
  await expect(page.locator('[aria-live=polite]').filter({ has: saved })).toHaveCount(1)
  await expect(save).toBeDisabled()
  await notOnBody(page)
  await expect(title).toBeFocused()
  await shoot(page, 'focus-editor-saved-title')

  // Revert with Enter: the same.
  await page.getByTestId('color-blue').click()
  await expect(page.getByTestId('unsaved')).toBeVisible()
  await page.getByTestId('action-revert').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  await notOnBody(page)
  await expect(title).toBeFocused()

  // A draft that will not load: Save asks; Tab, Enter saves anyway. The Save button that opened the dialog
  // is disabled by then, so focus goes to the name rather than nowhere.
  await page.getByTestId('field-input-description').fill('')
  await expect(page.getByTestId('unsaved')).toBeVisible()
  await save.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByTestId('save-anyway-dialog')
  await expect(dialog.getByRole('button', { name: 'Keep editing' })).toBeFocused()
  // Escape keeps editing: focus back on Save, which is still enabled.
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(save).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog.getByRole('button', { name: 'Keep editing' })).toBeFocused()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('status').filter({ hasText: 'Saved code-reviewer.md' })).toBeVisible()
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  await notOnBody(page)
  await expect(title).toBeFocused()
})

test('first run: saving the key moves focus to Continue; another key, to its field; keeping the old one, to Continue', async ({ page, openApp }) => {
  await openApp({ hasApiKey: false })
  await page.getByTestId('api-key-input').fill(KEY)
  await page.getByTestId('api-key-save').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('first-run-key-saved')).toContainText('Key saved')
  await notOnBody(page)
  const next = page.getByTestId('first-run-continue')
  await expect(next).toBeFocused()
  await expect(next).toHaveAccessibleDescription(/Key saved/)
  await shoot(page, 'focus-first-run-continue')

  // "Use a different key" goes as the form comes: its field takes the focus.
  await page.getByTestId('first-run-other-key').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('api-key-input')).toBeFocused()
  // "Keep the saved key" goes too: back to Continue.
  await page.getByRole('button', { name: 'Keep the saved key' }).focus()
  await page.keyboard.press('Enter')
  await expect(next).toBeFocused()

  // Another key, saved with Enter in its field: the same.
  await page.getByTestId('first-run-other-key').focus()
  await page.keyboard.press('Enter')
  await page.keyboard.insertText(KEY)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('first-run-key-saved')).toBeVisible()
  await notOnBody(page)
  await expect(next).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('first-run')).toHaveCount(0)
})

test('Settings: saving a key keeps focus in the key field, which says it was saved', async ({ page, openApp }) => {
  await openApp()
  await page.getByTestId('open-settings').focus()
  await page.keyboard.press('Enter')
  const input = page.getByTestId('api-key-input')
  await expect(input).toBeFocused()
  await page.keyboard.insertText(KEY)
  await page.getByTestId('api-key-save').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('settings-dialog').getByText('Saved. It stays')).toBeVisible()
  await expect(page.getByTestId('api-key-save')).toBeDisabled()
  await notOnBody(page)
  await expect(input).toBeFocused()
  await expect(input).toHaveAccessibleDescription(/Saved\. It stays/)
  // Closed with Escape: back to the Settings button that opened it.
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('settings-dialog')).toHaveCount(0)
  await expect(page.getByTestId('open-settings')).toBeFocused()
})

test('"Add an API key in Settings", key saved, Settings closed: focus goes to the prompt box, not <body>', async ({ page, openApp }) => {
  await openApp({ hasApiKey: false })
  await page.getByTestId('first-run-skip').click()
  await sendPrompt(page, 'Say hello, fan out to 0')
  await expect(page.getByRole('alert').filter({ hasText: 'There is no Anthropic API key yet' })).toBeVisible()
  const addKey = page.getByTestId('open-settings-for-key')
  await addKey.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('api-key-input')).toBeFocused()
  await page.keyboard.insertText(KEY)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('settings-dialog').getByText('Saved. It stays')).toBeVisible()
  await expect(page.getByTestId('api-key-input')).toBeFocused()
  await expect(addKey).toHaveCount(0) // what opened Settings is gone

  await page.keyboard.press('Escape')
  await expect(page.getByTestId('settings-dialog')).toHaveCount(0)
  await notOnBody(page)
  await expect(page.getByTestId('new-prompt')).toBeFocused()
  await expect(page.getByTestId('new-prompt')).toHaveValue('Say hello, fan out to 0')
})
