// Agents told apart at scale: the task (what differs between agents) comes first on every tile, tree row,
// "needs you" chip and panel header, the type as a small badge. With 64 agents at 1920×1080 and 16 at 1280,
// each tile shows its own task, at least 12 characters of it, the whole in its tooltip.
import type { Locator, Page } from '@playwright/test'
import { block, reply, scriptByAgent, type ParsedRequest } from '../src/main/runtime/model/scripted'
import { expect, test } from './support/app-test'
import { shoot } from './support/screens'

const VERBS = ['Audit', 'Trace', 'Migrate', 'Profile', 'Document', 'Refactor', 'Test', 'Harden']
const AREAS = ['auth cookies', 'billing webhooks', 'search indexer', 'upload resizer', 'email templates', 'rate limiter', 'feature flags', 'log export']
const TASKS = VERBS.flatMap((v) => AREAS.map((a) => `${v} ${a}`))
// Mostly one type, as a real fan-out is: the type cannot be what tells them apart.
const TYPES = ['general-purpose', 'general-purpose', 'general-purpose', 'Explore']
const TAG = /\[names (\d+)\]/

/** N agents with distinct tasks that start side by side and hold their reports; `asking` of them run Bash (and ask). */
function fanOut(held: Promise<void>, asking: number) {
  return scriptByAgent([
    {
      name: 'sub',
      match: TAG,
      turns: [
        (req: ParsedRequest) => {
          const i = Number(TAG.exec(req.firstUserText)![1])
          return i < asking
            ? reply.with(
                { textChunk: 40, chunkDelayMs: 5 },
                block.text('Running the checks.'),
                block.toolUse('Bash', { command: `npm test -- --grep part-${i}` })
              )
            : reply.with({ textChunk: 40, chunkDelayMs: 5 }, block.text('Reading the project first.'), block.toolUse('Read', { file_path: 'README.md' }))
        },
        // Every agent stays on the grid until the test is over.
        async () => {
          await held
          return reply.text('Done.')
        }
      ],
      then: () => reply.text('Done.')
    },
    {
      name: 'main',
      match: 'lead agent in Fanout',
      turns: [
        (req: ParsedRequest) => {
          const n = Number(/fan out to (\d+)/.exec(req.firstUserText)![1])
          return reply.with(
            { textChunk: 40, chunkDelayMs: 5, jsonChunk: 400 },
            block.text('Splitting the work.'),
            ...TASKS.slice(0, n).map((t, i) =>
              block.toolUse('Agent', { description: t, subagent_type: TYPES[i % TYPES.length], prompt: `[names ${i}] ${t}. Report in one sentence.` })
            )
          )
        }
      ],
      then: () => reply.text('All reported.')
    }
  ])
}

/** The part of each element's text that is drawn (up to the ellipsis), by agent. */
async function visibleTexts(list: Locator): Promise<string[]> {
  return list.evaluateAll((els) =>
    els.map((el) => {
      const text = el.textContent ?? ''
      if (el.scrollWidth <= el.clientWidth) return text
      const node = el.firstChild
      if (!node) return ''
      const right = el.getBoundingClientRect().right - 10 // room for the ellipsis
      const range = el.ownerDocument.createRange()
      let k = 0
      while (k < text.length) {
        range.setStart(node, 0)
        range.setEnd(node, k + 1)
        if (range.getBoundingClientRect().right > right) break
        k++
      }
      return text.slice(0, k)
    })
  )
}

async function expectDistinctTasks(list: Locator, n: number, where: string) {
  await expect(list).toHaveCount(n, { timeout: 60_000 })
  const shown = await visibleTexts(list)
  const short = shown.filter((t) => t.trim().length < 12)
  expect(short, `${where}: tasks cut under 12 characters`).toEqual([])
  expect(new Set(shown).size, `${where}: tasks that read alike: ${shown.join(' | ')}`).toBe(n)
  // The whole name is in the tooltip: the task and the type.
  const titles = await list.evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''))
  for (const t of titles) expect(t).toMatch(/^(\w+) .+ \((general-purpose|Explore)\)$/)
}

/** The header while agents run: its title readable, the Permissions button wholly on screen. */
async function expectHeaderFits(page: Page, width: number) {
  const title = await visibleTexts(page.getByTestId('session-title'))
  expect(title[0].length, `the title at ${width}: "${title[0]}"`).toBeGreaterThanOrEqual(12)
  const button = await page.getByTestId('permissions-button').boundingBox()
  expect(button, `Permissions at ${width}`).not.toBeNull()
  expect(button!.x + button!.width, `Permissions off screen at ${width}`).toBeLessThanOrEqual(width)
}

async function run(
  page: Page,
  openApp: Parameters<Parameters<typeof test>[2]>[0]['openApp'],
  n: number,
  size: { width: number; height: number },
  asking: number
) {
  let over!: () => void
  const held = new Promise<void>((r) => (over = r))
  await openApp({ viewport: size, respond: fanOut(held, asking), prompt: `Harden the service, fan out to ${n}` })
  return over
}

test('sixty-four agents at 1920×1080: every tile shows its own task, at least 12 characters, the type as a badge', async ({ page, openApp }) => {
  test.setTimeout(240_000)
  const over = await run(page, openApp, 64, { width: 1920, height: 1080 }, 0)
  try {
    await expectDistinctTasks(page.locator('[data-testid=agent-tile] .tile-desc'), 64, 'tiles at 1920')
    await expectHeaderFits(page, 1920)
    await shoot(page, 'names-64-1920')
    // Tree rows: task first, not "general-purpose" four times.
    await page.getByTestId('tab-timeline').click()
    const rows = page.locator('[data-testid=timeline-row] .tl-desc')
    await expect(rows).toHaveCount(65)
    const shown = await visibleTexts(rows)
    expect(new Set(shown).size).toBe(65)
    expect(shown.filter((t) => t.length < 12)).toEqual([])
    await shoot(page, 'names-tree-1920')
  } finally {
    over()
  }
})

test('sixteen agents at 1280×800: tiles, "needs you" chips and panel headers each show their own task', async ({ page, openApp }) => {
  test.setTimeout(180_000)
  const over = await run(page, openApp, 16, { width: 1280, height: 800 }, 3)
  try {
    await expectDistinctTasks(page.locator('[data-testid=agent-tile] .tile-desc'), 16, 'tiles at 1280')
    // Three general-purpose agents ask: their chips read as their tasks, not "general-p…" three times.
    const chips = page.getByTestId('attention-chip')
    await expect(chips).toHaveCount(3, { timeout: 60_000 })
    const chipTexts = await visibleTexts(chips)
    expect(new Set(chipTexts).size).toBe(3)
    expect(chipTexts.filter((t) => t.length < 12)).toEqual([])
    await expect(chips.first()).toHaveAttribute('aria-label', /^Needs your permission: .+ \(general-purpose\)$/)
    await expectHeaderFits(page, 1280)
    await shoot(page, 'names-16-1280')
    for (const size of [
      { width: 1024, height: 700 },
      { width: 1920, height: 1080 }
    ]) {
      await page.setViewportSize(size)
      // Tiles or panels, whichever the room gives: each names its own task.
      await expect(page.locator('[data-testid=agent-tile], [data-testid=agent-panel]')).toHaveCount(16)
      await expectDistinctTasks(page.locator('[data-testid=agent-tile] .tile-desc, [data-testid=agent-panel] .panel-desc'), 16, `agents at ${size.width}`)
      await expectHeaderFits(page, size.width)
      await shoot(page, `names-16-${size.width}`)
    }
    // Panels: the header leads with the task, the type beside it as a badge.
    await page.getByTestId('overview-density').selectOption('panels')
    const heads = page.locator('[data-testid=agent-panel] .panel-desc')
    await expectDistinctTasks(heads, 16, 'panel headers at 1920')
    await expect(page.locator('[data-testid=agent-panel] .agent-type-badge').first()).toHaveText(/general-purpose|Explore/)
    // Each panel's context meter is whole: "12%" on a narrow panel, never "0% of 20" cut by its row.
    await expect(page.locator('[data-testid=agent-panel] [data-testid=context-meter]')).toHaveCount(16, { timeout: 30_000 })
    const cut = await page.locator('[data-testid=agent-panel] .panel-meta').evaluateAll(
      (rows) =>
        rows.filter((row) => {
          const meter = row.querySelector('[data-testid=context-meter]')
          return meter && meter.getBoundingClientRect().right > row.getBoundingClientRect().right + 0.5
        }).length
    )
    expect(cut, 'panels whose context meter is cut off').toBe(0)
    await shoot(page, 'names-panels-1920')
  } finally {
    over()
  }
})
