// Settings › MCP servers in browser mode: the folder's servers (the suite's MCP server as a real process, one
// that fails to start, one switched off in settings) with their state, error and tools. Screenshots for a
// person to look at, in light and dark.
import { writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { stdioServerEntry } from '../src/main/runtime/mcp/testing/servers'
import { shoot } from './support/screens'
import { startBrowserMode, type BrowserMode } from './support/fixtures'

let app: BrowserMode

test.use({ viewport: { width: 1400, height: 900 } })

test.afterEach(async () => {
  await app?.close()
})

test('Settings lists the MCP servers of the folder: connected with tools, failed with the reason, disabled', async ({ page }) => {
  app = await startBrowserMode({ hasApiKey: true })
  writeFileSync(
    join(app.project, '.mcp.json'),
    JSON.stringify(
      {
        mcpServers: {
          notes: stdioServerEntry(['--label', 'notes']),
          'issue-db': stdioServerEntry(['--exit-on-start', '3']),
          legacy: { command: 'legacy-mcp', args: ['--serve'] }
        }
      },
      null,
      2
    )
  )
  mkdirSync(join(app.project, '.claude'), { recursive: true })
  writeFileSync(join(app.project, '.claude', 'settings.local.json'), JSON.stringify({ disabledMcpjsonServers: ['legacy'] }))

  await page.goto(app.url)
  // The folder's servers run once the person trusts the folder (e2e/trust.spec.ts covers the dialog itself).
  await page.getByTestId('trust-accept').click()
  await expect(page.getByTestId('trust-dialog')).toBeHidden()
  await page.getByTestId('open-settings').click()
  const section = page.getByTestId('mcp-servers')
  await expect(section.getByTestId('mcp-server')).toHaveCount(3, { timeout: 20_000 })
  await expect(section.locator('[data-server="notes"]')).toHaveAttribute('data-status', 'connected')
  await expect(section.locator('[data-server="notes"]')).toContainText('6 tools')
  await expect(section.locator('[data-server="issue-db"]')).toHaveAttribute('data-status', 'failed')
  await expect(section.locator('[data-server="issue-db"]')).toContainText('exited with code 3 before it was ready')
  await expect(section.locator('[data-server="issue-db"]')).toContainText('fatal: the database at /nowhere/db.sqlite is missing')
  await expect(section.locator('[data-server="legacy"]')).toHaveAttribute('data-status', 'disabled')
  await section.locator('[data-server="notes"]').getByRole('button', { name: 'Show the tools of notes' }).click()
  await expect(section.locator('[data-server="notes"]')).toContainText('mcp__notes__echo')
  await section.scrollIntoViewIfNeeded()
  await shoot(page, '20-settings-mcp-servers')
})
