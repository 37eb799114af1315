// A page reloaded while an agent streams (or a second window opened on a running session) joins the
// live stream where its view of the transcripts ends: the streaming text reads on without a word
// repeated or lost, however fast it comes.
import { expect, test } from '@playwright/test'
import { reply } from '../src/main/runtime/model/scripted'
import { startBrowserMode, type BrowserMode } from './support/fixtures'

let app: BrowserMode
test.use({ viewport: { width: 1400, height: 900 } })
test.afterEach(async () => app?.close())

// About six seconds of text in small, quick deltas: the transcript writer merges them into lines and
// the page's pump into batches, each at its own boundaries.
const WORDS = Array.from({ length: 1500 }, (_, i) => `w${i}`).join(' ')

test('a page reloaded mid-stream shows the streaming text once, then goes on with it', async ({ page }) => {
  // Near its end (of some 1,580 deltas) the reply waits until the page has shown it mid-way a few times: on a
  // loaded machine the reload can take longer than the whole stream, and a page that joins after the end
  // proves nothing about joining mid-stream.
  let goOn!: () => void
  const until = new Promise<void>((r) => (goOn = r))
  app = await startBrowserMode({
    hasApiKey: true,
    respond: () => reply.shaped({ textChunk: 5, chunkDelayMs: 3, pause: { afterDeltas: 1400, until } }, reply.text(WORDS))
  })
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Say many words.')
  await page.getByTestId('new-prompt-send').click()
  const transcript = page.getByTestId('transcript')
  await expect(transcript).toContainText('w0 w1')

  await page.reload()
  await page.getByTestId('session-item').first().click()
  // Sampled while it streams: what shows is always a beginning of the reply, never a repeat.
  const shown = async () => ((await transcript.innerText()).split('\n').find((l) => l.startsWith('w0 ')) ?? '').trim()
  const seen: string[] = []
  await expect(async () => {
    const now = await shown()
    seen.push(now)
    if (seen.filter((s) => s && s !== WORDS).length > 3) goOn()
    expect(now).toBe(WORDS)
  }).toPass({ timeout: 30_000, intervals: [40] })
  expect(seen.filter((s) => s && s !== WORDS).length).toBeGreaterThan(3) // the page caught it mid-stream
  for (const s of seen) expect(WORDS.startsWith(s), `the page showed "…${s.slice(-60)}", which is not how the reply goes`).toBe(true)
  expect(problems).toEqual([])
})
