// A long session in browser mode: the main agent hands a 60-part ledger (three context windows of output) to
// a subagent, which compacts on its way. Its panel and card show the context meter and where it compacted;
// the main agent's header shows its own meter and the Compact action; `/compact` in the prompt box compacts
// too; the timeline marks each compaction. Screenshots at 1024, 1280 and 1920 wide, light and dark.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test, watchProblems } from './support/app-test'
import type { Respond } from '../src/main/runtime/model/scripted'
import { LEDGER_READER_FILE, ledgerModel, makeLedger } from '../src/main/runtime/orchestration/testing/long-session'
import type { BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'
import { resize } from './support/settle'

test.setTimeout(180_000)

const WINDOW = 40_000
const PARTS = 60
const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 }
]

/** The reader's requests wait while the gate is closed: the test holds it mid-run to look at it. */
function gatedLedger(): { respond: Respond; close(): void; open(): void } {
  const model = ledgerModel(PARTS, 'subagent')
  let wait: Promise<void> | null = null
  let release = () => undefined as void
  return {
    respond: async (req, ctx) => {
      if (wait && req.system.includes('You are the ledger reader') && !req.isSummaryRequest) await wait
      return model(req, ctx)
    },
    close() {
      wait = new Promise<void>((r) => (release = r))
    },
    open() {
      wait = null
      release()
    }
  }
}

/** Writes the ledger (and any more files) into the project before the app opens. */
const withFiles = (files: Record<string, string>) => (app: BrowserMode) => {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(app.project, rel)), { recursive: true })
    writeFileSync(join(app.project, rel), text)
  }
}

async function shootAll(page: Page, name: string) {
  for (const size of SIZES) {
    await resize(page, size)
    await shoot(page, `${name}-${size.width}`)
  }
}

test('a long session: the context meter, compaction markers, Compact and /compact', async ({ page, openApp }) => {
  const gate = gatedLedger()
  const ledger = makeLedger(PARTS, 8_000)
  const problems = watchProblems(page)
  await openApp({
    respond: gate.respond,
    contextWindow: WINDOW,
    settings: { context: { windows: { 'claude-sonnet-5-5': WINDOW } } },
    viewport: SIZES[1],
    before: withFiles({ ...ledger.files, [LEDGER_READER_FILE.path]: LEDGER_READER_FILE.content }),
    prompt: 'Have the ledger summed up for me.'
  })

  // The reader's panel: its meter, then a compaction marker in its tail.
  const panel = page.locator('[data-testid=agent-panel]', { hasText: 'ledger-reader' })
  await expect(panel.getByTestId('context-meter')).toBeVisible({ timeout: 30_000 })
  // What the panel shows (its narrow form, "24%", is in the DOM too, hidden by the container query).
  await expect(panel.getByTestId('context-meter')).toHaveText(/^\d+% of 40k$/, { useInnerText: true })
  await expect(panel.locator('[data-testid=compaction-marker][data-state=done]').first()).toBeVisible({ timeout: 60_000 })
  gate.close()
  // Held mid-run: the card in the main transcript shows the reader's meter too.
  const card = page.getByTestId('agent-card').first()
  await expect(card.getByTestId('context-meter')).toHaveText(/^\d+%$/)
  await expect(page.getByTestId('header-context').getByTestId('context-meter')).toHaveText(/% of 40k$/)
  await shootAll(page, 'long-session-running')
  gate.open()

  // It finishes with the right sum; the main agent reports it.
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 90_000 })
  await expect(page.getByTestId('transcript')).toContainText(`The sum of their values is ${ledger.sum}.`)

  // The timeline marks where the reader compacted.
  await page.getByTestId('tab-timeline').click()
  const readerRow = page.locator('[data-testid=timeline-row]', { hasText: 'ledger-reader' })
  await expect(readerRow.getByTestId('timeline-compaction').first()).toBeAttached()
  expect(await readerRow.getByTestId('timeline-compaction').count()).toBeGreaterThanOrEqual(2)
  await shootAll(page, 'long-session-timeline')
  await page.getByTestId('tab-panels').click()

  // Compact from the main agent's header: a marker in its transcript, with the summary on request.
  const header = page.getByTestId('header-context')
  await header.getByTestId('compact-agent').click()
  const transcript = page.getByTestId('transcript')
  const marker = transcript.locator('[data-testid=compaction-marker][data-state=done]')
  await expect(marker).toHaveCount(1, { timeout: 30_000 })
  await expect(marker).toContainText('Conversation compacted here — show summary')
  await marker.getByTestId('compaction-toggle').click()
  await expect(marker.getByTestId('compaction-summary')).toContainText('Work done')
  await shootAll(page, 'long-session-compacted')

  // `/compact` typed in the prompt box does the same, with what to keep.
  await page.getByTestId('followup').fill('/compact keep the sum')
  await page.getByTestId('followup-send').click()
  await expect(marker).toHaveCount(2, { timeout: 30_000 })
  await expect(transcript.getByTestId('user-message').filter({ hasText: '/compact' })).toHaveCount(0)
  expect(problems).toEqual([])
})

test('with auto-compaction off: the meter turns amber past the threshold, a refused request says what to do, Compact frees the window', async ({
  page,
  openApp
}) => {
  await openApp({
    respond: ledgerModel(PARTS),
    contextWindow: WINDOW,
    settings: { context: { windows: { 'claude-sonnet-5-5': WINDOW }, autoCompact: false, toolResultClearing: 'off' } },
    viewport: SIZES[1],
    before: withFiles(makeLedger(PARTS, 8_000).files),
    prompt: `Read ${PARTS} ledger parts: ledger/part-01.txt to ledger/part-60.txt, one per turn, and sum their values.`
  })
  const meter = page.getByTestId('header-context').getByTestId('context-meter')
  await expect(page.getByTestId('transcript')).toContainText('Automatic compaction is off', { timeout: 60_000 })
  await expect(meter).toHaveClass(/\bhigh\b/)
  await shootAll(page, 'long-session-amber')
  await page.getByTestId('header-context').getByTestId('compact-agent').click()
  await expect(page.getByTestId('transcript').locator('[data-testid=compaction-marker][data-state=done]')).toHaveCount(1, { timeout: 30_000 })
  await expect(meter).not.toHaveClass(/\bhigh\b/)
  const percent = Number(await meter.getAttribute('data-percent'))
  expect(percent).toBeLessThan(50)
})

test('Settings → Long sessions: the threshold is checked as typed and saved to settings.json; empty means the default', async ({ page, openApp }) => {
  const app = await openApp({ viewport: SIZES[1] })
  await page.getByTestId('open-settings').click()
  const dialog = page.getByTestId('settings-dialog')
  const percent = dialog.getByTestId('setting-autoCompactPercent')
  await percent.scrollIntoViewIfNeeded()
  await expect(percent).toHaveValue('')
  await expect(dialog.getByTestId('setting-autoCompact')).toBeChecked()
  await percent.fill('5')
  await expect(dialog.getByTestId('error-autoCompactPercent')).toHaveText(/Enter a number from 10 to 100, or leave it empty for the default\./)
  await percent.fill('70')
  await dialog.getByTestId('setting-toolResultClearing').selectOption('local')
  await shootAll(page, 'long-session-settings')
  await dialog.getByTestId('settings-save').click()
  await expect(dialog).toContainText('Saved.')
  const saved = JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8'))
  expect(saved.context).toEqual({ autoCompact: true, autoCompactPercent: 70, toolResultClearing: 'local' })
  await percent.fill('')
  await dialog.getByTestId('settings-save').click()
  await expect(dialog).toContainText('Saved.')
  expect(JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')).context).toEqual({ autoCompact: true, toolResultClearing: 'local' })
})

test("the main agent's own long session: it compacts, its header meter and transcript markers say so, and the sum is right", async ({ page, openApp }) => {
  const ledger = makeLedger(PARTS, 8_000)
  await openApp({
    respond: ledgerModel(PARTS),
    contextWindow: WINDOW,
    settings: { context: { windows: { 'claude-sonnet-5-5': WINDOW }, toolResultClearing: 'off' } },
    viewport: SIZES[2],
    before: withFiles(ledger.files),
    prompt: `Read ledger/part-01.txt through ledger/part-60.txt with the Read tool, one file per turn and in order, and tell me the sum of their "value:" lines.`
  })
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 90_000 })
  const transcript = page.getByTestId('transcript')
  await expect(transcript).toContainText(`The sum of their values is ${ledger.sum}.`)
  // Its markers are in its transcript (above what is on screen): scroll through and count them.
  const markers = await transcript.evaluate(async (el) => {
    const seen = new Set<string>()
    for (let y = 0; y <= el.scrollHeight; y += el.clientHeight / 2) {
      el.scrollTop = y
      // Two frames: the virtualizer renders the rows now in view, then measures them.
      const frame = () => new Promise((r) => (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame(() => r(null)))
      await frame()
      await frame()
      for (const m of el.querySelectorAll('[data-testid=compaction-marker][data-state=done]'))
        seen.add(m.closest('[data-index]')?.getAttribute('data-index') ?? '')
    }
    return seen.size
  })
  expect(markers).toBeGreaterThanOrEqual(2)
  await expect(page.getByTestId('header-context').getByTestId('context-meter')).toHaveText(/^\d+% of 40k$/)
})
