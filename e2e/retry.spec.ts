// Retry, as a person uses it: a main agent whose model call failed shows the error with a Retry button; the
// retry sends the failed request again (not a fresh start), the answer appears and the button goes.
import { expect, test } from '@playwright/test'
import { reply, scriptByAgent } from '../src/main/runtime/model/scripted'
import { startBrowserMode, type BrowserMode } from './support/fixtures'

let app: BrowserMode
test.afterEach(async () => app?.close())

test('a failed run offers Retry on its error; retrying sends the failed request again and the answer shows', async ({ page }) => {
  let failing = true
  const asked: string[] = []
  app = await startBrowserMode({
    hasApiKey: true,
    respond: (req) => {
      asked.push(JSON.stringify(req.messages))
      return failing ? reply.badRequest('scripted: the API refused this once') : reply.text('Here is the answer after the retry.')
    }
  })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Summarise the project.')
  await page.getByTestId('new-prompt-send').click()

  const failure = page.locator('.msg-error:not(.retrying)', { hasText: 'the API refused this once' })
  await expect(failure).toHaveCount(1, { timeout: 30_000 })
  const retry = failure.getByRole('button', { name: 'Retry' })
  await expect(retry).toBeVisible()

  failing = false
  const before = asked.length
  await retry.click()
  await expect(page.getByTestId('assistant-text').filter({ hasText: 'Here is the answer after the retry.' })).toHaveCount(1, { timeout: 30_000 })
  // The retry is the failed request, message for message.
  expect(asked.length).toBe(before + 1)
  expect(asked.at(-1)).toBe(asked[before - 1])
  // Done: nothing failed any more, so no Retry is offered.
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0)
})

test('a failed subagent offers Retry on its panel; its retry completes and its report reaches the main agent', async ({ page }) => {
  let cut = true
  app = await startBrowserMode({
    hasApiKey: true,
    respond: scriptByAgent([
      {
        name: 'sub',
        match: 'List the docs',
        turns: [],
        then: () => (cut ? reply.cutByMaxTokens(reply.toolUse('Glob', { pattern: 'docs/**/*.md' })) : reply.text('Found the docs: README.md.'))
      },
      {
        name: 'main',
        match: 'lead agent in Fanout',
        turns: [reply.toolUse('Agent', { description: 'List the docs', prompt: 'List the docs', subagent_type: 'general-purpose' })],
        then: (req) => reply.text(req.lastUserText.includes('Found the docs') ? 'The docs are listed.' : 'The helper failed.')
      }
    ])
  })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Find the docs.')
  await page.getByTestId('new-prompt-send').click()

  const panel = page.locator('[data-testid=agent-panel]', { hasText: 'List the docs' })
  const failure = panel.locator('.msg-error', { hasText: 'in the middle of a call to Glob' })
  await expect(failure).toHaveCount(1, { timeout: 30_000 })
  await expect(page.getByTestId('assistant-text').filter({ hasText: 'The helper failed.' })).toHaveCount(1)
  cut = false
  await failure.getByRole('button', { name: 'Retry' }).click()
  await expect(panel).toContainText('Found the docs: README.md.', { timeout: 30_000 })
  await expect(panel.getByRole('button', { name: 'Retry' })).toHaveCount(0)
  await expect(page.getByTestId('assistant-text').filter({ hasText: 'The docs are listed.' })).toHaveCount(1, { timeout: 30_000 })
})
