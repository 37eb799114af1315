// Settings' Test connection: one message per problem, worded for Settings, and an answer that goes as
// soon as the address or key it tested changes, or the settings are saved.
import { expect, test } from './support/app-test'
import { reply, startScriptedServer } from '../src/main/runtime/model/scripted'
import { BASE_URL_TEXT } from '../src/shared/settings-fields'
import { shoot } from './support/screens'

test.use({ viewport: { width: 1280, height: 900 } })

test('settings: Test connection says each problem once, in words for Settings, and never keeps an old answer', async ({ page, openApp }) => {
  await openApp()
  const server = await startScriptedServer({ respond: () => reply.text('unused') })
  try {
    await page.getByTestId('open-settings').click()
    const dialog = page.getByTestId('settings-dialog')
    const field = page.getByTestId('setting-baseUrl')
    const result = page.getByTestId('connection-result')

    // Not an address at all: the field says so, once; the test adds nothing of its own.
    await field.fill('localhost:9999')
    await page.getByTestId('test-connection').click()
    await expect(page.getByTestId('error-baseUrl')).toContainText(BASE_URL_TEXT)
    await expect(dialog.getByText(BASE_URL_TEXT)).toHaveCount(1)
    await expect(result).toHaveCount(0)
    await expect(field).toBeFocused()

    // Nothing answers: what to change, not "in Settings" while in Settings.
    await field.fill('http://127.0.0.1:9')
    await page.getByTestId('test-connection').click()
    await expect(result).toContainText('Could not connect to http://127.0.0.1:9')
    await expect(result).toContainText('Check the Base URL, or leave it empty to use the Anthropic API.')
    await expect(result).not.toContainText('in Settings')
    await shoot(page, 'settings-test-connection')

    // The address it tested is gone: so is its answer. Saved: no old error beside "Saved.".
    await field.fill('')
    await expect(result).toHaveCount(0)
    await page.getByTestId('settings-save').click()
    await expect(dialog.getByText('Saved.')).toBeVisible()
    await expect(result).toHaveCount(0)
    await expect(dialog.locator('.inline-error, .field-error')).toHaveCount(0)

    // Saving what was tested drops the answer too: it was about the settings before the save.
    await field.fill('http://127.0.0.1:9')
    await page.getByTestId('test-connection').click()
    await expect(result).toContainText('Could not connect')
    await page.getByTestId('settings-save').click()
    await expect(dialog.getByText('Saved.')).toBeVisible()
    await expect(result).toHaveCount(0)

    // A new key makes an answer about the old one stale.
    await page.getByTestId('test-connection').click()
    await expect(result).toContainText('Could not connect')
    await page.getByTestId('api-key-input').fill('sk-ant-api03-a-new-key-0123456789abcdefghijklmnop')
    await page.getByTestId('api-key-save').click()
    await expect(dialog.getByText('Saved. It stays')).toBeVisible()
    await expect(result).toHaveCount(0)

    await field.fill(server.url)
    // From the keyboard: focus stays on the button while it tests and after (a disabled button dropped it to <body>).
    await page.getByTestId('test-connection').focus()
    await page.keyboard.press('Enter')
    await expect(result).toHaveText(`Connected: ${server.url} answered and offers 3 models.`)
    await expect(page.getByTestId('test-connection')).toBeFocused()
    await shoot(page, 'settings-test-connection-ok')
  } finally {
    await server.close()
  }
})
