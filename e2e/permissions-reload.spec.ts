// Permission requests of sessions the page has not opened: after a reload (or in a second window) the
// Permissions button still counts every request waiting in any live session, the queue lists them by
// session and answers them, and the session list shows those sessions as waiting, not plain running.
import { expect, test, sendPrompt, watchProblems, expectWaiting } from './support/app-test'

test.use({ viewport: { width: 1280, height: 800 } })

test('after a reload, requests of sessions not opened are counted, listed, answerable, and their rows say they wait', async ({ page, openApp }) => {
  const problems = watchProblems(page)
  // Three agents each: the test-writer asks to run `npm test` and waits.
  await openApp({ prompt: 'First check, fan out to 3' })
  await expectWaiting(page, 1)
  await page.getByTestId('new-session').click()
  await sendPrompt(page, 'Second check, fan out to 3')
  await expectWaiting(page, 2)

  // A third session that asks for nothing (Explore and the reviewer only read).
  await page.getByTestId('new-session').click()
  await sendPrompt(page, 'Third look, fan out to 2')
  await expect(page.getByTestId('session-title')).toHaveText('Third look, fan out to 2')

  await page.reload()
  const rows = page.getByTestId('session-row')
  await expect(rows).toHaveCount(3)
  // Only the third session is opened: the other two's requests come from the host all the same.
  await rows.filter({ hasText: 'Third look' }).getByTestId('session-item').click()
  await expect(page.getByTestId('session-title')).toHaveText('Third look, fan out to 2')
  await expect(page.getByTestId('permissions-badge')).toHaveText('2')
  for (const title of ['First check', 'Second check']) {
    const row = rows.filter({ hasText: title })
    await expect(row.getByTestId('session-waiting')).toHaveText('1 waiting')
    await expect(row.getByTestId('session-item')).toHaveAttribute('title', /\nNeeds permission/)
    await expect(row.locator('.status-dot')).toHaveClass(/status-waiting_permission/)
  }

  await page.getByTestId('permissions-button').click()
  const queue = page.getByTestId('permission-queue')
  const items = queue.locator('.queue-item')
  await expect(items).toHaveCount(2)
  await expect(items.filter({ hasText: 'First check, fan out to 3' })).toHaveCount(1)
  await expect(items.filter({ hasText: 'Second check, fan out to 3' })).toHaveCount(1)

  // Answering one works: it leaves the queue, the count and its session's row.
  await items.filter({ hasText: 'First check' }).getByTestId('permission-card').getByTestId('perm-allow').click()
  await expect(items).toHaveCount(1)
  await expect(page.getByTestId('permissions-badge')).toHaveText('1')
  await expect(rows.filter({ hasText: 'First check' }).getByTestId('session-waiting')).toHaveCount(0)
  await expect(rows.filter({ hasText: 'Second check' }).getByTestId('session-waiting')).toHaveText('1 waiting')
  await expect(rows.filter({ hasText: 'First check' }).getByTestId('session-item')).toHaveAttribute('title', /\nDone/, { timeout: 30_000 })
  expect(problems).toEqual([])
})

test('after a reload, the new-session page says requests are waiting and opens the queue', async ({ page, openApp }) => {
  await openApp({ prompt: 'First check, fan out to 3' })
  await expectWaiting(page, 1)

  // On the new-session page when it reloads (a reload returns to whatever was open: here, no session).
  await page.getByTestId('new-session').click()
  await page.reload()
  // No session is open: the page has no session bar, so no Permissions button — the notice stands in.
  await expect(page.getByTestId('new-prompt')).toBeVisible()
  await expect(page.getByTestId('permissions-button')).toHaveCount(0)
  const notice = page.getByTestId('waiting-notice')
  await expect(notice).toHaveText(/An agent is waiting for your permission/)
  await notice.getByTestId('waiting-notice-open').click()
  const queue = page.getByTestId('permission-queue')
  await expect(queue.locator('.queue-item')).toHaveCount(1)
  await queue.getByTestId('permission-card').getByTestId('perm-allow').click()
  await expect(queue.locator('.queue-item')).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(notice).toHaveCount(0)
})
