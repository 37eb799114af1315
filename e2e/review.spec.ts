// Reviewing and landing agents' work in the app: three implementers edit real files in their own worktrees
// (two of them the same line), then the Changes view shows each agent's diff, the conflict preview names the
// clash, one agent is merged, the conflicting one discarded, the rest merged with "Merge all" — and git
// itself confirms each step. A dirty checkout is refused before anything changes. Screenshots at 1024, 1280
// and 1920, light and dark.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test, sendPrompt, type OpenApp } from './support/app-test'
import type { BrowserMode } from './support/fixtures'
import { IMPLEMENTER_AGENT } from './support/review-script'
import { shoot } from './support/screens'

let app: BrowserMode
const opened: string[] = []
test.use({ viewport: { width: 1280, height: 800 } })

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Fanout e2e', '-c', 'user.email=e2e@fanout.invalid', ...args], { cwd: app.project, encoding: 'utf8' }).trim()
const branches = () => git('branch', '--list', 'fanout/*', '--format=%(refname:short)').split('\n').filter(Boolean)

const SIZES = [
  { width: 1024, height: 720 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 }
]

async function shootSizes(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await shoot(page, `${name}-${size.width}`)
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

async function startThreeImplementers(page: Page, openApp: OpenApp): Promise<void> {
  const before = (started: BrowserMode) => {
    app = started
    mkdirSync(join(app.project, '.claude/agents'), { recursive: true })
    writeFileSync(join(app.project, '.claude/agents/implementer.md'), IMPLEMENTER_AGENT)
    git('add', '-A')
    git('commit', '-q', '-m', 'implementer agent')
  }
  await openApp({ speed: 0.3, openPath: async (path) => (opened.push(path), null), before })
  // The implementer's own acceptEdits mode is a grant the folder brings: the person approves the folder first.
  const trust = page.getByTestId('trust-dialog')
  await trust.getByTestId('trust-accept').click()
  await expect(trust).toBeHidden()
  await sendPrompt(page, '[review e2e] Three changes, one conflict: lexer errors, README, trimming')
  await expect(page.getByTestId('session-summary')).toBeVisible({ timeout: 60_000 })
  expect(branches()).toHaveLength(3)
}

test('Changes view: diff of an agent’s edit, conflict preview, merge, discard, merge all', async ({ page, openApp }) => {
  // A run, two merges, a discard and 30 screenshots: on a loaded two-core machine well over the 60 s a
  // short test gets (twice cut off there mid-step, nothing stuck), so it has a long test's budget.
  test.setTimeout(180_000)
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
  await startThreeImplementers(page, openApp)

  // The session header offers every agent's changes together.
  await expect(page.getByTestId('session-changes-count')).toHaveText('3')
  await page.getByTestId('session-changes-button').click()
  const dialog = page.getByTestId('changes-dialog')
  await expect(dialog.getByTestId('review-agent-row')).toHaveCount(3)
  await expect(dialog.getByTestId('review-checkout')).toContainText('Merging into main')
  // The preview: errors (1) and trim (3) both change src/lexer.ts and conflict; "merge all" stops at trim.
  const matrix = dialog.getByTestId('preview-matrix')
  await expect(matrix).toBeVisible({ timeout: 20_000 })
  await expect(matrix.getByTestId('matrix-head')).toHaveCount(3)
  await expect(matrix.locator('[data-verdict=conflict]')).toHaveCount(2)
  // Agents are numbered in the order they started (which of them got its worktree first varies).
  const number = async (task: string) => {
    const id = await dialog.locator('[data-testid=review-agent-row]', { hasText: task }).getAttribute('data-agent-id')
    return Number((await matrix.locator(`tr[data-agent-id="${id}"] .matrix-num`).innerText()).trim())
  }
  const [errors, docs, trim] = [
    await number('Report where lexer errors happen'),
    await number('Document lex() in the README'),
    await number('Trim the input before lexing')
  ]
  await expect(dialog.getByTestId('preview-notes')).toHaveText(`${Math.min(errors, trim)} and ${Math.max(errors, trim)} conflict in src/lexer.ts`)
  const [first, stop] = errors < trim ? [errors, trim] : [trim, errors]
  const task = (n: number) => (n === errors ? 'Report where lexer errors happen' : n === trim ? 'Trim the input before lexing' : 'Document lex() in the README')
  const merged = [docs, first]
    .sort()
    .map((n) => `${n} (${task(n)})`)
    .join(', ')
  await expect(dialog.getByTestId('merge-all-plan')).toHaveText(
    `“Merge all” merges ${merged}, then stops at ${stop} (${task(stop)}): it conflicts with ${first} (${task(first)}) in src/lexer.ts.`
  )
  await shootSizes(page, 'review-overview')

  // One agent's changes: its files with counts, commits, branch and worktree, and a real diff.
  await dialog.locator('[data-testid=review-agent-row]', { hasText: 'Report where lexer errors happen' }).getByTestId('review-row-open').click()
  const agent = dialog.getByTestId('review-agent')
  await expect(agent.getByTestId('review-file')).toHaveCount(2)
  await expect(agent.locator('[data-testid=review-file][data-path="src/lexer.ts"]')).toContainText('+4 −1')
  await expect(agent.locator('[data-testid=review-file][data-path="src/errors.ts"]')).toContainText('+5 −0')
  await expect(agent.getByTestId('review-commits')).toContainText('Agent implementer: Report where lexer errors happen')
  await expect(agent.getByTestId('review-branch')).toHaveText(/^fanout\/a[0-9a-f]{16}$/)
  await expect(agent.getByTestId('review-worktree-path')).toContainText('.fanout-worktrees/tiny-parser/')
  await agent.locator('[data-testid=review-file][data-path="src/lexer.ts"]').click()
  const diff = agent.getByTestId('diff-view')
  await expect(diff).toHaveAttribute('data-layout', 'split')
  // Both sides, inside the viewer's shadow root: the old line on the left, the new ones on the right.
  await expect(diff.locator('.cm-merge-a .cm-content')).toContainText('return src.split(/\\s+/)')
  await expect(diff.locator('.cm-merge-b .cm-content')).toContainText("if (empty > 0) throw new LexError('empty token', 1, empty + 1)")
  await expect(diff.locator('.cm-merge-b .cm-changedLine').first()).toBeVisible()
  await shootSizes(page, 'review-agent-split')
  await agent.getByTestId('diff-unified').click()
  await expect(diff).toHaveAttribute('data-layout', 'unified')
  await expect(diff.locator('.cm-deletedChunk')).toContainText('return src.split(/\\s+/)')
  await expect(diff.locator('.cm-insertedLine').first()).toBeVisible()
  await shoot(page, 'review-agent-unified-1280')
  await agent.getByTestId('review-open-folder').click()
  await expect.poll(() => opened).toEqual([expect.stringContaining('.fanout-worktrees/tiny-parser/')])

  // Merge it (squash, chosen in the dialog and remembered).
  const errorsBranch = (await agent.getByTestId('review-branch').innerText()).trim()
  await agent.getByTestId('review-merge').click()
  const merge = page.getByTestId('merge-dialog')
  await expect(merge.getByTestId('merge-verdict')).toHaveText('✓ merges cleanly')
  await merge.getByTestId('merge-strategy-squash').check()
  await shootSizes(page, 'review-merge-dialog')
  await merge.getByTestId('merge-confirm').click()
  await expect(merge.getByTestId('merge-merged')).toContainText(`${errorsBranch} squashed onto main as`)
  await merge.getByTestId('merge-done').click()
  expect(git('log', '-1', '--format=%s')).toBe('Agent implementer: Report where lexer errors happen')
  expect(git('status', '--porcelain')).toBe('')
  expect(branches()).not.toContain(errorsBranch)
  await expect(agent.getByTestId('review-agent-gone')).toContainText('squashed into main')

  // The trimming agent now conflicts with main: its own panel opens its changes; discard it.
  await dialog.locator('.dialog-close').click()
  // Its panel (or its finished row, when the pane is crowded) has a Changes button, shown on hover in dense panels.
  const trimPanel = page.locator('[data-testid=agent-panel], [data-testid=finished-row]').filter({ hasText: 'Trim the input before lexing' })
  await trimPanel.hover()
  await trimPanel.getByTestId('panel-changes').click()
  await expect(dialog.getByTestId('review-agent')).toBeVisible()
  const trimBranch = (await dialog.getByTestId('review-branch').innerText()).trim()
  await dialog.getByTestId('review-merge').click()
  await expect(merge.getByTestId('merge-verdict')).toContainText('✕ conflicts with main in src/lexer.ts')
  await expect(merge.getByTestId('merge-confirm')).toBeDisabled()
  await expect(merge.getByTestId('merge-blocked-help')).toContainText('Ask the agent to redo its change on top of main')
  await shoot(page, 'review-merge-conflict-1280')
  await page.keyboard.press('Escape')
  await dialog.getByTestId('review-discard').click()
  const discard = page.getByTestId('discard-dialog')
  await expect(discard.getByTestId('discard-what')).toContainText(`1 commit on ${trimBranch}`)
  await expect(discard.getByTestId('discard-what')).toContainText('src/lexer.ts')
  await expect(discard.getByTestId('discard-what')).toContainText('This cannot be undone.')
  await shootSizes(page, 'review-discard-dialog')
  await discard.getByTestId('discard-confirm').click()
  await expect(discard).toHaveCount(0)
  await expect(dialog.getByTestId('review-outcome')).toContainText(`Discarded ${trimBranch}: worktree removed, branch deleted.`)
  expect(branches()).not.toContain(trimBranch)

  // Merge all: only the README agent is left, and it merges cleanly (merge commit this time).
  await dialog.getByTestId('review-nav-overview').click()
  await expect(dialog.getByTestId('merge-all-plan')).toHaveText('“Merge all” merges 1 (Document lex() in the README), in that order, with no conflict.')
  await dialog.getByTestId('merge-all').click()
  await expect(merge.getByTestId('merge-strategy-squash')).toBeChecked() // remembered
  await merge.getByTestId('merge-strategy-merge').check()
  await merge.getByTestId('merge-confirm').click()
  await expect(merge.getByTestId('merge-merged')).toHaveCount(1)
  await merge.getByTestId('merge-done').click()
  expect(branches()).toEqual([])
  expect(git('status', '--porcelain')).toBe('')
  expect(git('show', 'HEAD:README.md')).toContain('## API')
  expect(git('show', 'HEAD:src/lexer.ts')).toContain('LexError')
  await expect(dialog.getByTestId('review-agent-row').filter({ hasText: 'discarded' })).toHaveCount(1)
  await expect(dialog.getByTestId('review-agent-row').filter({ hasText: 'merged into main' })).toHaveCount(1)
  await shoot(page, 'review-all-landed-1280')
  expect(problems).toEqual([])
})

test('a dirty checkout is refused before anything changes, and the merge says why', async ({ page, openApp }) => {
  await startThreeImplementers(page, openApp)
  writeFileSync(join(app.project, 'README.md'), '# my own edit, not committed\n')
  const head = git('rev-parse', 'HEAD')
  await page.getByTestId('session-changes-button').click()
  const dialog = page.getByTestId('changes-dialog')
  await expect(dialog.getByTestId('review-checkout')).toContainText('main has uncommitted changes (README.md)')
  await dialog.locator('[data-testid=review-agent-row]', { hasText: 'Document lex() in the README' }).getByTestId('review-row-merge').click()
  const merge = page.getByTestId('merge-dialog')
  await expect(merge.getByTestId('merge-refused-early')).toContainText('commit or stash them before merging')
  await expect(merge.getByTestId('merge-verdict')).toHaveText('✓ merges cleanly')
  await expect(merge.getByTestId('merge-confirm')).toBeDisabled()
  await shoot(page, 'review-merge-dirty-1280')
  expect(git('rev-parse', 'HEAD')).toBe(head)
  expect(existsSync(join(app.project, '.git', 'MERGE_HEAD'))).toBe(false)
  expect(branches()).toHaveLength(3)
})

test('Settings: where new agent worktrees start (Claude Code’s worktree.baseRef) and the merge strategy', async ({ page, openApp }) => {
  app = await openApp()
  await page.getByTestId('open-settings').click()
  const dialog = page.getByTestId('settings-dialog')
  const baseRef = dialog.getByTestId('setting-worktreeBaseRef')
  await baseRef.scrollIntoViewIfNeeded()
  await expect(baseRef).toHaveValue('head')
  await baseRef.selectOption('fresh')
  await dialog.getByTestId('setting-mergeStrategy').selectOption('squash')
  await shoot(page, 'review-settings-1280')
  await dialog.getByTestId('settings-save').click()
  await expect(dialog.getByText('Saved.')).toBeVisible()
  // Written where Claude Code keeps it (the e2e host's home), and Fanout's own choice in its settings.
  const home = join(app.dataDir, 'home')
  await expect.poll(() => existsSync(join(home, '.claude', 'settings.json'))).toBe(true)
  expect(JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'))).toEqual({ worktree: { baseRef: 'fresh' } })
  expect(JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')).mergeStrategy).toBe('squash')
  await expect(dialog.getByTestId('worktreeBaseRef-hint')).toContainText('~/.claude/settings.json')
})
