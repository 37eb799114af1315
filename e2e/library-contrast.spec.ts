// The agent library's red and amber lines (a file that does not load, an agent another file replaces) read
// at WCAG AA (4.5:1) on the row as drawn, the selected row included, in light and dark, at 1024 and 1280.
// theme-contrast.test.ts checks the tokens; this checks the colours Chromium paints for them.
// Screenshots go to e2e/artifacts/screens/library-*.png.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { startBrowserMode, type BrowserMode, agentFile } from './support/fixtures'
import { shoot } from './support/screens'
import { settle } from './support/settle'

let app: BrowserMode
test.afterEach(async () => app?.close())

/** Line 5 indented by mistake: the file does not load. */
const BROKEN = agentFile(['name: code-reviewer', 'description: Reviews code.', 'tools: Read', '  model: sonnet'], 'You review code.')
/** A user-level agent of the same name as the project's: the project's file replaces it. */
const REPLACED = agentFile(['name: test-writer', 'description: Writes tests, the user-level version.', 'tools: Read'], 'You write tests.')

/** The text's colour against the first opaque background behind it, as the browser computed them. */
function contrastOf(text: Locator) {
  return text.evaluate((el) => {
    const style = el.ownerDocument.defaultView!.getComputedStyle
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number)
    let bg: number[] = [255, 255, 255]
    for (let e: typeof el | null = el; e; e = e.parentElement) {
      const c = rgb(style(e).backgroundColor)
      if (c.length === 3 || (c.length === 4 && c[3] === 1)) {
        bg = c.slice(0, 3)
        break
      }
    }
    const lum = (c: number[]) =>
      c
        .map((v) => v / 255)
        .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0)
    const [hi, lo] = [lum(rgb(style(el).color).slice(0, 3)), lum(bg)].sort((a, b) => b - a)
    return { ratio: (hi + 0.05) / (lo + 0.05), text: style(el).color, on: style(el.closest('.ae-entry')!).backgroundColor }
  })
}

async function expectReadable(page: Page, what: string, line: Locator) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await settle(page) // colour transitions finished
    const c = await contrastOf(line)
    expect(c.ratio, `${what}, ${scheme}: ${c.text} on ${c.on}`).toBeGreaterThanOrEqual(4.5)
  }
}

test('red and amber library lines on a selected row read at AA', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  writeFileSync(join(app.project, '.claude/agents/code-reviewer.md'), BROKEN)
  mkdirSync(join(app.dataDir, 'home/.claude/agents'), { recursive: true })
  writeFileSync(join(app.dataDir, 'home/.claude/agents/test-writer.md'), REPLACED)
  await page.setViewportSize({ width: 1024, height: 700 })
  await page.goto(app.url)
  await page.getByTestId('open-agents').click()

  const library = page.getByTestId('agent-library')
  const failed = library.locator('.ae-entry.failed').first()
  const replaced = library.locator('.ae-entry', { has: page.locator('.ae-entry-shadow') }).first()
  await expect(failed).toBeVisible()
  await expect(replaced).toBeVisible()

  await failed.click()
  await expect(failed).toHaveClass(/\bactive\b/)
  await expectReadable(page, 'a file that does not load, selected', failed.locator('.ae-entry-desc'))
  for (const width of [1024, 1280]) {
    await page.setViewportSize({ width, height: width === 1024 ? 700 : 800 })
    await shoot(page, `library-failed-selected-${width}`)
  }

  await replaced.click()
  await expect(replaced).toHaveClass(/\bactive\b/)
  await expectReadable(page, 'a replaced agent, selected', replaced.locator('.ae-entry-shadow'))
  await failed.hover()
  await expectReadable(page, 'a file that does not load, hovered', failed.locator('.ae-entry-desc'))
  for (const width of [1024, 1280]) {
    await page.setViewportSize({ width, height: width === 1024 ? 700 : 800 })
    await shoot(page, `library-replaced-selected-${width}`)
  }
})
