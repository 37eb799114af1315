// The command palette runs every action it lists, each doing what it says; the app-wide keys work from
// anywhere (in a text field too); `?` shows every shortcut. Screenshots: e2e/artifacts/screens/palette-*.png.
import { expect, test, type Page } from '@playwright/test'
import { startBrowserMode, type BrowserMode } from './support/fixtures'
import { shoot } from './support/screens'

let app: BrowserMode
test.use({ viewport: { width: 1280, height: 800 } })
test.afterEach(async () => app?.close())

const mod = process.platform === 'darwin' ? 'Meta' : 'Control'

async function openPalette(page: Page) {
  await page.keyboard.press(`${mod}+k`)
  await expect(page.getByTestId('palette-input')).toBeFocused()
}

/** The command ids the palette lists now (actions, not the agents and sessions it offers to go to). */
async function listed(page: Page): Promise<string[]> {
  await openPalette(page)
  const ids = await page.getByTestId('palette-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-command')!))
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('palette')).toHaveCount(0)
  return ids.filter((id) => !id.startsWith('agent:') && !id.startsWith('session:'))
}

/** Runs a command from the palette: typed by its title, chosen with Enter. */
async function run(page: Page, id: string) {
  await openPalette(page)
  const item = page.locator(`[data-testid=palette-item][data-command="${id}"]`)
  const title = (await item.locator('.palette-title').textContent())!
  await page.getByTestId('palette-input').fill(title)
  await expect(page.getByTestId('palette-item').first()).toHaveAttribute('data-command', id)
  await page.keyboard.press('Enter')
  // (The palette's own command opens it again.)
  if (id !== 'palette') await expect(page.getByTestId('palette')).toHaveCount(0)
}

const closeDialog = async (page: Page) => {
  await page.keyboard.press('Escape')
  await expect(page.locator('[role=dialog]')).toHaveCount(0)
}

/** What each command must do, and how the test puts things back. A listed command missing here fails the test. */
const EFFECTS: Record<string, (page: Page, ctx: { sessionTitle: string; agentId: string }) => Promise<void>> = {
  palette: async (page) => {
    await expect(page.getByTestId('palette')).toBeVisible()
    await page.keyboard.press('Escape')
  },
  'new-session': async (page, ctx) => {
    await expect(page.getByTestId('new-prompt')).toBeFocused()
    await page.getByTestId('session-item').filter({ hasText: ctx.sessionTitle }).click()
    await expect(page.getByTestId('overview')).toBeVisible()
  },
  settings: async (page) => {
    await expect(page.getByTestId('settings-dialog')).toBeVisible()
    await closeDialog(page)
  },
  'agents-editor': async (page) => {
    await expect(page.getByTestId('agents-view')).toBeVisible()
    // Its key closes it again, from anywhere.
    await page.keyboard.press('Alt+a')
    await expect(page.getByTestId('agents-view')).toHaveCount(0)
  },
  'next-attention': async (page) => {
    await expect.poll(() => page.evaluate<boolean>("document.activeElement?.closest('[data-tile]')?.classList.contains('needs-you') ?? false")).toBe(true)
  },
  permissions: async (page) => {
    await expect(page.getByTestId('permission-queue')).toBeVisible()
    await closeDialog(page)
  },
  shortcuts: async (page) => {
    const sheet = page.getByTestId('shortcuts-sheet')
    await expect(sheet).toBeVisible()
    await expect(sheet.locator('[data-command=palette]')).toContainText(/(Ctrl|⌘)\+?K/)
    await closeDialog(page)
  },
  'open-folder': async (page) => {
    await expect(page.getByTestId('folder-path')).toBeVisible()
    await closeDialog(page)
  },
  'theme.dark': async (page) => expect(page.locator('html')).toHaveAttribute('data-theme', 'dark'),
  'theme.light': async (page) => expect(page.locator('html')).toHaveAttribute('data-theme', 'light'),
  'theme.system': async (page) => {
    const dark = await page.evaluate<boolean>("matchMedia('(prefers-color-scheme: dark)').matches")
    await expect(page.locator('html')).toHaveAttribute('data-theme', dark ? 'dark' : 'light')
  },
  'overview.tidy': async (page) => expect(page.getByTestId('overview-tidy')).toBeDisabled(),
  'overview.density': async (page) => expect(page.getByTestId('overview-density')).not.toHaveValue('auto'),
  'overview.density.auto': async (page) => expect(page.getByTestId('overview-density')).toHaveValue('auto'),
  'overview.density.panels': async (page) => {
    await expect(page.getByTestId('overview-density')).toHaveValue('panels')
    await expect(page.getByTestId('overview')).toHaveAttribute('data-density', 'panels')
  },
  'overview.density.tiles': async (page) => expect(page.getByTestId('overview')).toHaveAttribute('data-density', 'tiles'),
  'overview.density.compact': async (page) => expect(page.getByTestId('overview')).toHaveAttribute('data-density', 'compact'),
  'view.timeline': async (page) => expect(page.getByTestId('timeline')).toBeVisible(),
  'view.overview': async (page) => expect(page.getByTestId('overview')).toBeVisible(),
  'session.followup': async (page) => expect(page.getByTestId('followup')).toBeFocused(),
  'agent.maximize': async (page, ctx) => {
    await expect(page.getByTestId('maximized-panel')).toHaveAttribute('data-agent-id', ctx.agentId)
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('maximized-panel')).toHaveCount(0)
  },
  'agent.message': async (page, ctx) => {
    const input = page.locator(`[data-tile][data-agent-id="${ctx.agentId}"]`).locator('[data-testid=tile-message-input], [data-testid=panel-message-input]')
    await expect(input).toBeFocused()
    await page.keyboard.press('Escape')
  },
  'agent.stop': async (page, ctx) => {
    await expect(page.locator(`[data-tile][data-agent-id="${ctx.agentId}"], [data-testid=finished-row][data-agent-id="${ctx.agentId}"]`)).toHaveAttribute(
      'data-status',
      'stopped'
    )
    await expect(page.getByTestId('toast').filter({ hasText: 'Stopped' }).first()).toBeVisible()
  },
  search: async (page) => {
    await expect(page.getByTestId('search-dialog')).toBeVisible()
    await expect(page.getByTestId('search-scope-all')).toHaveAttribute('aria-checked', 'true')
    await closeDialog(page)
  },
  'search.session': async (page) => {
    await expect(page.getByTestId('search-dialog')).toBeVisible()
    await expect(page.getByTestId('search-scope-session')).toHaveAttribute('aria-checked', 'true')
    await closeDialog(page)
  },
  'session.usage': async (page) => {
    const dialog = page.getByTestId('usage-dialog')
    await expect(dialog).toBeVisible()
    await expect(dialog.getByTestId('usage-total')).toContainText('Total')
    await closeDialog(page)
  },
  'session.replay': async (page) => {
    await expect(page.getByTestId('replay-bar')).toBeVisible()
    await expect(page.getByTestId('replay-play')).toBeVisible({ timeout: 20_000 })
  },
  'replay.play': async (page) => {
    await expect(page.getByTestId('replay-play')).toHaveAttribute('aria-label', 'Pause')
    await page.getByTestId('replay-play').click()
    // Leave the replay by its key, from the palette again.
    await run(page, 'session.replay')
    await expect(page.getByTestId('replay-bar')).toHaveCount(0)
  },
  'session.stop': async (page) => {
    await expect(page.getByTestId('stop-session')).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByTestId('toast').filter({ hasText: 'Stopped the main agent' })).toBeVisible()
    // Every agent ended: what needs the run over (replay) is offered from now on.
    await expect(page.getByTestId('replay-button')).toBeEnabled({ timeout: 20_000 })
  }
}

// What comes last: what ends the run (the rest needs it running), then what needs it ended.
const LAST = ['agent.stop', 'session.stop', 'session.replay', 'replay.play']

test('the palette lists every action and runs each one; app keys work from anywhere', async ({ page }) => {
  test.setTimeout(240_000)
  app = await startBrowserMode({ hasApiKey: true, speed: 3 })
  await page.goto(app.url)
  const sessionTitle = 'Check everything, fan out to 8'
  await page.getByTestId('new-prompt').fill(sessionTitle)
  // App keys work in a text field too: the palette opens over the prompt box.
  await openPalette(page)
  await shoot(page, 'palette-new-session')
  await page.keyboard.press('Escape')
  await page.getByTestId('new-prompt-send').click()
  await expect(page.locator('[data-tile]')).toHaveCount(8, { timeout: 30_000 })
  await expect(page.getByTestId('permissions-badge')).toHaveText(/[1-9]/, { timeout: 30_000 })
  // Select a running agent (its actions join the palette).
  const tile = page.locator('[data-tile][data-status=running]').filter({ hasText: 'Review error handling' }).first()
  const selected = (await tile.getAttribute('data-agent-id'))!
  await tile.focus()
  await openPalette(page)
  await expect(page.locator('[data-command="agent.stop"]')).toContainText('Stop code-reviewer')
  await shoot(page, 'palette-session')
  await page.keyboard.press('Escape')

  const ran: string[] = []
  // What is listed depends on the moment (Tidy while something can be tidied, an agent's actions while it
  // runs): each is run when next listed, the passing ones first, what ends the run last.
  const FIRST = ['overview.tidy']
  const rank = (id: string) => (FIRST.includes(id) ? -1 : LAST.includes(id) ? LAST.indexOf(id) + 1 : 0)
  // The selected agent, or (if it has finished meanwhile) another that still works: its actions are listed.
  const selectWorking = async (): Promise<string> => {
    const still = page.locator(`[data-tile][data-agent-id="${selected}"]`)
    const working = (await still.count()) > 0 && ['running', 'waiting_permission'].includes((await still.getAttribute('data-status')) ?? '')
    const target = working ? still : page.locator('[data-tile][data-status=running], [data-tile][data-status=waiting_permission]').first()
    if (!(await target.count())) return selected
    await target.focus()
    return (await target.getAttribute('data-agent-id'))!
  }
  for (let round = 0; round < 60; round++) {
    const agentId = await selectWorking()
    const now = await listed(page)
    const next = now.filter((id) => !ran.includes(id)).sort((a, b) => rank(a) - rank(b))[0]
    if (!next) break
    const effect = EFFECTS[next]
    expect(effect, `the palette lists "${next}": say what it must do`).toBeDefined()
    if (next.startsWith('agent.')) await page.locator(`[data-tile][data-agent-id="${agentId}"]`).focus()
    await run(page, next)
    await effect(page, { sessionTitle, agentId })
    ran.push(next)
  }
  expect(ran.length).toBeGreaterThan(15)
  for (const id of [
    'new-session',
    'settings',
    'agents-editor',
    'next-attention',
    'permissions',
    'shortcuts',
    'palette',
    'overview.density',
    'view.timeline',
    'view.overview',
    'session.followup',
    'agent.maximize',
    'agent.message',
    'agent.stop',
    'session.stop',
    'search',
    'search.session',
    'session.usage',
    'session.replay',
    'replay.play'
  ])
    expect(ran).toContain(id)
})

test('the palette goes to an agent or a session by name; ? shows every shortcut; keys in a text field', async ({ page }) => {
  test.setTimeout(120_000)
  app = await startBrowserMode({ hasApiKey: true, speed: 2 })
  await page.goto(app.url)
  await page.getByTestId('new-prompt').fill('First look, fan out to 0')
  await page.getByTestId('new-prompt-send').click()
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 30_000 })
  // Alt+N from the follow-up box: a new session.
  await page.getByTestId('followup').focus()
  await page.keyboard.press('Alt+n')
  await expect(page.getByTestId('new-prompt')).toBeFocused()
  await page.getByTestId('new-prompt').fill('Second look, fan out to 6')
  await page.getByTestId('new-prompt-send').click()
  await expect(page.locator('[data-tile]')).toHaveCount(6, { timeout: 30_000 })

  // An agent by its task.
  await openPalette(page)
  await page.getByTestId('palette-input').fill('readme')
  await expect(page.getByTestId('palette-item').first()).toHaveAttribute('data-command', /^agent:/)
  const id = (await page.getByTestId('palette-item').first().getAttribute('data-command'))!.slice('agent:'.length)
  await page.keyboard.press('Enter')
  await expect(page.locator(`[data-tile][data-agent-id="${id}"]`)).toHaveClass(/focused/)
  // A session by its title.
  await openPalette(page)
  await page.getByTestId('palette-input').fill('first look')
  await expect(page.getByTestId('palette-item').first()).toHaveAttribute('data-command', /^session:/)
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('session-title')).toHaveText('First look, fan out to 0')

  // ? shows the sheet (not while typing: there it is a question mark).
  await page.getByTestId('followup').focus()
  await page.keyboard.press('Shift+Slash')
  await expect(page.getByTestId('shortcuts-sheet')).toHaveCount(0)
  await expect(page.getByTestId('followup')).toHaveValue('?')
  // The header's corner: its middle now holds buttons (the cost opens the usage table).
  await page.locator('.session-header').click({ position: { x: 4, y: 4 } })
  await page.keyboard.press('Shift+Slash')
  const sheet = page.getByTestId('shortcuts-sheet')
  await expect(sheet).toBeVisible()
  for (const id of ['palette', 'new-session', 'settings', 'agents-editor', 'next-attention', 'permissions', 'shortcuts'])
    await expect(sheet.locator(`[data-command="${id}"] kbd`)).not.toBeEmpty()
  await expect(sheet).toContainText('Move between agents')
  await shoot(page, 'palette-shortcuts-sheet')
  await page.keyboard.press('Escape')
  await expect(sheet).toHaveCount(0)
  // Ctrl+, opens Settings.
  await page.keyboard.press(`${mod}+Comma`)
  await expect(page.getByTestId('settings-dialog')).toBeVisible()
})
