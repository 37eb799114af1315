// The agent editor in browser mode over the real host: create an agent through the form, see it in the
// library and in the Agent tool's listing, run it with "Try it" (scripted model, its own worktree), edit its
// tools and watch the resolved set change, keep the raw file in step with the form, repair a broken file,
// see a change made on disk arrive, and never lose a draft to one. Screenshots of each view, light and dark.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test, watchProblems } from './support/app-test'
import { shoot } from './support/screens'
import { agentFile } from './support/fixtures'

test.use({ viewport: { width: 1600, height: 960 } })

/** A description that runs over lines with an <example> block at column 0: Claude Code skips this file. */
const BROKEN = agentFile(
  [
    'name: release-notes',
    'description: Use this agent to draft release notes. Examples:',
    '<example>',
    'Context: a release is tagged',
    'user: "write the notes for 1.2"',
    'assistant: "I will use release-notes"',
    '</example>',
    'tools: Read, Grep'
  ],
  'You draft release notes from the git log.'
)

async function typeInEditor(page: Page, testId: string, text: string) {
  const editor = page.getByTestId(testId)
  await editor.click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.insertText(text)
}

test('create, list, try, edit tools, raw view, repair, outside changes', async ({ page, openApp }) => {
  const problems = watchProblems(page, { console: true })
  const app = await openApp({
    speed: 0.5,
    connected: true,
    before: (app) => {
      writeFileSync(join(app.project, '.claude/agents/release-notes.md'), BROKEN)
      const userAgents = join(app.dataDir, 'home', '.claude', 'agents')
      mkdirSync(userAgents, { recursive: true })
      writeFileSync(
        join(userAgents, 'code-reviewer.md'),
        '---\nname: code-reviewer\ndescription: My own reviewer, used in every project.\ncolor: blue\n---\nReview like me.\n'
      )
    }
  })
  await page.getByTestId('open-agents').click()

  // The library: grouped by source, the user's reviewer shadowed by the project's, the broken file flagged.
  const library = page.getByTestId('agent-library')
  await expect(library.getByTestId('group-project')).toBeVisible()
  await expect(library.getByTestId('group-built-in')).toBeVisible()
  await expect(library.getByTestId('group-user').getByTestId('library-entry')).toContainText('replaced by project code-reviewer.md')
  await expect(library.locator('[data-testid=library-entry]', { hasText: 'release-notes.md' })).toContainText('not loaded')
  await expect(page.getByTestId('agent-listing')).toContainText(
    '- code-reviewer: Reviews code for correctness and error handling. Use after changes. (Tools: Read, Grep, Glob)'
  )
  await shoot(page, '11-agent-library')

  // Search narrows the library.
  await page.getByTestId('library-search').fill('no agent is called this')
  await expect(library.getByTestId('library-entry')).toHaveCount(0)
  await page.getByTestId('library-search').fill('test-writer')
  await expect(library.getByTestId('library-entry')).toHaveCount(1)
  await page.getByTestId('library-search').fill('')

  // Create an agent through the form.
  await page.getByTestId('new-agent').click()
  await page.getByTestId('new-agent-name').fill('changelog-writer')
  await page.getByTestId('new-agent-create').click()
  await expect(page.getByTestId('editor-title')).toHaveText('changelog-writer')
  await page
    .getByTestId('field-input-description')
    .fill('Writes the changelog: what changed, for whom.\n<example>\nuser: "what changed since 1.1?"\n</example>')
  await page.getByTestId('tools-picker-all').uncheck()
  await expect(page.getByTestId('resolved-tools')).toHaveText(/^ReadGrepGlob$/)
  await page.getByTestId('model-choices').getByRole('radio', { name: 'haiku' }).click()
  await page.getByTestId('color-green').click()
  await typeInEditor(
    page,
    'prompt-editor',
    'You write changelogs. Read the README and the sources, then list what changed.\n\n## Output\n\n- one line per change'
  )
  await expect(page.getByTestId('listing-line')).toHaveText(
    '- changelog-writer: Writes the changelog: what changed, for whom.\n<example>\nuser: "what changed since 1.1?"\n</example> (Tools: Read, Grep, Glob)'
  )
  await expect(page.getByTestId('unsaved')).toBeVisible()
  await page.getByTestId('action-save').click()
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  const file = join(app.project, '.claude/agents/changelog-writer.md')
  const saved = readFileSync(file, 'utf8')
  expect(saved).toContain('description: |-\n  Writes the changelog: what changed, for whom.\n  <example>')
  expect(saved).toContain('tools: Read, Grep, Glob\nmodel: haiku\ncolor: green\n')
  await expect(page.getByTestId('problems-panel')).toContainText('Loads cleanly')
  await page.locator('.ae-main-scroll').evaluate((el) => el.scrollTo(0, 0))
  await shoot(page, '12-agent-form')
  await page.getByTestId('field-model').evaluate((el) => el.scrollIntoView({ block: 'start' }))
  await shoot(page, '12-agent-form-fields')

  // It is in the library and in the Agent tool's listing (and in the new-session agent picker).
  await expect(library.locator('[data-testid=library-entry][data-agent=changelog-writer]')).toContainText('Read, Grep, Glob')
  await page.getByTestId('agents-home').click()
  await expect(page.getByTestId('agent-listing')).toContainText('- changelog-writer: Writes the changelog: what changed, for whom.')
  await library.locator('[data-testid=library-entry][data-agent=changelog-writer]').click()
  await expect(page.getByTestId('editor-title')).toHaveText('changelog-writer')

  // Try it: the scripted model reads the README in a worktree and reports, in the live panel.
  await page.getByTestId('try-prompt').fill('What changed in this release?')
  await page.getByTestId('try-run').click()
  const panel = page.getByTestId('try-panel').getByTestId('agent-panel')
  await expect(panel).toBeVisible()
  await expect(panel).toContainText('changelog-writer')
  await expect(panel.locator('.panel-meta')).toContainText('haiku') // the draft's own model
  await expect(panel).toHaveAttribute('data-status', 'completed', { timeout: 20_000 })
  await expect(panel).toContainText('Changelog')
  await expect(page.getByTestId('try-finished')).toContainText('worktree was removed')
  await page.locator('.ae-side').evaluate((el) => el.scrollTo(0, el.scrollHeight))
  await shoot(page, '13-agent-try-it')

  // Edit its tools: the resolved set changes at once, and the raw file shows the same text.
  await page.getByTestId('tools-picker-tool-Bash').click()
  await expect(page.getByTestId('resolved-tools')).toHaveText(/^ReadGrepGlobBash$/)
  await page.getByTestId('disallowed-picker-tool-Glob').click()
  await expect(page.getByTestId('resolved-tools')).toHaveText(/^ReadGrepBash$/)
  await page.getByTestId('removed-tools').locator('summary').click()
  await expect(page.getByTestId('removed-tools')).toContainText('Glob — disallowedTools lists Glob')
  await page.getByTestId('tab-raw').click()
  const raw = page.getByTestId('raw-editor')
  await expect(raw).toContainText('tools: Read, Grep, Glob, Bash')
  await expect(raw).toContainText('disallowedTools: Glob')
  await shoot(page, '14-agent-raw')

  // The raw view edits the same text: the form follows.
  await raw.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.insertText('\nAlways mention breaking changes first.\n')
  await page.getByTestId('tab-form').click()
  await expect(page.getByTestId('prompt-editor')).toContainText('Always mention breaking changes first.')
  await page.keyboard.press('ControlOrMeta+s')
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  expect(readFileSync(file, 'utf8')).toContain('disallowedTools: Glob\n')

  // A change on disk shows at once; with unsaved edits it asks, and keeping mine is a choice.
  writeFileSync(file, readFileSync(file, 'utf8').replace('model: haiku', 'model: opus'))
  await expect(page.getByTestId('model-choices').getByRole('radio', { name: 'opus' })).toHaveAttribute('aria-checked', 'true')
  await page.getByTestId('color-purple').click()
  await expect(page.getByTestId('unsaved')).toBeVisible()
  writeFileSync(file, readFileSync(file, 'utf8').replace('model: opus', 'model: sonnet'))
  await expect(page.getByTestId('conflict-banner')).toBeVisible()
  await page.getByTestId('conflict-keep').click()
  await page.getByTestId('action-save').click()
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  const kept = readFileSync(file, 'utf8')
  expect(kept).toContain('color: purple')
  expect(kept).toContain('model: opus') // mine was based on opus; keeping it replaced the outside change knowingly

  // A file that does not load: its error, and a one-click fix that keeps every line.
  await library.locator('[data-testid=library-entry]', { hasText: 'release-notes.md' }).click()
  await expect(page.getByTestId('repair-banner')).toContainText('does not load')
  await shoot(page, '15-agent-repair')
  await page.getByTestId('repair-button').click()
  await expect(page.getByTestId('repaired-banner')).toBeVisible()
  await expect(page.getByTestId('field-input-description')).toHaveValue(
    'Use this agent to draft release notes. Examples:\n<example>\nContext: a release is tagged\nuser: "write the notes for 1.2"\nassistant: "I will use release-notes"\n</example>'
  )
  await shoot(page, '16-agent-repaired')
  await page.getByTestId('action-save').click()
  await expect(library.locator('[data-testid=library-entry][data-agent=release-notes]')).not.toContainText('not loaded')
  expect(readFileSync(join(app.project, '.claude/agents/release-notes.md'), 'utf8')).toContain(
    'description: |-\n  Use this agent to draft release notes. Examples:\n  <example>\n'
  )

  expect(problems).toEqual([])
})

test('duplicate, rename, move to user, delete with confirmation; read-only built-ins; preview; the new-session picker', async ({ page, openApp }) => {
  const problems = watchProblems(page, { console: true })
  await openApp({ speed: 0.5 })
  await page.getByTestId('open-agents').click()
  const library = page.getByTestId('agent-library')
  const entry = (name: string) => library.locator(`[data-testid=library-entry][data-agent="${name}"]`)

  // A built-in agent is read-only; duplicating it makes an editable project copy.
  await entry('Explore').click()
  await expect(page.getByTestId('editor-title')).toHaveText('Explore')
  await expect(page.getByTestId('action-save')).toHaveCount(0)
  await page.getByTestId('action-duplicate').click()
  await expect(page.getByTestId('editor-title')).toHaveText('Explore-copy')
  await expect(entry('Explore-copy')).toContainText('Explore-copy.md')
  await expect(page.getByTestId('action-save')).toBeVisible()

  // Rename: file and name together.
  await page.getByTestId('action-rename').click()
  await page.getByTestId('rename-name').fill('explorer-lite')
  await page.getByTestId('rename-confirm').click()
  await expect(page.getByTestId('editor-title')).toHaveText('explorer-lite')
  await expect(entry('explorer-lite')).toContainText('explorer-lite.md')
  await expect(entry('Explore-copy')).toHaveCount(0)

  // The prompt preview renders the markdown.
  await page.getByTestId('prompt-mode-split').click()
  await expect(page.getByTestId('prompt-preview').locator('li').first()).toBeVisible()

  // Move to the user folder.
  await page.getByTestId('action-move').click()
  await expect(library.getByTestId('group-user').locator('[data-agent=explorer-lite]')).toBeVisible()

  // It is offered as the main agent of a new session.
  await page.getByTestId('new-session').click()
  await expect(page.getByRole('combobox', { name: 'Main agent' }).locator('option', { hasText: 'explorer-lite' })).toHaveCount(1)

  // Delete asks first.
  await page.getByTestId('open-agents').click()
  await entry('explorer-lite').click()
  await page.getByTestId('action-delete').click()
  await expect(page.getByTestId('delete-dialog')).toContainText('explorer-lite.md')
  await page.getByTestId('delete-confirm').click()
  await expect(entry('explorer-lite')).toHaveCount(0)
  await expect(page.getByTestId('agents-overview')).toBeVisible()
  expect(problems).toEqual([])
})
