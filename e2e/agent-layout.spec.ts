// The agent editor at 1024 and 1280 px: the form keeps a usable width (the side panels become tabs when
// there is no room beside it), misspelt tools and models are in Problems, the status bar is about the
// agent files, and a refused new-agent name says why.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.afterEach(async () => app?.close())

const WEIRD = '---\nname: weird-tools\ndescription: Bad tools and model\ntools: Reed, Grpe, Bash\nmodel: gpt-4\n---\nYou help.\n'

for (const width of [1024, 1280]) {
  test(`agent editor at ${width} px: readable form, typos in Problems, the files in the status bar`, async ({ page }) => {
    await page.setViewportSize({ width, height: 760 })
    app = await startBrowserMode({ hasApiKey: true })
    writeFileSync(join(app.project, '.claude/agents/weird-tools.md'), WEIRD)
    await page.goto(app.url)
    await page.getByTestId('open-agents').click()
    await page.getByTestId('library-entry').filter({ hasText: 'weird-tools' }).click()
    const problems = page.getByTestId('problems-panel')
    await expect(problems).toContainText('"Reed", which is not a tool; did you mean Read?')
    await expect(problems).toContainText('"Grpe", which is not a tool; did you mean Grep?')
    await expect(problems).toContainText('"gpt-4", which is not a Claude model id')
    const bar = page.getByTestId('status-bar')
    await expect(bar).toContainText('weird-tools.md')
    await expect(bar).toContainText('1 file with warnings')
    await expect(bar).not.toContainText('running')

    const form = (await page.locator('.ae-main').boundingBox())!
    expect(form.width).toBeGreaterThanOrEqual(460)
    if (width === 1024) {
      // No room beside the form: the side panels are tabs of their own, the problems counted on theirs.
      await expect(page.locator('.ae-side')).toBeHidden()
      await expect(page.getByTestId('tab-side-problems')).toHaveText('Problems3')
      await shoot(page, `agent-editor-${width}`)
      await page.getByTestId('tab-side-problems').click()
      await expect(problems).toBeInViewport()
      await expect(page.getByTestId('field-model')).toBeHidden()
      await shoot(page, `agent-editor-${width}-problems`)
      // A problem clicked shows its line in the raw file.
      await problems.getByTestId('problem').first().click()
      await expect(page.getByTestId('raw-view')).toBeVisible()
      await expect(page.getByTestId('tab-raw')).toHaveAttribute('aria-selected', 'true')
      await page.getByTestId('tab-form').click()
      await expect(page.getByTestId('field-model')).toBeVisible()
    } else {
      const side = (await page.locator('.ae-side').boundingBox())!
      expect(side.x).toBeGreaterThanOrEqual(form.x + form.width - 1)
      await expect(page.getByTestId('tab-side-problems')).toBeHidden()
      await shoot(page, `agent-editor-${width}`)
    }

    await page.getByTestId('new-agent').click()
    await page.getByTestId('new-agent-name').fill('Changelog Writer')
    await expect(page.getByTestId('new-agent-name-error')).toHaveText(
      'A name has no spaces (it is also the file name); use - or _ instead. For example: changelog-writer'
    )
    await expect(page.getByTestId('new-agent-create')).toBeDisabled()
    if (width === 1024) await shoot(page, 'new-agent-bad-name')
  })
}
