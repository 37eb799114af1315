// The prompt box's habits of the field: ↑ recalls the project's earlier prompts (a shell's history, kept
// across reloads, Escape back to the draft, a recalled entry edited without changing the history); `/` at
// the start lists commands with what they take and do; `@` lists the project's files (fuzzy) and agents,
// and a mentioned file reaches the model with the prompt as Claude Code sends it. Keyboard only, with the
// listbox pattern's roles. Screenshots: e2e/artifacts/screens/prompt-*.png.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { reply, scriptByAgent, type ParsedRequest } from '../src/main/runtime/model/scripted'
import { expect, test } from './support/app-test'
import { shoot } from './support/screens'
import { BUILTIN_COMMANDS } from '../src/shared/prompt-commands'

/** The main agent answers each prompt; `seen` collects the text blocks of each prompt's user message. */
function recorder(seen: string[][]) {
  return scriptByAgent([
    {
      name: 'main',
      match: 'lead agent in Fanout',
      turns: [],
      then: (req: ParsedRequest) => {
        const last = req.messages.at(-1)!
        const blocks = Array.isArray(last.content) ? last.content : [{ type: 'text', text: last.content }]
        seen.push(blocks.map((b: { text?: string }) => b.text ?? ''))
        return reply.text(`Answer ${seen.length}.`)
      }
    }
  ])
}

const skill = (root: string) => {
  const dir = join(root, '.claude', 'skills', 'release-notes')
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'SKILL.md'),
    '---\nname: release-notes\ndescription: Drafts release notes from the commits since a tag\nargument-hint: <since-tag>\n---\nDraft them.\n'
  )
}

async function activeOption(page: Page, box: string) {
  const id = await page.getByTestId(box).getAttribute('aria-activedescendant')
  expect(id, 'the textarea names the active option').toBeTruthy()
  return page.locator(`[id="${id}"]`)
}

test('/ lists commands, @ picks a file that reaches the model, ↑ recalls earlier prompts across a reload', async ({ page, openApp }) => {
  test.setTimeout(120_000)
  const seen: string[][] = []
  await openApp({ viewport: { width: 1280, height: 800 }, respond: recorder(seen), before: (app) => skill(app.project) })
  const box = page.getByTestId('new-prompt')
  await box.click()

  // `/`: the app's own commands and the folder's skill, each with its argument hint and description.
  await page.keyboard.type('/')
  const menu = page.getByRole('listbox', { name: 'Commands' })
  await expect(menu).toBeVisible()
  await expect(menu.getByRole('option', { name: /\/compact/ })).toContainText('[what to keep]')
  await expect(menu.getByRole('option', { name: /\/release-notes/ })).toContainText('<since-tag>')
  await expect(menu.getByRole('option', { name: /\/release-notes/ })).toContainText('Drafts release notes')
  await expect(await activeOption(page, 'new-prompt')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.type('rel')
  await expect(menu.getByRole('option')).toHaveCount(1)
  await shoot(page, 'prompt-commands-1280')
  await page.keyboard.press('Tab')
  await expect(box).toHaveValue('/release-notes ')
  await expect(menu).toHaveCount(0)
  // Escape closes a menu and leaves the text.
  await box.fill('')
  await page.keyboard.type('/')
  await expect(menu).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
  await expect(box).toHaveValue('/')

  // `@`: a fuzzy file picker; ↓ moves, Enter inserts the path.
  await box.fill('')
  await page.keyboard.type('Check @prs')
  const files = page.getByRole('listbox', { name: 'Files and agents' })
  await expect(files.getByRole('option').first()).toContainText('parser.ts')
  await expect(files.getByRole('option').first()).toContainText('src')
  await shoot(page, 'prompt-files-1280')
  await page.keyboard.press('ArrowDown')
  await expect(await activeOption(page, 'new-prompt')).not.toContainText('parser.ts')
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('Enter')
  await expect(box).toHaveValue('Check @src/parser.ts ')
  // Agents too, as @agent-name.
  await page.keyboard.type('with @agent-code')
  await expect(files.getByRole('option').first()).toContainText('@agent-code-reviewer')
  await page.keyboard.press('Enter')
  await page.keyboard.type('please')
  await expect(box).toHaveValue('Check @src/parser.ts with @agent-code-reviewer please')
  await page.keyboard.press('Enter')

  // The file went to the model after the prompt, as the Read tool returns it.
  await expect(page.getByText('Answer 1.')).toBeVisible({ timeout: 30_000 })
  const first = seen[0].join('\n')
  expect(seen[0][0]).toBe('Check @src/parser.ts with @agent-code-reviewer please')
  expect(first).toContain('Called the Read tool with the following input: {"file_path":')
  expect(first).toMatch(/Result of calling the Read tool:\n\s+1\timport \{ lex \} from/)

  // A second prompt, then the history: ↑ newest first, ↓ back, Escape to the draft.
  const followup = page.getByTestId('followup')
  await followup.fill('Second prompt')
  await page.keyboard.press('Enter')
  await expect(page.getByText('Answer 2.')).toBeVisible({ timeout: 30_000 })
  /** A key pressed in the box, and what the box then holds. */
  const press = async (key: string, holds: string) => {
    await page.keyboard.press(key)
    await expect(followup).toHaveValue(holds)
  }
  await followup.click()
  await page.keyboard.type('my draft')
  await press('ArrowUp', 'Second prompt')
  await press('ArrowUp', 'Check @src/parser.ts with @agent-code-reviewer please')
  await press('ArrowDown', 'Second prompt')
  // Editing a recalled entry does not change the history.
  await page.keyboard.type(' edited')
  await press('Escape', 'my draft')
  await press('ArrowUp', 'Second prompt')
  await page.keyboard.press('Escape')

  // In the conversation the menu opens above the box.
  await followup.fill('')
  await page.keyboard.type('/')
  const above = page.getByRole('listbox', { name: 'Commands' })
  // The app's own commands and the folder's skill.
  await expect(above.getByRole('option')).toHaveCount(BUILTIN_COMMANDS.length + 1)
  expect((await above.boundingBox())!.y + (await above.boundingBox())!.height).toBeLessThanOrEqual((await followup.boundingBox())!.y)
  await shoot(page, 'prompt-followup-commands-1280')
  await page.keyboard.press('Escape')

  // ↑ only from the first line: on a second line it moves the caret as usual.
  await followup.fill('line one\nline two')
  await page.keyboard.press('ArrowUp')
  await expect(followup).toHaveValue('line one\nline two')

  // The history survives a reload.
  await followup.fill('')
  await page.reload()
  await page.getByTestId('followup').click()
  await page.keyboard.press('ArrowUp')
  await expect(page.getByTestId('followup')).toHaveValue('Second prompt')
})

for (const width of [1024, 1920]) {
  test(`the / and @ menus at ${width}`, async ({ page, openApp }) => {
    await openApp({ viewport: { width, height: width === 1024 ? 720 : 1080 }, before: (app) => skill(app.project) })
    await page.getByTestId('new-prompt').click()
    await page.keyboard.type('/')
    await expect(page.getByRole('listbox', { name: 'Commands' }).getByRole('option')).toHaveCount(BUILTIN_COMMANDS.length + 1)
    await shoot(page, `prompt-commands-${width}`)
    await page.getByTestId('new-prompt').fill('')
    await page.keyboard.type('@')
    await expect(page.getByRole('listbox', { name: 'Files and agents' }).getByRole('option').first()).toBeVisible()
    await shoot(page, `prompt-files-${width}`)
  })
}
