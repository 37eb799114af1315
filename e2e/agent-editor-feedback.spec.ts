// What the agent editor tells a person about a file that is broken and about saving it: a file that loads
// only thanks to Claude Code's quoting gets a warning (as its problems are warnings), said once, with each
// line to look at, and a form that looks as locked as it is and says why; every save says "Saved <file>";
// saving a file that will not load asks first, from the keyboard too; a form field emptied speaks of the
// unsaved draft and points at that field, never at quotes or the raw file; what was typed in a field the file
// cannot take (YAML that does not parse) is never dropped by a save that then says "Saved": the save is refused,
// naming the field and where it is. Screenshots in light and dark.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test, watchProblems, type OpenApp } from './support/app-test'
import { shoot } from './support/screens'
import { agentFile, type BrowserMode } from './support/fixtures'

let app: BrowserMode
test.use({ viewport: { width: 1400, height: 900 } })

/** Two values Claude Code has to quote to read (`: ` and `[`): not valid YAML, but the agent loads. */
const QUOTED = agentFile(
  ['name: code-reviewer', 'description: Reviews code. Use when: a change is ready', 'color: [purple', 'model: sonnet'],
  'You review code.'
)
/** Line 5 indented by mistake: hard YAML error, the agent does not load. */
const INDENTED = agentFile(['name: code-reviewer', 'description: Reviews code.', 'tools: Read', '  model: sonnet'], 'You review code.')

async function start(page: Page, openApp: OpenApp) {
  const problems = watchProblems(page, { console: true })
  app = await openApp({ speed: 0.5, connected: true })
  await page.getByTestId('open-agents').click()
  return problems
}

const entry = (page: Page, name: string) => page.getByTestId('agent-library').locator(`[data-testid=library-entry][data-agent="${name}"]`)

const reviewerFile = () => join(app.project, '.claude/agents/code-reviewer.md')

/** The editor open on code-reviewer; `before` is its text on disk, to show a step wrote nothing. */
async function openReviewer(page: Page, openApp: OpenApp) {
  const problems = await start(page, openApp)
  const file = reviewerFile()
  const before = readFileSync(file, 'utf8')
  await entry(page, 'code-reviewer').click()
  return { problems, file, before }
}

async function replaceRaw(page: Page, text: string) {
  await page.getByTestId('tab-raw').click()
  await page.getByTestId('raw-editor').click()
  await page.keyboard.press('ControlOrMeta+a')
  // Emptied by CodeMirror's own Backspace first: typing over a highlighted selection lets Chromium's editing
  // try to keep the old spans' colors as style attributes, which the app's CSP (rightly) refuses and logs.
  await page.keyboard.press('Backspace')
  await page.keyboard.insertText(text)
}

const look = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const s = el.ownerDocument.defaultView!.getComputedStyle(el)
    return { background: s.backgroundColor, color: s.color, border: `${s.borderStyle} ${s.borderColor}`, cursor: s.cursor }
  })

test('a file that loads only because values are quoted: a warning said once, Fix it on offer, and a form that stays open', async ({ page, openApp }) => {
  const problems = await start(page, openApp)
  // How an editable field looks, to compare with.
  await entry(page, 'docs-writer').click()
  await expect(page.getByTestId('field-input-name')).toBeEnabled()
  const editable = await look(page, 'field-input-name')

  writeFileSync(reviewerFile(), QUOTED)
  await entry(page, 'code-reviewer').click()
  const banner = page.getByTestId('repair-banner')
  await expect(banner).toBeVisible()

  // Its severity is the problems' severity: warnings, not errors.
  await expect(page.getByTestId('problems-panel')).toContainText('3 warnings')
  await expect(page.getByTestId('problems-panel')).not.toContainText(/error/i)
  await expect(banner).toHaveAttribute('data-severity', 'warning')
  await expect(banner).toHaveClass(/\bwarn\b/)

  // Said once, pointing at each line (the line links show it in the raw file).
  const said = await banner.innerText()
  expect(said.match(/not valid YAML/gi) ?? []).toHaveLength(1)
  expect(said.match(/quot/gi)?.length ?? 0).toBeLessThanOrEqual(2)
  const sentences = said
    .split(/(?<=[.;:])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 12)
  expect(new Set(sentences).size).toBe(sentences.length)
  await expect(banner.getByRole('button', { name: 'line 3' })).toBeVisible()
  await expect(banner.getByRole('button', { name: 'line 4' })).toBeVisible()
  await expect(banner).toContainText('so does changing any field in the form')

  // The form stays open, looking it: the repair is offered, never required to edit another field.
  const name = page.getByTestId('field-input-name')
  await expect(name).toBeEnabled()
  await expect(page.getByTestId('form-locked')).toHaveCount(0)
  await page.emulateMedia({ colorScheme: 'light' })
  expect(await look(page, 'field-input-name')).toEqual(editable)
  await shoot(page, '30-agent-quoted-banner')

  // A line link shows that line in the raw file.
  await banner.getByRole('button', { name: 'line 4' }).click()
  await expect(page.getByTestId('tab-raw')).toHaveAttribute('aria-selected', 'true')
  await page.getByTestId('tab-form').click()

  // Editing a field makes the same repair with it: the banner goes, every word is kept.
  const description = page.getByTestId('field-input-description')
  await description.fill('Reviews code. Use when: a change is ready, or on request')
  await expect(page.getByTestId('repair-banner')).toHaveCount(0)
  await page.getByTestId('tab-raw').click()
  await expect(page.getByTestId('raw-editor')).toContainText('color: "[purple"')
  await expect(page.getByTestId('raw-editor')).toContainText('description: "Reviews code. Use when: a change is ready, or on request"')
  await page.getByTestId('tab-form').click()
  await shoot(page, '31-agent-quoted-edited')
  expect(problems).toEqual([])
})

test('a file that does not load: an error banner at the line that is wrong', async ({ page, openApp }) => {
  const problems = await start(page, openApp)
  writeFileSync(reviewerFile(), INDENTED)
  // A file that does not load has no agent name: it is listed by its file.
  await page.getByTestId('agent-library').locator('[data-testid=library-entry]', { hasText: 'code-reviewer.md' }).click()
  const banner = page.getByTestId('load-error-banner')
  await expect(banner).toHaveAttribute('data-severity', 'error')
  await expect(banner).toContainText('does not load')
  await expect(banner).toContainText('code-reviewer.md:5:3')
  await expect(page.getByTestId('problems-panel').getByTestId('problem')).toContainText('code-reviewer.md:5:3')
  await shoot(page, '34-agent-load-error')
  // Its location shows the line in the raw file.
  await banner.getByRole('button', { name: 'code-reviewer.md:5:3' }).click()
  await expect(page.getByTestId('tab-raw')).toHaveAttribute('aria-selected', 'true')
  expect(problems).toEqual([])
})

test('Save and Ctrl+S say "Saved <file>", in a status toast', async ({ page, openApp }) => {
  const { problems } = await openReviewer(page, openApp)
  await page.getByTestId('color-green').click()
  await expect(page.getByTestId('unsaved')).toBeVisible()
  await page.getByTestId('action-save').click()
  const saved = page.getByRole('status').filter({ hasText: 'Saved code-reviewer.md' })
  await expect(saved).toBeVisible()
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  await expect(page.locator('[aria-live=polite]').filter({ has: saved })).toHaveCount(1)
  await shoot(page, '32-agent-saved')
  await saved.getByRole('button', { name: 'Dismiss' }).click()
  await expect(saved).toHaveCount(0)

  await page.getByTestId('color-blue').click()
  await expect(page.getByTestId('unsaved')).toBeVisible()
  await page.keyboard.press('ControlOrMeta+s')
  await expect(saved).toBeVisible()
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  expect(readFileSync(reviewerFile(), 'utf8')).toContain('color: blue')
  expect(problems).toEqual([])
})

test('saving a file that will not load asks first; keyboard only; warnings alone do not ask', async ({ page, openApp }) => {
  const { problems, file, before } = await openReviewer(page, openApp)
  await replaceRaw(page, INDENTED)
  await expect(page.getByTestId('problems-panel')).toContainText('code-reviewer.md:5:3')

  // Save asks, naming the reason and the place; Escape keeps editing and writes nothing.
  await page.getByTestId('action-save').click()
  const dialog = page.getByTestId('save-anyway-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('Saved like this, the agent will not load: the frontmatter is not valid YAML: line 5 is indented')
  await expect(dialog).toContainText('code-reviewer.md:5:3')
  await expect(dialog).toContainText('Save anyway?')
  await expect(page.getByRole('dialog', { name: /will not load/ })).toHaveAccessibleDescription(/Saved like this, the agent will not load/)
  await expect(dialog.getByRole('button', { name: 'Keep editing' })).toBeFocused()
  await shoot(page, '33-agent-save-anyway')
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  expect(readFileSync(file, 'utf8')).toBe(before)
  await expect(page.getByTestId('unsaved')).toBeVisible()

  // Ctrl+S asks too; Enter on the focused Keep editing closes it; Tab then Enter saves anyway.
  await page.keyboard.press('ControlOrMeta+s')
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  expect(readFileSync(file, 'utf8')).toBe(before)
  await page.keyboard.press('ControlOrMeta+s')
  await expect(dialog.getByRole('button', { name: 'Keep editing' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(dialog.getByRole('button', { name: 'Save anyway' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('status').filter({ hasText: 'Saved code-reviewer.md' })).toBeVisible()
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  expect(readFileSync(file, 'utf8')).toBe(INDENTED)

  // Only warnings: it loads, so it saves without asking.
  await replaceRaw(page, QUOTED)
  await expect(page.getByTestId('problems-panel')).toContainText('3 warnings')
  await page.getByTestId('action-save').click()
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  await expect(dialog).toHaveCount(0)
  expect(readFileSync(file, 'utf8')).toBe(QUOTED)
  expect(problems).toEqual([])
})

test('a description cleared in the form: the draft would not load, fill in Description — not the file, not quotes', async ({ page, openApp }) => {
  const { problems, file, before } = await openReviewer(page, openApp)
  const description = page.getByTestId('field-input-description')
  await description.fill('')

  // The banner speaks of the change, names the field, and says the file on disk is fine.
  const banner = page.getByTestId('load-error-banner')
  await expect(banner).toHaveAttribute('data-draft', 'unsaved')
  await expect(page.getByTestId('load-problem')).toHaveText(
    'With this change the agent would not load: description is required — fill in Description (at code-reviewer.md:3:14)'
  )
  await expect(page.getByTestId('load-problem-note')).toHaveText('The file on disk still loads. Saved like this, Claude Code and Fanout would skip it.')
  await expect(banner).not.toContainText(/This file does not load|raw file|quote/)
  // Under the field: plainly required.
  await expect(page.getByTestId('field-description').getByTestId('field-problem')).toContainText('Required: without it the agent does not load.')
  await expect(page.getByTestId('field-description')).not.toContainText(/quote/)
  await shoot(page, '35-agent-draft-description-cleared')

  // "Description" in the banner goes to the field (from the raw file too).
  await page.getByTestId('tab-raw').click()
  await banner.getByRole('button', { name: 'Description' }).click()
  await expect(page.getByTestId('tab-form')).toHaveAttribute('aria-selected', 'true')
  await expect(description).toBeFocused()

  // Save asks, in the same words; its "Description" closes the dialog and goes to the field.
  await page.getByTestId('action-save').click()
  const dialog = page.getByTestId('save-anyway-dialog')
  await expect(dialog.locator('#save-anyway-reason')).toHaveText(
    'Saved like this, the agent will not load: description is required — fill in Description first (at code-reviewer.md:3:14). Save anyway?'
  )
  await expect(dialog).toContainText('code-reviewer.md loads as it is on disk now; after this save, Claude Code and Fanout skip it')
  // Keep editing has the focus, though the Description link comes first.
  await expect(dialog.getByTestId('save-anyway-cancel')).toBeFocused()
  await expect(dialog).not.toContainText(/quote/)
  await shoot(page, '36-agent-save-anyway-description')
  await dialog.getByRole('button', { name: 'Description' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(description).toBeFocused()
  expect(readFileSync(file, 'utf8')).toBe(before)

  // Saved anyway: now it is the file that does not load, and the library says so.
  await page.getByTestId('action-save').click()
  await dialog.getByTestId('save-anyway-confirm').click()
  await expect(page.getByTestId('unsaved')).toHaveCount(0)
  await expect(banner).toHaveAttribute('data-draft', 'saved')
  await expect(page.getByTestId('load-problem')).toHaveText('This file does not load: description is required — fill in Description (at code-reviewer.md:3:14)')
  await expect(page.getByTestId('load-problem-note')).toHaveText('Until it is fixed, Claude Code and Fanout skip it.')

  // Filled in again: it loads, and the banner goes.
  await description.fill('Reviews code.')
  await expect(banner).toHaveCount(0)
  expect(problems).toEqual([])
})

test('a save never drops what was typed in a field the file could not take: refused, naming the field and its line', async ({ page, openApp }) => {
  const { problems, file, before } = await openReviewer(page, openApp)
  // YAML that does not parse, in the hooks field: the file keeps its last good value and the field says why.
  await page.locator('[data-testid=yaml-hooks] .cm-content').click()
  await page.keyboard.insertText('PreToolUse: [')
  await expect(page.getByTestId('field-hooks').getByRole('alert')).toContainText('not valid YAML', { timeout: 10_000 })
  // Another field's change is made all the same.
  await page.getByTestId('color-green').click()
  await expect(page.getByTestId('unsaved')).toBeVisible()
  await page.getByTestId('action-save').click()
  const refused = page.getByTestId('save-error')
  await expect(refused).toContainText('Not saved: what you typed in this field is not in the file')
  await expect(refused).toContainText('Hooks (`hooks`, not in code-reviewer.md yet)')
  await expect(page.getByRole('status').filter({ hasText: 'Saved code-reviewer.md' })).toHaveCount(0)
  expect(readFileSync(file, 'utf8')).toBe(before)
  // The checks beside it are about the file without what was typed, and say so first.
  await expect(page.getByTestId('problems-unapplied')).toContainText('What you typed in Hooks is not in the file')
  await shoot(page, '37-agent-save-refused')

  // Fixed: the refusal goes, and the save writes both fields.
  await page.locator('[data-testid=yaml-hooks] .cm-content').click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('Backspace')
  await page.keyboard.insertText('PreToolUse: []')
  await expect(refused).toHaveCount(0, { timeout: 10_000 })
  await expect(page.getByTestId('problems-unapplied')).toHaveCount(0)
  await page.getByTestId('action-save').click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved code-reviewer.md' })).toBeVisible()
  const saved = readFileSync(file, 'utf8')
  expect(saved).toContain('PreToolUse: []')
  expect(saved).toContain('color: green')
  expect(problems).toEqual([])
})
