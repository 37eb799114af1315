// Every control of the agent editor has an accessible name: a screen reader says which field it is in,
// and getByLabel finds each one by the label a sighted person reads above it.
import { expect, test } from './support/app-test'
import { shoot } from './support/screens'

test.use({ viewport: { width: 1600, height: 960 } })

test('agent editor: each field is named by its label, no control is unnamed', async ({ page, openApp }) => {
  await openApp()
  await page.getByTestId('open-agents').click()
  await page.locator('[data-testid=library-entry][data-agent="test-writer"]').click()
  await expect(page.getByTestId('editor-title')).toHaveText('test-writer')
  const form = page.getByTestId('agent-form')

  await expect(form.getByLabel('Name', { exact: true })).toHaveValue('test-writer')
  await expect(form.getByLabel('Description', { exact: true })).toHaveValue('Runs and writes tests.')
  await expect(form.getByRole('radiogroup', { name: 'Model' })).toBeVisible()
  await expect(form.getByLabel('Model id', { exact: true })).toBeEditable()
  await expect(form.getByLabel('Permission mode', { exact: true })).toHaveValue('')
  await expect(form.getByLabel('Max turns', { exact: true })).toBeEditable()
  await expect(form.getByRole('radiogroup', { name: 'Effort' })).toBeVisible()
  await expect(form.getByRole('radiogroup', { name: 'Memory' })).toBeVisible()
  await expect(form.getByRole('radio', { name: 'project' })).toHaveAttribute('aria-checked', 'false')
  await expect(form.getByRole('group', { name: 'Tools', exact: true })).toContainText('Bash')
  await expect(form.getByLabel('Add to Tools', { exact: true })).toBeEditable()
  await expect(form.getByLabel('Add to Disallowed tools', { exact: true })).toBeEditable()
  await expect(form.getByRole('group', { name: 'Color' })).toBeVisible()
  await expect(form.getByLabel('Skills', { exact: true })).toBeEditable()
  await expect(form.getByLabel('Initial prompt', { exact: true })).toBeEditable()
  await expect(form.getByLabel('MCP servers', { exact: true })).toBeVisible()
  await expect(form.getByLabel('Hooks', { exact: true })).toBeVisible()
  await expect(page.getByLabel('System prompt', { exact: true })).toBeVisible()
  await expect(page.getByLabel('A task for this agent to try', { exact: true })).toBeEditable()
  // The one-line help under a field is its description.
  await expect(form.getByLabel('Max turns', { exact: true })).toHaveAccessibleDescription('The most model calls it may make before it must stop and report.')

  // Clicking a label goes to its control.
  await form.getByTestId('field-maxTurns').locator('label', { hasText: 'Max turns' }).click()
  await expect(form.getByLabel('Max turns', { exact: true })).toBeFocused()

  // No form control, group or radio group is left without a name.
  const unnamed = (await form.ariaSnapshot())
    .split('\n')
    .filter((line) => /^\s*- (textbox|combobox|radiogroup|radio|checkbox|group|button)(\s*\[[^\]]*\])?(:.*)?$/.test(line) && !/^\s*- \w+ "/.test(line))
  expect(unnamed).toEqual([])
  await form.getByLabel('Model id', { exact: true }).focus()
  await shoot(page, 'editor-labels')
})
