// A dead server looks dead: `fanout web` runs in its own process and is killed with SIGKILL while agents run
// and one waits for an approval. Within 2 s the page greys out and says it lost the connection, nothing on
// it can act (Allow, Deny, Send, Stop), and running agents' clocks stop where the connection went. Started
// again on the same data and continued there, the main agent's conversation tells of the restart in one
// human line: not the model's note with its hex agent ids.
import { expect, test } from '@playwright/test'
import { fanoutWebHost } from './support/fanout-web'
import { shoot } from './support/screens'

const host = fanoutWebHost('fanout-lost-', 'sk-ant-e2e-lost')

test('killing the host greys the page within 2 s, disables every action and stops its clocks; the restart reads as one line', async ({ page, context }) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 1280, height: 860 })
  await host.prepare()

  const first = await host.start()
  await page.goto(first)
  await page.getByTestId('new-prompt').fill('Review the parser, fan out to 4')
  await page.getByTestId('new-prompt-send').click()
  // The test-writer asks to run `npm test` and waits; the main agent waits on its subagents meanwhile.
  await expect(page.getByTestId('perm-allow').first()).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('perm-allow').first()).toBeEnabled()
  await expect(page.getByTestId('stop-session')).toBeEnabled()
  await expect(page.getByTestId('connection-lost')).toHaveCount(0)
  await page.getByTestId('followup').fill('typed before it died')

  // The host dies.
  await host.kill()
  await expect(page.getByTestId('connection-lost')).toBeVisible({ timeout: 2_000 })
  await expect(page.getByTestId('connection-lost')).toContainText('Lost the connection to Fanout')
  // Nothing can act: the approval, the prompt box and its Send, Stop.
  await expect(page.getByTestId('perm-allow').first()).toBeDisabled()
  await expect(page.getByTestId('perm-deny').first()).toBeDisabled()
  await expect(page.getByTestId('followup')).toBeDisabled()
  await expect(page.getByTestId('followup-send')).toBeDisabled()
  await expect(page.getByTestId('stop-session')).toBeDisabled()
  await expect(page.getByTestId('followup')).toHaveValue('typed before it died')
  // Greyed out: the page under the banner is drawn in grey.
  expect(await page.evaluate(`getComputedStyle(document.querySelector('.main')).filter`)).toContain('grayscale')
  // The clocks stand still: what a running agent's clock read is what it reads seconds later.
  const clocks = page.locator('[title=Elapsed]')
  await expect(clocks.first()).toBeVisible()
  const before = await clocks.allInnerTexts()
  await page.waitForTimeout(2_500) // proves an absence: a live clock ticks every second
  expect(await clocks.allInnerTexts()).toEqual(before)
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: width === 1920 ? 1080 : 800 })
    await shoot(page, `connection-lost-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 860 })

  // Started again on the same data; the old page (its token is the old launch's) continues at the new one.
  const second = await host.start()
  const fresh = await context.newPage()
  await fresh.goto(second)
  await expect(fresh.getByTestId('connection')).toHaveText(/Connected/)
  await expect(page.getByTestId('gate-continue')).toBeVisible({ timeout: 40_000 })
  await page.getByTestId('gate-continue').click()
  await expect(page.getByTestId('interrupted-bar')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('connection-lost')).toHaveCount(0)
  await page.getByTestId('followup').fill('')
  await page.getByTestId('resume-interrupted').click()

  // The main agent is told of the restart in the model's words; the person reads one line, no agent ids.
  const conversation = page.locator('.conversation')
  const note = conversation.locator('.msg-notice', { hasText: 'Fanout restarted after it was closed or crashed' })
  await expect(note).toHaveCount(1, { timeout: 30_000 })
  await expect(note).toContainText(/subagents? (was|were) cut off/)
  await expect(note).not.toHaveText(/[0-9a-f]{8,}/)
  await expect(conversation).not.toContainText('has now restarted')
  await expect(conversation).not.toContainText('<task-notification>')
  await shoot(page, 'restart-note-1280')
})
