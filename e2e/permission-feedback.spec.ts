// The person's words with an answer reach the agent: the permission card has a field for them (reached by
// keyboard, Enter denies with them), the model's tool_result says them, and the conversation shows what was
// said. In the conversation's card and in the permission dialog alike.
import { reply, scriptByAgent } from '../src/main/runtime/model/scripted'
import type { ParsedRequest } from '../src/main/runtime/model/scripted/types'
import { expect, expectWaiting, test } from './support/app-test'
import { shoot } from './support/screens'

/** What the model was sent as each call's result, by tool_use id. */
const results = new Map<string, string>()
function keepResults(req: ParsedRequest): void {
  for (const m of req.messages)
    if (Array.isArray(m.content))
      for (const b of m.content) if (b.type === 'tool_result') results.set(b.tool_use_id, typeof b.content === 'string' ? b.content : JSON.stringify(b.content))
}

const script = scriptByAgent([
  {
    name: 'main',
    match: 'lead agent in Fanout',
    turns: [
      reply.toolUse('Bash', { command: 'rm -rf build && make' }, { id: 'toolu_clean' }),
      (req) => (keepResults(req), reply.toolUse('Bash', { command: 'make test' }, { id: 'toolu_test' })),
      (req) => (keepResults(req), reply.text('Built and tested as you said.'))
    ]
  }
])

test('words with a denial and with an approval reach the agent, by keyboard, in light and dark', async ({ page, openApp }) => {
  await openApp({ respond: script, viewport: { width: 1280, height: 800 }, prompt: 'Rebuild and test.' })
  await expectWaiting(page, 1)
  const card = page.getByTestId('permission-card')
  const field = card.getByRole('textbox', { name: 'Tell the agent (optional)' })
  await expect(field).toBeVisible()
  // Keyboard reachable: from Allow once, one Shift+Tab back.
  await card.getByTestId('perm-allow').focus()
  await page.keyboard.press('Shift+Tab')
  await expect(field).toBeFocused()
  await page.keyboard.type('Do not delete build/; run make clean instead')
  await expect(card.getByTestId('perm-deny')).toHaveText('Deny with note')
  await shoot(page, 'permission-feedback')
  await page.keyboard.press('Enter')

  // The conversation says what was said; the model got the denial and the words.
  await expect(page.locator('.msg-notice').filter({ hasText: 'you said: “Do not delete build/; run make clean instead”' })).toHaveCount(1)
  await expectWaiting(page, 1)
  expect(results.get('toolu_clean')).toMatch(
    /^The user denied permission to use Bash for this call\..*\nThe user said: Do not delete build\/; run make clean instead$/s
  )

  // In the permission dialog: words with Allow once go with the approval.
  await page.getByTestId('permissions-button').click()
  const queue = page.getByTestId('permission-queue')
  await queue.getByTestId('perm-feedback').fill('Only the unit tests, please')
  await queue.getByTestId('perm-allow').click()
  await expect(page.getByTestId('assistant-text').filter({ hasText: 'Built and tested as you said.' })).toHaveCount(1, { timeout: 30_000 })
  expect(results.get('toolu_test')).toMatch(/\n\nThe user allowed this call and said: Only the unit tests, please$/)
})

test('Enter in an empty field answers nothing; a note past the limit cannot be typed', async ({ page, openApp }) => {
  await openApp({ respond: script, prompt: 'Rebuild and test.' })
  await expectWaiting(page, 1)
  const field = page.getByTestId('permission-card').getByTestId('perm-feedback')
  await field.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('permission-card')).toHaveCount(1)
  await expect(field).toHaveAttribute('maxlength', '2000')
})
