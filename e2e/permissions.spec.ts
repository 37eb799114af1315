// Alike requests share one card: "Always allow" says which rule it adds and answers every waiting request
// that rule covers; "Allow all N" allows them once each. The dialog closes after the last answer.
import { expect, test, expectWaiting } from './support/app-test'
import { shoot } from './support/screens'

test.use({ viewport: { width: 1280, height: 800 } })

test('permission queue: the rule Always allow adds, applied to the alike requests waiting', async ({ page, openApp }) => {
  // Eight agents: two test-writers each ask to run `npm test`.
  await openApp({ prompt: 'Check everything, fan out to 8' })
  await expectWaiting(page, 2, { open: true })
  const queue = page.getByTestId('permission-queue')
  // Alike requests (same tool, same rule) share one card, with one answer for all.
  const group = queue.getByTestId('permission-group')
  await expect(group).toHaveCount(1)
  await expect(group.getByTestId('permission-group-item')).toHaveCount(2)
  await expect(group.locator('.permission-summary')).toHaveText('npm test')
  await expect(group.getByTestId('perm-allow-all')).toHaveText('Allow all 2')
  await expect(group.getByTestId('perm-always-all')).toHaveText('Always allow Bash(npm test:*)')
  await expect(group.getByTestId('perm-deny-all')).toHaveText('Deny all 2')
  await shoot(page, 'perm-queue-always')

  // "Always" answers both; with the last answer the dialog closes.
  await group.getByTestId('perm-always-all').click()
  await expect(queue).toHaveCount(0)
  await expect(page.getByTestId('permissions-badge')).toHaveCount(0)
  // Opened with nothing waiting, it says so and stays.
  await page.getByTestId('permissions-button').click()
  await expect(page.getByTestId('permission-queue')).toContainText('Nothing is waiting for your approval.')
})

test('permission queue: Allow all N answers a group once each, without a rule', async ({ page, openApp }) => {
  await openApp({ prompt: 'Check everything, fan out to 8' })
  await expectWaiting(page, 2, { open: true })
  await page.getByTestId('permission-group').getByTestId('perm-allow-all').click()
  await expect(page.getByTestId('permission-queue')).toHaveCount(0)
  await expect(page.getByTestId('permissions-badge')).toHaveCount(0)
  // Both test-writers ran their command.
  await expect(page.locator('[data-tile]').filter({ hasText: 'Run the parser test suite' }).filter({ hasText: 'npm test' })).toHaveCount(0, { timeout: 20_000 })
})
