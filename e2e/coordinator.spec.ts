// Coordinator mode in browser mode over the real host: turned on in Settings, a prompt runs through the four
// phases — panels grouped under each phase, an agent team working from its task list on its board, a
// verifier whose `npm test` the person approves — with screenshots of the phase view and the team board.
import { expect, test, sendPrompt, watchProblems } from './support/app-test'
import { shoot } from './support/screens'

test.use({ viewport: { width: 1600, height: 960 } })

test('coordinator mode: four phases, the team board, verification', async ({ page, openApp }) => {
  const problems = watchProblems(page, { console: true })
  await openApp({ speed: 1, connected: true })

  // Settings: coordinator mode on (teams come with it), edits allowed without asking.
  await page.getByTestId('open-settings').click()
  await page.getByTestId('setting-coordinator').check()
  await expect(page.getByTestId('setting-agentTeams')).toBeChecked()
  await expect(page.getByTestId('setting-agentTeams')).toBeDisabled()
  await page.getByTestId('setting-permissionMode').selectOption('acceptEdits')
  await page.getByTestId('setting-coordinator').scrollIntoViewIfNeeded()
  await shoot(page, '15-settings-orchestration')
  await page.getByTestId('settings-save').click()
  await expect(page.getByTestId('settings-dialog')).toContainText('Saved.')
  await page.keyboard.press('Escape')

  await sendPrompt(page, 'Make lexer errors say where they happened')

  // The phase strip follows the coordinator; research agents appear under their phase.
  const strip = page.getByTestId('phase-strip')
  await expect(strip.locator('[data-progress=current]')).toHaveAttribute('data-phase', 'research', { timeout: 20_000 })
  // Implementation: the team's two members run, grouped under their phase, while earlier phases are done.
  await expect(strip.locator('[data-progress=current]')).toHaveAttribute('data-phase', 'implementation', { timeout: 30_000 })
  const implementation = page.locator('[data-testid=phase-section][data-phase=implementation]')
  await expect(implementation.getByTestId('agent-panel')).toHaveCount(2, { timeout: 20_000 })
  await expect(strip.locator('[data-phase=research]')).toHaveAttribute('data-progress', 'done')
  await expect(strip.locator('[data-phase=synthesis]')).toHaveAttribute('data-progress', 'done')
  await expect(implementation.locator('[data-testid=agent-panel][data-status=running]')).toHaveCount(2)
  await shoot(page, '11-coordinator-phases')
  // At 1280 the strip's steps shrink instead of running off the pane: Verification stays in view.
  await page.setViewportSize({ width: 1280, height: 800 })
  await expect(strip.locator('[data-phase=verification]')).toBeInViewport({ ratio: 1 })
  await page.screenshot({ path: 'e2e/artifacts/screens/fix-1280-coordinator-phases.png' })
  await page.setViewportSize({ width: 1600, height: 960 })

  // The team board: both members, the three tasks moving through the columns, messages as they arrive.
  await page.getByTestId('tab-team').click()
  const board = page.getByTestId('team-board')
  await expect(board.getByTestId('team-member')).toHaveCount(2)
  await expect(board.getByTestId('team-task')).toHaveCount(3)
  await expect(board.getByTestId('task-column-in_progress').getByTestId('team-task')).not.toHaveCount(0, { timeout: 20_000 })
  // The coordinator ended its turn while the team works: the session still reads as running, not done.
  await expect(page.getByTestId('session-still-working')).toContainText('2 subagents still working')
  await expect(page.locator('.session-header-title')).toContainText('Running')
  await expect(page.getByTestId('session-summary')).toHaveCount(0)
  await shoot(page, '12-team-board')

  // Verification: the verifier asks to run `npm test`; approve it on its panel.
  await page.getByTestId('tab-panels').click()
  await expect(strip.locator('[data-progress=current]')).toHaveAttribute('data-phase', 'verification', { timeout: 40_000 })
  const asking = page.locator('[data-testid=agent-panel]', { has: page.getByTestId('panel-permission') })
  await expect(asking).toHaveCount(1, { timeout: 20_000 })
  await expect(asking.getByTestId('panel-permission')).toContainText('npm test')
  await asking.getByTestId('perm-allow').click()

  // The run ends: every agent is in the grid under its phase, and the board shows the finished team.
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 40_000 })
  await expect(page.getByTestId('transcript')).toContainText('Verification: FAIL: 2 passed, 1 failed')
  // The team members' reports reached the coordinator as report rows, never as the person's words in XML.
  await expect(page.getByTestId('task-report')).not.toHaveCount(0)
  await expect(page.getByTestId('transcript')).not.toContainText('<task-notification>')
  await expect(page.getByTestId('transcript')).not.toContainText('agentId:')
  // Nothing runs any more: no phase reads as under way.
  await expect(strip.locator('[data-progress=current]')).toHaveCount(0)
  await expect(strip.locator('[data-phase=verification]')).toHaveAttribute('data-progress', 'done')
  // The person moves on from the overview (it holds still under the pointer): it settles, every agent back.
  await page.mouse.move(5, 5)
  const count = (phase: string) => page.locator(`[data-testid=phase-section][data-phase=${phase}] [data-tile]`)
  await expect(count('research')).toHaveCount(2)
  await expect(count('synthesis')).toHaveCount(1)
  await expect(count('implementation')).toHaveCount(2)
  await expect(count('verification')).toHaveCount(1)
  await shoot(page, '13-coordinator-finished')
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.screenshot({ path: 'e2e/artifacts/screens/fix-1280-coordinator-finished.png' })
  await page.setViewportSize({ width: 1600, height: 960 })

  await page.getByTestId('tab-team').click()
  await expect(board.getByTestId('task-column-completed').getByTestId('team-task')).toHaveCount(3)
  await expect(board.getByTestId('team-progress')).toHaveText('3 of 3 tasks done')
  await expect(board.locator('[data-testid=team-member][data-status=idle]')).toHaveCount(2)
  // Each member worked on its own branch; the lead heard from both.
  await expect(board.locator('.member-branch')).toHaveCount(2)
  await expect(board.getByTestId('team-message')).not.toHaveCount(0)
  await shoot(page, '14-team-board-done')
  expect(problems).toEqual([])
})
