// The user's path through browser mode: a prompt fans out into four subagents side by side, one is
// stopped mid-run, one asks permission and is approved, all finish, the summary shows, and the
// session reopens after the server restarts.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, sendPrompt, watchProblems } from './support/app-test'
import { reply, startScriptedServer } from '../src/main/runtime/model/scripted'
import { startWebServer } from '../src/main/web/server'
import type { BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'
import { REPO_ROOT } from './support/repo-root'

let app: BrowserMode
test.use({ viewport: { width: 1500, height: 920 } })

test('fan-out: stream, stop one, approve one, finish, reopen after restart', async ({ page, openApp }) => {
  const problems = watchProblems(page, { console: true })
  app = await openApp({ connected: true })

  await sendPrompt(page, 'Review the parser: map it, review lexer errors, run its tests, and check the docs')

  // Four subagents appear side by side, each in its own panel.
  const panels = page.getByTestId('agent-panel')
  await expect(panels).toHaveCount(4, { timeout: 20_000 })
  const boxes = await Promise.all([0, 1].map((i) => panels.nth(i).boundingBox()))
  expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x + boxes[0]!.width - 1) // next to each other, not stacked

  // They stream: a panel's text grows while it runs.
  const reviewer = page.locator('[data-testid=agent-panel]', { hasText: 'code-reviewer' })
  const before = (await reviewer.locator('.panel-body').innerText()).length
  await expect.poll(async () => (await reviewer.locator('.panel-body').innerText()).length).toBeGreaterThan(before)

  // Stop the reviewer mid-run: it keeps its place (the pointer is there), and a toast says what stopped.
  await expect(reviewer).toHaveAttribute('data-status', 'running')
  // The pointer comes to the panel first, as a person's does (nothing moves under it from then on): measured
  // before it came, a sibling finishing meanwhile would have rearranged the grid, as it should.
  await reviewer.hover()
  const place = await reviewer.boundingBox()
  await reviewer.getByTestId('panel-stop').click()
  await expect(reviewer).toHaveAttribute('data-status', 'stopped')
  // Its header (where the pointer is) stays put; its height may give a little to a Finished list that
  // another agent's end brings in below the grid.
  const after = await reviewer.boundingBox()
  expect({ x: after!.x, y: after!.y, width: after!.width }).toEqual({ x: place!.x, y: place!.y, width: place!.width })
  await expect(page.getByTestId('toast').filter({ hasText: 'Stopped code-reviewer' })).toContainText('Review error handling in the lexer')
  // Moved away, the overview settles: the stopped agent goes to the Finished list.
  await page.mouse.move(5, 400)
  const stoppedRow = page.locator('[data-testid=finished-row]', { hasText: 'code-reviewer' })
  await expect(stoppedRow).toContainText('Stopped')

  // One asks permission; the badge counts it; approve it on the panel.
  const asking = page.locator('[data-testid=agent-panel]', { has: page.getByTestId('panel-permission') })
  await expect(asking).toHaveCount(1, { timeout: 20_000 })
  await expect(page.getByTestId('permissions-badge')).toHaveText('1')
  await expect(asking.getByTestId('panel-permission')).toContainText('npm test')
  await asking.getByTestId('perm-allow').click()
  await expect(page.getByTestId('permissions-badge')).toHaveCount(0)

  // All finish; the summary shows, naming the stopped agent.
  const summary = page.getByTestId('session-summary')
  await expect(summary).toBeVisible({ timeout: 40_000 })
  await expect(summary).toContainText('4 subagents')
  await expect(page.getByTestId('transcript')).toContainText('Summary')
  await expect(page.getByTestId('transcript')).toContainText('stopped before finishing')
  await expect(page.getByTestId('session-item').first()).toContainText('4 subagents')

  // Restart the server (new process state, new token): the session reopens from its transcripts. The page is left
  // first, as the window closes with the app: left open, its reconnect to the stopped server raced the restart, and a
  // refused connection came into the page's console errors now and then (connection-lost.spec tests reconnecting).
  await page.goto('about:blank')
  await app.restart()
  await page.goto(app.url)
  await expect(page.getByTestId('session-item')).toHaveCount(1)
  await page.getByTestId('session-item').first().click()
  await expect(page.getByTestId('session-summary')).toContainText('4 subagents')
  await expect(page.getByTestId('agent-panel')).toHaveCount(4) // all finished: every panel back in the grid
  await expect(page.locator('[data-testid=agent-panel][data-status=stopped]')).toContainText('code-reviewer')
  await expect(page.locator('[data-testid=agent-panel][data-status=completed]')).toHaveCount(3)
  // No script errors and no CSP violations along the way.
  expect(problems).toEqual([])
})

test('the page refuses to work without this launch’s token', async ({ page, openApp }) => {
  app = await openApp({ open: false })
  await page.goto(app.url.replace(/#token=.*/, ''))
  await expect(page.getByTestId('unauthorized')).toContainText('without its access token')
  await page.goto('about:blank')
  await page.goto(app.url.replace(/#token=.*/, '#token=' + 'a'.repeat(64)))
  await expect(page.getByTestId('unauthorized')).toContainText('refused', { timeout: 45_000 })
})

test('a page from before a restart says so and to open the new address, instead of reconnecting forever', async ({ page, openApp }) => {
  app = await openApp()
  await expect(page.getByTestId('connection')).toHaveText(/Connected/)
  // The folder is loaded (connected comes first; on a busy machine the folder can take longer).
  await expect(page.locator('.new-session-sub code')).toHaveText(app.project)
  const port = Number(new URL(app.url).port)
  await app.server.close()
  await expect(page.getByTestId('connection')).toHaveText(/reconnecting/)
  // Nothing can be done meanwhile: the page says it lost the connection and its controls are disabled.
  await expect(page.getByTestId('connection-lost')).toContainText('Lost the connection to Fanout')
  await expect(page.getByTestId('new-prompt')).toBeDisabled()
  // Fanout starts again at the same address, with a new token: the page stops and says what to do.
  const restarted = await startWebServer({ host: app.host, rendererDir: join(REPO_ROOT, 'out/renderer'), port })
  try {
    await expect(page.getByTestId('unauthorized')).toContainText('Fanout was restarted', { timeout: 45_000 })
  } finally {
    await restarted.close()
  }
})

test('first run: the key is write-only and never comes back to the page', async ({ page, openApp }) => {
  app = await openApp({ hasApiKey: false })
  await expect(page.getByTestId('first-run')).toBeVisible()
  await expect(page.getByTestId('first-run')).toContainText('scripted')
  const key = 'sk-ant-api03-e2e-secret-key-0123456789abcdef'
  await page.getByTestId('api-key-input').fill(key)
  await page.getByTestId('api-key-save').click()
  await expect(page.getByTestId('first-run-key-saved')).toContainText('Key saved')
  await page.getByTestId('first-run-continue').click()
  await expect(page.getByTestId('first-run')).toHaveCount(0)
  await page.getByTestId('open-settings').click()
  await expect(page.getByTestId('settings-dialog')).toContainText('A key is stored')
  await expect(page.getByTestId('api-key-input')).toHaveValue('')
  expect(await page.content()).not.toContain(key)
})

const settingsFile = () => JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8'))

test('settings: each field checks as you type, Save refuses and focuses the field, nothing bad reaches settings.json', async ({ page, openApp }) => {
  app = await openApp()
  await page.getByTestId('open-settings').click()
  const dialog = page.getByTestId('settings-dialog')
  const budget = page.getByTestId('setting-maxBudgetUsd')
  for (const bad of ['abc', '2,50', '$5']) {
    await budget.fill(bad)
    await expect(dialog.getByTestId('error-maxBudgetUsd')).toHaveText('Enter an amount in dollars, like 5 or 2.50.')
  }
  await expect(budget).toHaveAttribute('aria-invalid', 'true')
  const parallel = page.getByTestId('setting-maxConcurrentAgents')
  await parallel.fill('-3')
  await expect(dialog.getByTestId('error-maxConcurrentAgents')).toHaveText('Enter a number from 1 to 256.')
  await page.getByTestId('setting-baseUrl').fill('ftp://example.com')
  await expect(dialog.getByTestId('error-baseUrl')).toContainText('starts with http:// or https://')
  await page.getByTestId('setting-baseUrl').fill('')

  await page.getByTestId('settings-save').click()
  await expect(parallel).toBeFocused() // the first wrong field, in reading order
  await expect(dialog.getByRole('alert')).toHaveText('Nothing was saved: correct the highlighted field first.')
  await budget.scrollIntoViewIfNeeded()
  await shoot(page, 'settings-invalid')
  await expect(dialog).not.toContainText('Saved.')
  expect(settingsFile()).toEqual({ limits: { maxConcurrent: 64 } })

  await parallel.fill('4')
  await budget.fill('2.50')
  await expect(dialog.getByTestId('error-maxBudgetUsd')).toHaveCount(0)
  // The token budget: a whole number of at least 1,000, or empty for none.
  const tokens = page.getByTestId('setting-maxBudgetTokens')
  await expect(tokens).toHaveValue('')
  await tokens.fill('2.5k')
  await expect(dialog.getByTestId('error-maxBudgetTokens')).toHaveText('Enter a whole number, like 2000000.')
  await tokens.fill('500')
  await expect(dialog.getByTestId('error-maxBudgetTokens')).toHaveText('Enter a number from 1,000 to 1,000,000,000,000, or leave it empty for no limit.')
  await tokens.fill('2000000')
  await expect(dialog.getByTestId('error-maxBudgetTokens')).toHaveCount(0)
  await page.getByTestId('settings-save').click()
  await expect(dialog).toContainText('Saved.')
  expect(settingsFile().limits).toMatchObject({ maxConcurrent: 4, budgetUsd: 2.5, budgetTokens: 2_000_000 })
  await tokens.evaluate((el) => el.scrollIntoView({ block: 'center' }))
  await shoot(page, 'settings-limits')

  // The main agent has no parent: "Bubble to parent" is not offered for it.
  await expect(page.getByTestId('setting-permissionMode').locator('option')).toHaveText([
    'Ask before changes',
    'Accept edits',
    'Plan only (read-only)',
    'Don’t ask (deny unlisted)',
    'Bypass permissions'
  ])
})

test('settings: exactly the three aliases, each with its model id, a format check and a reset', async ({ page, openApp }) => {
  app = await openApp()
  await page.getByTestId('open-settings').click()
  const dialog = page.getByTestId('settings-dialog')
  await expect(dialog.locator('.alias-row')).toHaveCount(3)
  await expect(dialog.locator('.alias-name')).toHaveText(['haiku', 'sonnet', 'opus'])
  await expect(dialog.getByText('Add alias')).toHaveCount(0)
  const sonnet = dialog.getByTestId('alias-sonnet')
  const reset = sonnet.getByRole('button', { name: 'Reset to default' })
  await expect(reset).toBeDisabled()
  await sonnet.getByRole('textbox').fill('claude sonnet')
  await expect(dialog.getByTestId('error-alias.sonnet')).toContainText('A model id has no spaces')
  await sonnet.getByRole('textbox').fill('gateway/sonnet-4')
  await page.getByTestId('settings-save').click()
  await expect(dialog).toContainText('Saved.')
  expect(settingsFile().modelAliases).toEqual({ sonnet: 'gateway/sonnet-4' })
  await reset.click()
  await expect(sonnet.getByRole('textbox')).toHaveValue('claude-sonnet-5-5')
  await page.getByTestId('settings-save').click()
  await expect(dialog).toContainText('Saved.')
  expect(settingsFile().modelAliases).toEqual({})
})

test('settings: Escape asks before dropping changes, focus goes back to the opener, the theme is kept', async ({ page, openApp }) => {
  app = await openApp()
  await page.getByTestId('open-settings').click()
  await page.getByTestId('setting-maxTurns').fill('50')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('settings-discard-dialog')).toBeVisible()
  await page.getByTestId('settings-keep-editing').click()
  await expect(page.getByTestId('settings-discard-dialog')).toHaveCount(0)
  await expect(page.getByTestId('setting-maxTurns')).toHaveValue('50')
  await page.keyboard.press('Escape')
  await page.getByTestId('settings-discard').click()
  await expect(page.getByTestId('settings-dialog')).toHaveCount(0)
  await expect(page.getByTestId('open-settings')).toBeFocused()
  expect(settingsFile().limits.maxTurns).toBeUndefined()

  // Unchanged: Escape just closes.
  await page.getByTestId('open-settings').click()
  await page.getByTestId('theme-dark').click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('settings-dialog')).toHaveCount(0)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.reload()
  await expect(page.getByTestId('connection')).toHaveText(/Connected/)
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(settingsFile().theme).toBe('dark')
  await page.getByTestId('open-settings').click()
  await page.getByTestId('theme-system').click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
})

test('settings: Test connection names a refused address and where it is set; a working one answers OK', async ({ page, openApp }) => {
  await openApp()
  const server = await startScriptedServer({ respond: () => reply.text('unused') })
  try {
    await page.getByTestId('open-settings').click()
    await page.getByTestId('setting-baseUrl').fill('http://127.0.0.1:9')
    await page.getByTestId('test-connection').click()
    const result = page.getByTestId('connection-result')
    await expect(result).toContainText('Could not connect to http://127.0.0.1:9')
    await expect(result).toContainText('Check the Base URL')
    await shoot(page, 'settings-test-connection')
    await page.getByTestId('setting-baseUrl').fill(server.url)
    await page.getByTestId('test-connection').click()
    await expect(result).toHaveText(`Connected: ${server.url} answered and offers 3 models.`)
  } finally {
    await server.close()
  }
})

test('without a key: the key is checked as pasted, Skip is remembered, and a refused start offers Settings', async ({ page, openApp }) => {
  app = await openApp({ hasApiKey: false })
  await page.getByTestId('api-key-input').fill('gw-token-0123456789')
  await expect(page.getByTestId('api-key-check')).toContainText('does not look like an Anthropic API key')
  await expect(page.getByTestId('api-key-save')).toBeEnabled() // a gateway token is still accepted
  await page.getByTestId('api-key-input').fill('sk-ant-api03 abc')
  await expect(page.getByTestId('api-key-check')).toContainText('has a space')
  await expect(page.getByTestId('api-key-save')).toBeDisabled()
  await page.getByTestId('api-key-input').fill('')

  await page.getByTestId('first-run-skip').click()
  await expect(page.getByTestId('first-run')).toHaveCount(0)
  await page.reload()
  await expect(page.getByTestId('new-prompt')).toBeVisible()
  await expect(page.getByTestId('first-run')).toHaveCount(0)

  await sendPrompt(page, 'Explain this repo')
  await expect(page.getByRole('alert')).toContainText('There is no Anthropic API key yet. Add one in Settings')
  await shoot(page, 'no-key-refused')
  await page.getByTestId('open-settings-for-key').click()
  await expect(page.getByTestId('settings-dialog')).toBeVisible()
  await expect(page.getByTestId('api-key-input')).toBeFocused()
})
