// What a new user reads in a fan-out says one thing one way: every view counts subagents in the same words,
// an agent type keeps one color that is not another agent's, the permission card shows the command once, a
// Bash call's time is its run time (not the wait for permission), an Agent card never reads just "subagent",
// and the maximize button says what it does.
import { expect, test, type Locator, type Page } from '@playwright/test'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'
import type { AgentEvent, PermissionRequestEvent, PermissionResponseEvent } from '../src/shared/events'

let app: BrowserMode
test.use({ viewport: { width: 1440, height: 900 } })
test.afterEach(async () => app?.close())

const colorOf = (el: Locator) => el.evaluate((e) => e.ownerDocument.defaultView!.getComputedStyle(e).getPropertyValue('--agent-color').trim())

/** Records the type word of every Agent card still starting, as each render commits. */
async function watchStartingCards(page: Page) {
  await page.addInitScript({
    content: `window.startingCards = []
      new MutationObserver(() => {
        for (const card of document.querySelectorAll('.agent-card.pending')) window.startingCards.push(card.querySelector('.agent-card-desc')?.textContent ?? '(no type yet)')
      }).observe(document, { subtree: true, childList: true, characterData: true })`
  })
}

test('eight agents: counts in one wording, one color per type, the command once, run time without the wait', async ({ page }) => {
  test.setTimeout(120_000)
  app = await startBrowserMode({ hasApiKey: true })
  const events: AgentEvent[] = []
  app.host.onEvents((batch) => events.push(...batch))
  await watchStartingCards(page)
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Check everything, fan out to 8')
  await page.getByTestId('new-prompt-send').click()
  await expect(page.getByTestId('permissions-badge')).toHaveText('2', { timeout: 30_000 })

  // Counts: the main agent is never among them, and every view says "subagents".
  await expect(page.getByTestId('tab-panels')).toHaveText(/^\s*Subagents\s*8$/)
  await expect(page.getByTestId('header-agent-count')).toHaveText(/^\s*\d of 8 subagents working$/)
  await expect(page.getByTestId('status-subagents')).toHaveText('8 subagents')
  await expect(page.getByTestId('session-item').first()).toContainText('8 subagents')

  // Colors: both Explore agents alike, in panels and cards, and unlike the agents that declare a color.
  const panel = (description: string) => page.getByTestId('agent-panel').filter({ hasText: description })
  // A panel, or the row it folds into once its agent is done.
  const agent = (description: string) => page.locator('[data-tile], [data-testid=finished-row]').filter({ hasText: description })
  await expect(agent('Map the parser and its callers')).toHaveCount(2)
  const explore = await Promise.all([0, 1].map((i) => colorOf(agent('Map the parser and its callers').nth(i))))
  expect(explore[0]).toBe(explore[1])
  const declared = await Promise.all(
    ['Review error handling in the lexer', 'Run the parser test suite', 'Check the README against the API'].map((d) => colorOf(agent(d).first()))
  )
  expect(new Set(declared).size).toBe(3) // purple, green, orange
  expect(declared).not.toContain(explore[0])
  const exploreCards = page.getByTestId('agent-card').filter({ hasText: 'Map the parser and its callers' })
  await expect(exploreCards).toHaveCount(2)
  for (const card of await exploreCards.all()) expect(await colorOf(card)).toBe(explore[0])
  // A card starting up named its type (or "a subagent"), never the bare word "subagent".
  const starting = await page.evaluate<string[]>('window.startingCards')
  expect(starting.length).toBeGreaterThan(0) // the watch saw cards starting (the Agent calls stream in pieces)
  expect(starting.filter((t) => t === 'subagent')).toEqual([])

  // The maximize button says what it does.
  await expect(panel('Run the parser test suite').first().getByTestId('panel-maximize')).toHaveAttribute('title', /^Maximize this panel/)
  await shoot(page, 'wording-grid')

  // The permission card: the command in its box, once; no "Bash wants to run: npm test" under it.
  await page.getByTestId('permissions-button').click()
  // The two test-writers' requests are alike: one card for both.
  const card = page.getByTestId('permission-queue').getByTestId('permission-group')
  await expect(card.locator('.permission-summary')).toHaveText('npm test')
  await expect(card).not.toContainText('wants to run')
  await expect(card.getByTestId('permission-reason')).toHaveCount(0)
  await shoot(page, 'wording-permission-card')
  await page.keyboard.press('Escape')

  // The person takes a few seconds, then allows one test-writer from its maximized transcript: its Bash
  // call's time is the run alone, and the wait is told apart.
  const writer = panel('Run the parser test suite').first()
  await writer.getByTestId('panel-maximize').click()
  const maximized = page.getByTestId('maximized-panel')
  const bash = maximized.locator('[data-testid=tool-row][data-tool=Bash]')
  await expect(bash.locator('.tool-permission')).not.toContainText('wants to run')
  // Three seconds at least go by, by the agent's own clock (it runs on while the agent waits for the person).
  const clock = maximized.locator('[title=Elapsed]').first()
  const clockSeconds = async () => (await clock.innerText()).split(':').reduce((total, part) => total * 60 + Number(part), 0)
  const asked = await clockSeconds()
  await expect.poll(clockSeconds, { timeout: 20_000 }).toBeGreaterThanOrEqual(asked + 4)
  await bash.getByTestId('perm-allow').click()
  const meta = bash.locator('.tool-meta')
  await expect(meta).toHaveAttribute('title', /, after [\d.]+ s waiting for you$/, { timeout: 20_000 })
  const shown = (await meta.textContent())!.trim()
  const seconds = shown.endsWith(' ms') ? parseFloat(shown) / 1000 : parseFloat(shown)
  // The run alone: from the person's answer to the command's end (as recorded), however long the machine
  // took to run it — not the three seconds and more before the answer.
  const answer = events.find((e): e is PermissionResponseEvent => e.type === 'permission_response')!
  const asking = events.find((e) => e.type === 'permission_request' && e.requestId === answer.requestId) as PermissionRequestEvent
  const end = events.find((e) => e.type === 'tool_end' && e.toolUseId === asking.toolUseId)!
  expect(Math.abs(seconds - (end.ts - answer.ts) / 1000), `the run time shown: ${shown}`).toBeLessThanOrEqual(0.2)
  await bash.locator('.tool-head').click()
  await expect(bash.locator('.tool-section-label').filter({ hasText: 'Output' })).toContainText('waiting for you')
  await shoot(page, 'wording-bash-run-time')
})
