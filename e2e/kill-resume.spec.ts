// A real crash: `fanout web` runs in its own process and is killed with SIGKILL in the middle of a
// fan-out, then started again on the same data. The page from before (its token is stale) keeps the
// unsent prompt, hears of the new launch and continues there; the session says who was cut off in the
// panels' words, with true times; Resume lets every agent finish under its own name and task.
import { expect, test, type Page } from '@playwright/test'
import { fanoutWebHost } from './support/fanout-web'

test.use({ viewport: { width: 1500, height: 920 } })
const host = fanoutWebHost('fanout-kill-', 'sk-ant-e2e-kill')

/** Each agent's task as its panel (or finished row) names it, by agent id. */
const descriptions = (page: Page) =>
  page.evaluate<Record<string, string>>(
    `Object.fromEntries([...document.querySelectorAll('[data-testid=agent-panel], [data-testid=finished-row]')].map((p) => [p.getAttribute('data-agent-id'), (p.querySelector('.panel-desc, .finished-desc')?.textContent ?? '').trim()]))`
  )

test('after kill -9 and Resume, every agent keeps its name; the stale page keeps the draft and continues at the new launch', async ({ page, context }) => {
  test.setTimeout(150_000)
  await host.prepare()

  const first = await host.start()
  await page.goto(first)
  await page.getByTestId('new-prompt').fill('Crash test, fan out to 6')
  await page.getByTestId('new-prompt-send').click()
  const panels = page.getByTestId('agent-panel')
  await expect(panels).toHaveCount(6, { timeout: 30_000 })
  await expect(page.locator('[data-testid=agent-panel][data-status=running]')).toHaveCount(6, { timeout: 30_000 })
  await expect(page.locator('[data-testid=agent-panel] .tail-user')).toHaveCount(6)
  const named = await descriptions(page)
  expect(Object.values(named).every((d) => d.length > 0 && !d.includes('Fanout stopped'))).toBe(true)
  // They work a while before the crash: each has streamed its first reply, and its clock has run a second.
  await expect(panels.filter({ has: page.locator('.panel-body .markdown') })).toHaveCount(6, { timeout: 30_000 })
  await expect.poll(async () => (await panels.locator('[title=Elapsed]').allInnerTexts()).filter((clock) => clock === '0:00')).toEqual([])
  await page.getByTestId('followup').fill('a message I had not sent when it crashed')

  // The crash.
  await host.kill()
  const second = await host.start()

  // The old page cannot connect (its token is the old launch's) and says so, keeping the draft.
  await expect(page.getByTestId('unauthorized')).toBeVisible({ timeout: 40_000 })
  await expect(page.getByTestId('gate-drafts')).toContainText('a message I had not sent when it crashed')
  // A page of the new launch at the same address: the old one offers to continue there.
  expect(new URL(second).origin).toBe(new URL(first).origin)
  const fresh = await context.newPage()
  await fresh.goto(second)
  await expect(fresh.getByTestId('connection')).toHaveText(/Connected/)
  await page.getByTestId('gate-continue').click()

  // Back in the session it had open, with the draft.
  await expect(page.getByTestId('interrupted-bar')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('followup')).toHaveValue('a message I had not sent when it crashed')
  // The notice counts as the panels do, and the cut-off agents keep their names and their time.
  await expect(page.getByTestId('interrupted-bar')).toContainText('Fanout stopped while the main agent and 6 subagents were working')
  await expect(page.getByTestId('tab-panels')).toContainText('6')
  const cut = page.locator('[data-testid=agent-panel][data-status=interrupted]')
  await expect(cut).toHaveCount(6)
  expect(await descriptions(page)).toEqual(named)
  for (const clock of await cut.locator('[title=Elapsed]').allInnerTexts()) expect(clock).not.toBe('0:00')

  await page.getByTestId('followup').fill('')
  await page.getByTestId('resume-interrupted').click()
  await expect(page.getByTestId('interrupted-bar')).toHaveCount(0, { timeout: 20_000 })
  // The test-writers ask to run `npm test`: allowed as they ask, until the session is done.
  await expect(async () => {
    const allow = page.getByTestId('perm-allow')
    // A button that leaves between the count and the click must not hold the loop (a click waits for its target).
    if (await allow.count())
      await allow
        .first()
        .click({ timeout: 1000 })
        .catch(() => undefined)
    await expect(page.getByTestId('session-summary')).toContainText('Finished', { timeout: 1000 })
  }).toPass({ timeout: 90_000 })
  // Every agent, its panel, its row in the tree and the timeline, under its own name and task.
  expect(await descriptions(page)).toEqual(named)
  // (Their transcripts say where Fanout stopped them, as they should: the names do not.)
  await page.getByTestId('tab-timeline').click()
  const labels = await page.locator('.tl-desc').allInnerTexts()
  expect(labels.length).toBe(7)
  for (const d of Object.values(named)) expect(labels).toContain(d)
  expect(labels.filter((l) => l.includes('Fanout stopped'))).toEqual([])
  await expect(page.getByTestId('header-agent-count')).toHaveText('6 subagents')
  // The search index, begun by the process that was killed and caught up by the new one, finds what the
  // resumed test-writer's `npm test` printed, and every agent's task from before the crash.
  await page.getByTestId('search-session-button').click()
  await page.getByTestId('search-input').fill('parses numbers')
  await expect(page.locator('[data-testid=search-hit][data-kind=tool_output]')).toHaveCount(1)
  await page.getByTestId('search-input').fill('"Review error handling in the lexer"')
  await expect(page.locator('[data-testid=search-hit][data-kind=prompt]')).toHaveCount(2)
  await fresh.close()
})
