// Edits are never approved blind: an Edit's permission card shows the diff it makes (the Review screen's
// DiffView), a Write of a new file shows as all added, a Write over an existing file as the diff against the
// text it replaces (approval and row), and the transcript row of an edit opens to the same diff.
import { block, reply, scriptByAgent } from '../src/main/runtime/model/scripted'
import { expect, expectWaiting, test } from './support/app-test'
import { shoot } from './support/screens'

const NEW_LINE = '  return src.trim().split(/\\s+/).filter(Boolean)'

const script = scriptByAgent([
  {
    name: 'main',
    match: 'lead agent in Fanout',
    turns: [
      reply.with(
        { textChunk: 20, chunkDelayMs: 5 },
        block.text('Trimming the input and dropping empty tokens.'),
        block.toolUse('Edit', { file_path: 'src/lexer.ts', old_string: '  return src.split(/\\s+/)', new_string: NEW_LINE })
      ),
      reply.with(
        { textChunk: 20, chunkDelayMs: 5 },
        block.text('And a note for the changelog.'),
        block.toolUse('Write', { file_path: 'CHANGES.md', content: '# Changes\n\n- lex() trims its input\n- empty tokens are dropped\n' })
      ),
      reply.toolUse('Read', { file_path: 'README.md' }),
      reply.with(
        { textChunk: 20, chunkDelayMs: 5 },
        block.text('The README says what parse returns now.'),
        block.toolUse('Write', { file_path: 'README.md', content: '# tiny-parser\n\n`parse(src)` returns the tokens of `src`.\n' })
      )
    ],
    then: () => reply.text('Both changes are made.')
  }
])

for (const width of [1024, 1280, 1920]) {
  test(`an Edit approval shows its diff, a new file shows all added, and the row opens to the diff (${width})`, async ({ page, openApp }) => {
    await openApp({ respond: script, viewport: { width, height: 900 }, prompt: 'Make the lexer trim its input.' })
    await expectWaiting(page, 1)
    // The card in the conversation: the lines removed and added, not only the path.
    const card = page.getByTestId('permission-card')
    const diff = card.getByTestId('diff-view')
    await expect(diff).toBeVisible()
    await expect(diff).toContainText('return src.split(/\\s+/)')
    await expect(diff).toContainText('.filter(Boolean)')
    await expect(card.getByTestId('edit-diff')).toContainText('+1')
    await expect(card.getByTestId('edit-diff')).toContainText('−1')
    // Named for screen readers.
    await expect(card.getByRole('textbox', { name: /src\/lexer\.ts, the change asked for/ }).first()).toBeAttached()
    await shoot(page, `edit-approval-${width}`)
    await card.getByTestId('perm-allow').click()

    // The Write of a new file: all of it added.
    await expectWaiting(page, 1)
    const write = page.getByTestId('permission-card').getByTestId('edit-diff')
    await expect(write).toContainText('whole file, all added')
    await expect(write).toContainText('+4')
    await expect(write.getByTestId('diff-view')).toContainText('empty tokens are dropped')
    await shoot(page, `write-approval-${width}`)
    await page.getByTestId('permission-card').getByTestId('perm-allow').click()

    // The Write over the README: the line it changes, against the text it replaces, not the whole file as new.
    await expectWaiting(page, 1)
    const over = page.getByTestId('permission-card').getByTestId('edit-diff')
    await expect(over).toContainText('replaces the whole file')
    await expect(over).toContainText('+1')
    await expect(over).toContainText('−1')
    await expect(over.getByTestId('diff-view')).toContainText('returns an AST')
    await expect(over.getByTestId('diff-view')).toContainText('returns the tokens')
    await shoot(page, `write-over-approval-${width}`)
    await page.getByTestId('permission-card').getByTestId('perm-allow').click()
    await expect(page.getByTestId('assistant-text').filter({ hasText: 'Both changes are made.' })).toHaveCount(1, { timeout: 30_000 })

    // The Edit's row in the transcript opens to the same diff, not raw JSON.
    const row = page.locator('[data-testid=tool-row][data-tool=Edit]').first()
    await row.locator('.tool-head').click()
    await expect(row.getByTestId('diff-view')).toContainText('.filter(Boolean)')
    await expect(row.locator('.tool-body')).not.toContainText('"old_string"')
    await shoot(page, `edit-row-${width}`)
    // The README's Write row: the patch it made.
    const overRow = page.locator('[data-testid=tool-row][data-tool=Write]').last()
    await overRow.locator('.tool-head').click()
    await expect(overRow.getByTestId('edit-diff')).toContainText('overwrote the file')
    await expect(overRow.getByTestId('diff-view')).toContainText('returns an AST')
    await expect(overRow.getByTestId('diff-view')).toContainText('returns the tokens')
  })
}
