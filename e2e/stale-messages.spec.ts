// Messages that stop being true go: the key-less refusal once a key is stored, and a retry notice once
// its model call is over (answered, or failed for good).
import { expect, test, sendPrompt } from './support/app-test'
import { reply } from '../src/main/runtime/model/scripted'

test.use({ viewport: { width: 1280, height: 800 } })

test('new session: the "no key yet" refusal goes the moment a key is saved, and the prompt is kept', async ({ page, openApp }) => {
  await openApp({ hasApiKey: false })
  await page.getByTestId('first-run-skip').click()
  await sendPrompt(page, 'Say hello, fan out to 0')
  const refusal = page.getByRole('alert').filter({ hasText: 'There is no Anthropic API key yet' })
  await expect(refusal).toBeVisible()
  await page.getByTestId('open-settings-for-key').click()
  await page.getByTestId('api-key-input').fill('sk-ant-api03-e2e-0123456789abcdefghijklmnopqrstuv')
  await page.getByTestId('api-key-save').click()
  await expect(page.getByTestId('settings-dialog').getByText('Saved. It stays')).toBeVisible()
  // Behind the dialog already, before it closes.
  await expect(refusal).toHaveCount(0)
  await expect(page.getByTestId('open-settings-for-key')).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('new-prompt')).toHaveValue('Say hello, fan out to 0')
  await page.getByTestId('new-prompt-send').click()
  await expect(page.getByTestId('session-item').first()).toHaveAttribute('title', /\nDone/, { timeout: 45_000 })
})

test('a failed call shows its final failure alone, without the "Retrying…" before it', async ({ page, openApp }) => {
  await openApp({ respond: () => reply.overloaded({ retryAfterSeconds: 0.05 }), prompt: 'Review the parser' })
  await expect(page.getByTestId('session-item').first()).toHaveAttribute('title', /\nFailed/, { timeout: 45_000 })
  await expect(page.getByText('gave up after 2 attempts').first()).toBeVisible()
  await expect(page.getByText(/Retrying/)).toHaveCount(0)
  await page.reload() // replayed from the transcripts: the same
  await page.getByTestId('session-item').first().click()
  await expect(page.getByText('gave up after 2 attempts').first()).toBeVisible()
  await expect(page.getByText(/Retrying/)).toHaveCount(0)
})

test('a call that succeeds on its retry leaves no retry notice behind', async ({ page, openApp }) => {
  let calls = 0
  await openApp({
    respond: () => (calls++ === 0 ? reply.overloaded({ retryAfterSeconds: 0.05 }) : reply.text('All good on the second try.')),
    prompt: 'Review the parser'
  })
  await expect(page.getByTestId('session-item').first()).toHaveAttribute('title', /\nDone/, { timeout: 45_000 })
  await expect(page.getByText('All good on the second try.').first()).toBeVisible()
  await expect(page.getByText(/Retrying/)).toHaveCount(0)
})
