// The conversation follows what arrives until the person scrolls up, and only then. A scroll the person did not
// make (a frame's scroll event finding the list off its bottom because rows arrived after our own scroll, a row
// kept in place) must not stop it: that left a resumed session's last reports and answers below the view, with
// nothing saying so (e2e kill-resume, about one run in four). Scrolled up by hand, the list keeps the person's
// place, and "Jump to latest" takes them back and follows again.
import type { Page } from '@playwright/test'
import { block, reply } from '../src/main/runtime/model/scripted'
import { expect, test } from './support/app-test'
import { shoot } from './support/screens'
import { resize } from './support/settle'

/** A reply taller than the view, whose last line names it. */
const longReply = (n: number) =>
  reply.with(
    { textChunk: 200, chunkDelayMs: 5 },
    block.text([...Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of answer ${n}.`), '', `End of answer ${n}.`].join('\n\n'))
  )

const lastLine = (page: Page, n: number) => page.getByTestId('transcript').getByText(`End of answer ${n}.`, { exact: true })

async function followUp(page: Page, text: string) {
  await page.getByTestId('followup').fill(text)
  await page.getByTestId('followup').press('Enter')
}

test('the conversation follows new messages unless the person scrolled up; Jump to latest brings it back', async ({ page, openApp }) => {
  let n = 0
  // Answer three waits for the test: it arrives while the person reads further up.
  let release = () => {}
  const held = new Promise<void>((r) => (release = r))
  const respond = async () => {
    if (++n === 3) await held
    return longReply(n)
  }
  await openApp({ viewport: { width: 1280, height: 800 }, respond, prompt: 'Write answer one' })
  const status = page.locator('.session-header-title .status-badge')
  await expect(lastLine(page, 1)).toBeInViewport({ timeout: 20_000 })
  const transcript = page.getByTestId('transcript')

  // A scroll the person did not make, off the bottom: the next answer is still followed.
  await transcript.evaluate(
    (el) =>
      new Promise((done) => {
        el.addEventListener('scroll', done, { once: true })
        el.scrollTop -= 400
      })
  )
  await followUp(page, 'And answer two')
  await expect(lastLine(page, 2)).toBeInViewport({ timeout: 20_000 })
  await expect(page.getByTestId('jump-latest')).toHaveCount(0)

  // The person scrolls up to read: their place is kept while the next answer arrives, and a button offers the latest.
  await transcript.hover()
  await page.mouse.wheel(0, -900)
  await expect(page.getByTestId('jump-latest')).toBeVisible()
  await followUp(page, 'And answer three')
  await expect(status).toHaveAttribute('data-status', 'running')
  release()
  await expect(status).toHaveAttribute('data-status', 'completed', { timeout: 20_000 })
  await expect(lastLine(page, 3)).not.toBeInViewport()
  await expect(page.getByTestId('jump-latest')).toBeVisible()
  for (const width of [1024, 1920, 1280]) {
    await resize(page, { width, height: width === 1920 ? 1080 : 800 })
    await expect(page.getByTestId('jump-latest')).toBeInViewport()
    await shoot(page, `jump-to-latest-${width}`)
  }

  // Back to the latest, and following again.
  await page.getByTestId('jump-latest').click()
  await expect(lastLine(page, 3)).toBeInViewport()
  await expect(page.getByTestId('jump-latest')).toHaveCount(0)
  await followUp(page, 'And answer four')
  await expect(lastLine(page, 4)).toBeInViewport({ timeout: 20_000 })
})
