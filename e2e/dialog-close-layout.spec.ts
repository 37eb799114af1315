// Closing a dialog leaves the page under it laid out. Chromium once left the main area unlaid (a blank pane
// beside the sidebar, its content 0×0) after a modal dialog closed inside the page's disabled-when-lost
// fieldset: after the folder's trust dialog every time, after the permission queue under load. Every dialog
// the shell opens is closed here, and the new-session view must fill the main area each time.
import type { Page } from '@playwright/test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './support/app-test'

const mod = process.platform === 'darwin' ? 'Meta' : 'Control'

/** The new-session view fills the main area: laid out, not a 0×0 box in a blank pane. */
async function expectMainLaidOut(page: Page, after: string) {
  await expect(page.getByTestId('new-prompt'), `the prompt box after ${after}`).toBeVisible()
  const box = (selector: string) =>
    page.evaluate(`(() => { const r = document.querySelector('${selector}').getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)] })()`)
  expect(await box('main .new-session'), `the new-session view after ${after}`).toEqual(await box('main'))
}

test('every dialog closes back to a laid-out page', async ({ page, openApp }) => {
  await openApp({
    viewport: { width: 1280, height: 900 },
    // A folder with an MCP server of its own: the trust dialog opens with the page.
    before: (app) => writeFileSync(join(app.project, '.mcp.json'), JSON.stringify({ mcpServers: { helper: { command: 'sh', args: ['-c', 'exec cat'] } } }))
  })
  const trust = page.getByTestId('trust-dialog')
  await trust.getByTestId('trust-decline').click()
  await expect(trust).toBeHidden()
  await expectMainLaidOut(page, 'the trust dialog')

  const dialogs: { name: string; open: () => Promise<unknown>; testId: string }[] = [
    { name: 'Settings', open: () => page.getByTestId('open-settings').click(), testId: 'settings-dialog' },
    { name: 'the search', open: () => page.getByTestId('search-all-button').click(), testId: 'search-dialog' },
    { name: 'the palette', open: () => page.keyboard.press(`${mod}+k`), testId: 'palette' },
    {
      name: 'the shortcuts sheet',
      // Not from the prompt box, where ? is a question mark.
      open: async () => (await page.evaluate('document.activeElement?.blur()'), page.keyboard.press('Shift+Slash')),
      testId: 'shortcuts-sheet'
    }
  ]
  for (const d of dialogs) {
    await d.open()
    await expect(page.getByTestId(d.testId), d.name).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByTestId(d.testId), d.name).toHaveCount(0)
    await expectMainLaidOut(page, d.name)
  }
})
