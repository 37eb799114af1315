// Budgets as a person sees them: before a 16-way fan-out the approval card shows what it will cost (from the
// definition's recorded runs, with a range), each tile and card a budget bar (red where a subagent's budget
// stopped it), the header the session's; and the agent editor shows the definition's run history as a chart.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { reply, scriptByAgent } from '../src/main/runtime/model/scripted'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.afterEach(async () => app?.close())

// 10,000 input tokens on Sonnet: $0.03 a call.
const usage = { input_tokens: 10_000, output_tokens: 0 }

function latch() {
  let open = () => {}
  const wait = new Promise<void>((r) => (open = r))
  return { wait, open }
}

test('the estimate before a 16-way fan-out, budget bars on tiles, cards and the header, the history chart', async ({ page }) => {
  const held = latch()
  app = await startBrowserMode({
    hasApiKey: true,
    respond: scriptByAgent([
      {
        name: 'reviewer',
        match: 'You review code carefully',
        turns: [
          reply.toolUse('Glob', { pattern: 'src/*.ts' }, { usage }),
          // Odd parts keep going until their $0.05 budget stops them; even ones wait, running, at 60% of it.
          async (req) => {
            if (/part \d*[13579]\b/.test(JSON.stringify(req.body))) return reply.toolUse('Glob', { pattern: 'test/*.ts' }, { usage })
            await held.wait
            return reply.text('Reviewed: no findings.', { usage })
          }
        ],
        then: reply.text('Reviewed.', { usage })
      },
      {
        name: 'main',
        match: 'lead agent in Fanout',
        turns: [
          reply.toolUses(
            Array.from({ length: 16 }, (_, i) => ({
              name: 'Agent',
              input: {
                description: `Review part ${i + 1}`,
                prompt: `Review part ${i + 1} of the parser.`,
                subagent_type: 'code-reviewer',
                budget: { usd: 0.05 }
              }
            })),
            { usage }
          )
        ],
        then: reply.text('All parts reviewed.', { usage })
      }
    ])
  })
  // The reviewer's recorded runs (what the estimate and the editor's history read), and the limits.
  const file = join(app.project, '.claude/agents/code-reviewer.md')
  const costs = [0.021, 0.034, 0.029, 0.052, 0.018, 0.041, 0.087, 0.033, 0.025, 0.046, 0.031, 0.038]
  const outcomes = [
    'completed',
    'completed',
    'merged',
    'completed',
    'failed',
    'completed',
    'budget',
    'completed',
    'discarded',
    'completed',
    'completed',
    'completed'
  ]
  const lines = costs.map((costUsd, i) =>
    JSON.stringify({
      ts: Date.UTC(2026, 10, 10 + i, 9, 30),
      sessionId: 'earlier',
      agentId: `aold${i}`,
      agentType: 'code-reviewer',
      file,
      model: 'claude-sonnet-4-5',
      outcome: outcomes[i],
      costUsd,
      tokens: Math.round(costUsd * 330_000),
      turns: 3 + (i % 5),
      durationMs: 20_000 + i * 3_000,
      promptChars: 40
    })
  )
  writeFileSync(join(app.dataDir, 'agent-history.jsonl'), `${lines.join('\n')}\n`)
  writeFileSync(join(app.dataDir, 'settings.json'), JSON.stringify({ limits: { maxConcurrent: 64, budgetUsd: 5, approveFanoutAboveUsd: 0.5 } }))

  await page.setViewportSize({ width: 1280, height: 860 })
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Review the parser in 16 parts')
  await page.getByTestId('new-prompt-send').click()

  // Before anything starts: one question, with the estimate and its range, the amount that asks marked.
  const estimate = page.getByTestId('fanout-estimate').first()
  await expect(estimate).toBeVisible({ timeout: 30_000 })
  await expect(estimate).toContainText(/16 agents: about \$\d+\.\d\d \(\$\d+\.\d\d–\$\d+\.\d\d\)/)
  await expect(estimate).toContainText('16 × code-reviewer')
  await expect(estimate).toContainText('from 12 recorded runs')
  await expect(estimate).toContainText('ask first')
  await expect(page.getByTestId('agent-panel')).toHaveCount(0)
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: 860 })
    await shoot(page, `budgets-estimate-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 860 })
  await page.getByTestId('perm-allow').first().click()

  // Each tile has its budget bar: the odd parts stop at theirs (red), the even ones run at 60% of it.
  const tiles = page.locator('.tile-stats [data-testid=budget-bar]')
  await expect(tiles.and(page.locator('[data-level=reached]'))).toHaveCount(8, { timeout: 30_000 })
  await expect(tiles.and(page.locator('[data-percent="60"]'))).toHaveCount(8, { timeout: 30_000 })
  await expect(tiles.first()).toHaveAttribute('title', /Budget \$0\.05 — the budget its Agent call gave it/)
  // The header: the session's budget.
  await expect(page.locator('.session-header [data-testid=budget-bar]')).toContainText('of $5.00')
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: 860 })
    await shoot(page, `budgets-tiles-${width}`)
  }
  held.open()
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 40_000 })
  // The main agent's cards of its subagents carry the bar too.
  await expect(page.locator('[data-testid=agent-card] [data-testid=budget-bar]').first()).toBeVisible()
  await page.setViewportSize({ width: 1280, height: 860 })
  await shoot(page, 'budgets-cards-1280')

  // The editor: the reviewer's history, 12 earlier runs and the 16 of this session.
  await page.getByTestId('open-agents').click()
  await page.locator('[data-testid=library-entry][data-agent="code-reviewer"]').click()
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: 860 })
    const tab = page.getByTestId('tab-side-history')
    if (await tab.isVisible()) await tab.click()
    const panel = page.getByTestId('history-panel')
    await expect(panel).toContainText(/Run history\s*28/)
    await expect(panel.getByTestId('history-chart').locator('rect')).toHaveCount(20)
    await expect(panel.getByTestId('history-success')).toContainText('succeeded')
    await expect(panel.getByTestId('history-median')).toContainText('median $')
    await panel.scrollIntoViewIfNeeded()
    await shoot(page, `budgets-history-${width}`)
  }
})
