// Search and replay in browser mode, on a real fan-out (real runtime, tools and transcripts; a scripted
// model): a string from one agent's tool output is found and opens that agent at that place; replay
// shows, at a moment captured live, exactly what the live page showed; a reload returns to the session
// and agent that were open. Screenshots of both at 1024, 1280 and 1920, light and dark.
import { expect, test, type Page } from '@playwright/test'
import type { AgentEvent } from '../src/shared/events'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.use({ viewport: { width: 1500, height: 920 } })
test.afterEach(async () => app?.close())

/** What a person reads in the session: every panel, row and transcript, without controls or clocks. */
async function whatIsShown(page: Page): Promise<string> {
  // A string, run in the page (the e2e code is type-checked without the DOM's types).
  return page.evaluate<string>(`(() => {
    const pick = (sel) => [...document.querySelectorAll(sel)]
    const clean = (el) => {
      const c = el.cloneNode(true)
      for (const x of c.querySelectorAll('button, select, input, textarea, .panel-actions, .conversation-bottom, .permission-actions, [title="Elapsed"], .tl-axis')) x.remove()
      return (c.textContent ?? '').replace(/\\d+:\\d\\d(:\\d\\d)?/g, '#:##').replace(/\\s+/g, ' ').trim()
    }
    const panels = pick('[data-testid=agent-panel], [data-testid=finished-row]').map((p) => p.getAttribute('data-agent-id') + '|' + (p.getAttribute('data-status') ?? '') + '|' + clean(p))
    return [...panels.sort(), 'conversation|' + pick('.conversation [data-testid=transcript]').map(clean).join(''), 'tabs|' + pick('[data-testid=pane-tabs]').map(clean).join('')].join('\\n')
  })()`)
}

async function startFanOut(page: Page, prompt: string): Promise<string> {
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill(prompt)
  await page.getByTestId('new-prompt-send').click()
  await expect(page.getByTestId('agent-panel').first()).toBeVisible({ timeout: 20_000 })
  return (await app.host.listSessions({})).sessions[0].sessionId
}

test('search finds a string from one agent’s tool output and opens that agent there', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true, speed: 0.3 })
  await startFanOut(page, 'Review the parser, fan out to 4')
  const asking = page.locator('[data-testid=agent-panel]', { has: page.getByTestId('panel-permission') })
  await expect(asking).toHaveCount(1, { timeout: 30_000 })
  await asking.getByTestId('perm-allow').click()
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 40_000 })
  const tester = await page.locator('[data-testid=agent-panel], [data-testid=finished-row]', { hasText: 'test-writer' }).getAttribute('data-agent-id')

  // "parses numbers" is only in the test-writer's `npm test` output.
  await page.getByTestId('search-session-button').click()
  await page.getByTestId('search-input').fill('parses numbers')
  const hits = page.getByTestId('search-hit')
  await expect(hits).toHaveCount(1)
  await expect(hits.first()).toHaveAttribute('data-kind', 'tool_output')
  await expect(hits.first()).toHaveAttribute('data-agent-id', tester!)
  await expect(hits.first()).toContainText('Tool output: Bash')
  await expect(hits.first().locator('mark').first()).toHaveText('parses')
  await expect(hits.first().locator('mark', { hasText: 'numbers' })).toHaveCount(1)
  await page.getByTestId('search-input').press('Enter')

  // The agent opens (its panel, maximized) at that tool call: scrolled to, open, marked.
  const panel = page.getByTestId('maximized-panel')
  await expect(panel).toContainText('test-writer')
  const row = panel.locator('[data-revealed=true]')
  await expect(row).toBeVisible()
  await expect(row).toContainText('parses numbers')
  await expect(row).toBeInViewport()

  // Across sessions: its prompt and report, by title or words.
  await page.getByTestId('search-all-button').click()
  await page.getByTestId('search-input').fill('bad-token line')
  // The test-writer's report says it, and the main agent's summary repeats it.
  await expect(page.locator('[data-testid=search-hit][data-kind=report]')).toHaveCount(2)
  await expect(page.locator('[data-testid=search-hit][data-kind=report]', { hasText: 'test-writer' })).toHaveCount(1)
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: width === 1920 ? 1080 : 800 })
    await page.getByTestId('search-scope-session').click()
    await page.getByTestId('search-input').fill('parse')
    await expect(page.getByTestId('search-hit').first()).toBeVisible()
    await shoot(page, `search-results-${width}`)
  }
})

test('replay shows, at a moment of the run, exactly what the live page showed then', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true, speed: 0.3 })
  const seen: AgentEvent[] = []
  app.host.onEvents((batch) => seen.push(...batch))
  const sessionId = await startFanOut(page, 'Review the parser, fan out to 4')
  // The moment: the test-writer waits for permission and the three others have finished, so nothing
  // changes until the person answers.
  const asking = page.locator('[data-testid=agent-panel]', { has: page.getByTestId('panel-permission') })
  await expect(asking).toHaveCount(1, { timeout: 30_000 })
  await expect.poll(() => seen.filter((e) => e.sessionId === sessionId && e.type === 'agent_end').length, { timeout: 30_000 }).toBe(3)
  const quiet = seen.filter((e) => e.seq !== undefined).length
  await page.waitForTimeout(1500) // the page shows every event it was sent (and the moment lasts)
  expect(seen.filter((e) => e.seq !== undefined).length).toBe(quiet)
  const moment = seen.filter((e) => e.seq !== undefined).at(-1)!
  const live = await whatIsShown(page)
  expect(live).toContain('test-writer')
  await page.waitForTimeout(1500)
  await asking.getByTestId('perm-allow').click()
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 40_000 })

  // Replay, then put the scrubber in that quiet stretch (a second after the last event before it).
  await page.getByTestId('replay-button').click()
  const scrubber = page.getByTestId('replay-scrubber')
  await expect(scrubber).toBeVisible()
  const { timeline } = await app.host.openReplay!({ sessionId })
  const box = (await scrubber.boundingBox())!
  const x = box.x + ((moment.ts + 1000 - timeline.startTs) / (timeline.endTs - timeline.startTs)) * box.width
  await page.mouse.click(x, box.y + box.height / 2)
  // The frame: the test-writer waits for its answer, as it did.
  await expect(page.locator('[data-testid=agent-panel][data-status=waiting_permission]')).toHaveCount(1)
  await expect.poll(() => whatIsShown(page)).toBe(live)
  // Nothing in the past can be acted on.
  await expect(page.getByTestId('perm-allow')).toBeHidden()
  await expect(page.getByTestId('followup')).toBeHidden()
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: width === 1920 ? 1080 : 800 })
    await expect(scrubber).toBeVisible()
    await shoot(page, `replay-scrubber-${width}`)
  }
  await page.setViewportSize({ width: 1500, height: 920 })

  // Play at 20×: it runs to the end and shows the session as it finished.
  await page.getByTestId('replay-speed').selectOption('20')
  await page.getByTestId('replay-play').click()
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('replay-play')).toHaveAttribute('aria-label', 'Play', { timeout: 30_000 })
  await expect(page.locator('[data-testid=agent-panel][data-status=completed]')).toHaveCount(4)
  // Leaving the replay shows the session as it is, its prompt box back.
  await page.getByTestId('replay-close').click()
  await expect(page.getByTestId('replay-bar')).toHaveCount(0)
  await expect(page.getByTestId('followup')).toBeVisible()
})

test('a reload returns to the session and the agent that were open, with the unsent prompt', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true, speed: 0.3 })
  await startFanOut(page, 'Review the parser, fan out to 4')
  const asking = page.locator('[data-testid=agent-panel]', { has: page.getByTestId('panel-permission') })
  await expect(asking).toHaveCount(1, { timeout: 30_000 })
  await asking.getByTestId('perm-allow').click()
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 40_000 })
  // The pointer moves on from the overview (it holds still under the pointer): every agent back in the grid.
  await page.mouse.move(5, 5)
  const row = page.locator('[data-testid=agent-panel], [data-testid=finished-row]', { hasText: 'docs-writer' })
  await expect(row).toHaveAttribute('data-testid', 'agent-panel')
  const agentId = await row.getAttribute('data-agent-id')
  await row.getByTestId('panel-maximize').click()
  await expect(page.getByTestId('maximized-panel')).toContainText('docs-writer')
  await page.getByTestId('followup').fill('a follow-up I have not sent yet')
  const title = await page.getByTestId('session-title').innerText()

  await page.reload()
  await expect(page.getByTestId('session-title')).toHaveText(title)
  await expect(page.getByTestId('maximized-panel')).toContainText('docs-writer')
  await expect(page.locator(`[data-testid=maximized-panel]`)).toBeVisible()
  expect(await page.evaluate<string>("JSON.parse(sessionStorage.getItem('fanout-view') ?? '{}').maximizedAgentId")).toBe(agentId)
  await expect(page.getByTestId('followup')).toHaveValue('a follow-up I have not sent yet')
})
