// Runaway guards as a person sees them: a subagent that repeats a failing call ends as "No progress", one that
// never finishes ends at the turn limit, and the main agent stops at the session's token budget; each says
// why, on its panel, in the finished rows and in the session's summary.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { reply, scriptByAgent } from '../src/main/runtime/model/scripted'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.afterEach(async () => app?.close())

const usage = { input_tokens: 1000, output_tokens: 200 }

test('each runaway guard ends its agent with a status and a reason the person can read', async ({ page }) => {
  app = await startBrowserMode({
    hasApiKey: true,
    respond: scriptByAgent([
      { name: 'stuck', match: 'Use the frobnicator', turns: [], then: reply.toolUse('Frobnicate', { level: 11 }, { usage }) },
      { name: 'endless', match: 'Keep polishing the docs', turns: [], then: (req) => reply.toolUse('Glob', { pattern: `docs/${req.turn}/*.md` }, { usage }) },
      {
        name: 'main',
        match: 'lead agent in Fanout',
        turns: [
          reply.toolUses(
            [
              { name: 'Agent', input: { description: 'Frobnicate the parser', prompt: 'Use the frobnicator', subagent_type: 'general-purpose' } },
              { name: 'Agent', input: { description: 'Polish the docs', prompt: 'Keep polishing the docs', subagent_type: 'general-purpose' } }
            ],
            { usage }
          )
        ],
        then: reply.toolUse('Glob', { pattern: 'src/*.ts' }, { text: 'Checking once more.', usage })
      }
    ])
  })
  // 6 turns for any agent without its own limit; 15,000 tokens for the whole session.
  writeFileSync(join(app.dataDir, 'settings.json'), JSON.stringify({ limits: { maxConcurrent: 64, maxTurns: 6, budgetTokens: 15_000 } }))
  await page.setViewportSize({ width: 1280, height: 860 })
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('Fix the parser and polish the docs')
  await page.getByTestId('new-prompt-send').click()

  const summary = page.getByTestId('session-summary')
  await expect(summary).toContainText('Budget reached after', { timeout: 30_000 })
  await expect(page.locator('.conversation')).toContainText("Stopped at the session's budget: the session has used")

  await expect(page.locator('.session-header .status-badge')).toHaveText('Budget reached')
  // Each panel says it in its header, and why in its transcript.
  const stuck = page.locator('[data-testid=agent-panel]', { hasText: 'Frobnicate the parser' })
  await expect(stuck.locator('.panel-status-word')).toHaveText('No progress')
  await expect(stuck).toContainText('Stopped for making no progress: the same failing Frobnicate call 5 turns in a row')
  const endless = page.locator('[data-testid=agent-panel]', { hasText: 'Polish the docs' })
  await expect(endless.locator('.panel-status-word')).toHaveText('Turn limit')
  await expect(endless).toContainText('Stopped at the limit of 6 turns (the limit every agent gets, set in Settings → Limits) before finishing.')
  // The main agent's cards of them say it too.
  await expect(page.locator('[data-testid=agent-card]', { hasText: 'Frobnicate the parser' }).locator('.status-badge')).toHaveText('No progress')
  for (const width of [1024, 1280, 1920]) {
    await page.setViewportSize({ width, height: 860 })
    await shoot(page, `limits-${width}`)
  }
})
