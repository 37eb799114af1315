// Search and replay in browser mode, on a real fan-out (real runtime, tools and transcripts; a scripted
// model): a string from one agent's tool output is found and opens that agent at that place; replay
// shows, at a moment captured live, exactly what the live page showed; a reload returns to the session
// and agent that were open. Screenshots of both at 1024, 1280 and 1920, light and dark.
import type { Page } from '@playwright/test'
import { expect, test, allowTheOneAsking, type OpenApp } from './support/app-test'
import type { AgentEvent } from '../src/shared/events'
import type { BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.use({ viewport: { width: 1500, height: 920 } })

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

/** Four agents at a slow pace; the test-writer's `npm test` waits for an answer. Returns the session's id. */
async function startFanOut(page: Page, openApp: OpenApp, before?: (app: BrowserMode) => void): Promise<string> {
  app = await openApp({ speed: 0.3, before, prompt: 'Review the parser, fan out to 4' })
  await expect(page.getByTestId('agent-panel').first()).toBeVisible({ timeout: 20_000 })
  return (await app.host.handlers['sessions.list']({})).sessions[0].sessionId
}

test('search finds a string from one agent’s tool output and opens that agent there', async ({ page, openApp }) => {
  await startFanOut(page, openApp)
  await allowTheOneAsking(page)
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
  // A subagent's tool output is found across sessions too, saying where: the session, whose (task first), the
  // turn and the tool; the words only, never the envelopes the model reads.
  await page.getByTestId('search-input').fill('parses numbers')
  const across = page.locator('[data-testid=search-hit][data-kind=tool_output]')
  await expect(across).toHaveCount(1)
  await expect(across).toHaveAttribute('data-agent-id', tester!)
  await expect(across.locator('.search-hit-session')).not.toBeEmpty()
  await expect(across.getByTestId('search-hit-agent')).toHaveText(/^Run the parser test suite.*\(test-writer\)$/)
  await expect(across.getByTestId('search-hit-turn')).toHaveText('turn 2')
  await expect(across).toContainText('Tool output: Bash')
  await page.getByTestId('search-input').fill('parser')
  await expect(page.getByTestId('search-hit').first()).toBeVisible()
  await expect(page.getByTestId('search-results')).not.toContainText(/<\/?(agent-message|task-notification|system-reminder)/)
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: width === 1920 ? 1080 : 800 })
    await page.getByTestId('search-scope-session').click()
    await page.getByTestId('search-input').fill('parse')
    await expect(page.getByTestId('search-hit').first()).toBeVisible()
    await shoot(page, `search-results-${width}`)
  }
})

test('replay shows, at a moment of the run, exactly what the live page showed then', async ({ page, openApp }) => {
  const seen: AgentEvent[] = []
  const sessionId = await startFanOut(page, openApp, (app) => void app.host.onEvents((batch) => seen.push(...batch)))
  // The moment: the test-writer waits for permission and the three others have finished, so nothing
  // changes until the person answers.
  const asking = page.locator('[data-testid=agent-panel]', { has: page.getByTestId('panel-permission') })
  await expect(asking).toHaveCount(1, { timeout: 30_000 })
  await expect.poll(() => seen.filter((e) => e.sessionId === sessionId && e.type === 'agent_end').length, { timeout: 30_000 }).toBe(3)
  // The page has drawn every event it was sent: the three finished, the test-writer waiting, and what it
  // shows the same from one look to the next.
  await expect(page.locator('[data-testid=finished-row], [data-testid=agent-panel][data-status=completed]')).toHaveCount(3)
  await expect(page.locator('[data-testid=agent-panel][data-status=waiting_permission]')).toHaveCount(1)
  let live = ''
  await expect
    .poll(async () => {
      const before = live
      live = await whatIsShown(page)
      return live === before
    })
    .toBe(true)
  expect(live).toContain('test-writer')
  const recorded = () => seen.filter((e) => e.seq !== undefined)
  const quiet = recorded().length
  const moment = recorded().at(-1)!
  await asking.getByTestId('perm-allow').click()
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 40_000 })
  // Nothing happened while it waited: the first event after the moment is the person's answer.
  const next = recorded()[quiet]
  expect(next.type).toBe('permission_response')

  // Replay, then put the scrubber in the middle of that quiet stretch (from the last event before the
  // answer to the first after it).
  await page.getByTestId('replay-button').click()
  const scrubber = page.getByTestId('replay-scrubber')
  await expect(scrubber).toBeVisible()
  const { timeline } = await app.host.handlers['replay.open']!({ sessionId })
  const box = (await scrubber.boundingBox())!
  const x = box.x + (((moment.ts + next.ts) / 2 - timeline.startTs) / (timeline.endTs - timeline.startTs)) * box.width
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

test('a reload returns to the session and the agent that were open, with the unsent prompt', async ({ page, openApp }) => {
  await startFanOut(page, openApp)
  await allowTheOneAsking(page)
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
