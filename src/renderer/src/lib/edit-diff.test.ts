import { describe, expect, it } from 'vitest'
import { editDiffOf } from './edit-diff'

describe('editDiffOf', () => {
  it('shows an Edit as its old and new strings, with line counts', () => {
    expect(editDiffOf('Edit', { file_path: 'src/a.ts', old_string: 'a\nb', new_string: 'a\nc\nd' })).toEqual({
      path: 'src/a.ts',
      oldText: 'a\nb',
      newText: 'a\nc\nd',
      removed: 2,
      added: 3
    })
  })

  it('shows a Write as all added, and says it is the whole file', () => {
    const d = editDiffOf('Write', { file_path: 'new.md', content: 'one\ntwo\n' })
    expect(d).toMatchObject({ oldText: '', newText: 'one\ntwo\n', removed: 0, added: 2, note: 'whole file' })
  })

  it('shows an overwriting Write against the text it replaces: asking, with the file as it was; done, with its patch', () => {
    const input = { file_path: 'src/a.ts', content: 'one\nTWO\nthree\n' }
    const asking = editDiffOf('Write', input, { previousText: 'one\ntwo\nthree\n' })
    expect(asking).toMatchObject({ oldText: 'one\ntwo\nthree\n', newText: 'one\nTWO\nthree\n', removed: 1, added: 1, note: 'replaces the whole file' })
    const details = {
      kind: 'update',
      patch: { additions: 1, deletions: 1, hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', '-two', '+TWO', ' three'] }] }
    }
    expect(editDiffOf('Write', input, { details })).toMatchObject({ oldText: 'one\ntwo\nthree', newText: 'one\nTWO\nthree', removed: 1, added: 1 })
    // A new file stays all added, whatever its details say.
    expect(editDiffOf('Write', input, { details: { kind: 'create', patch: { hunks: [] } } })).toMatchObject({ oldText: '', note: 'whole file' })
  })

  it('joins a MultiEdit’s edits and counts each', () => {
    const d = editDiffOf('MultiEdit', {
      file_path: 'x.ts',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c\nd', new_string: '' }
      ]
    })
    expect(d).toMatchObject({ removed: 3, added: 1, note: '2 edits' })
  })

  it('shows a NotebookEdit as the cell’s new source', () => {
    expect(editDiffOf('NotebookEdit', { notebook_path: 'n.ipynb', cell_id: '2', new_source: 'x = 1', edit_mode: 'insert' })).toMatchObject({
      newText: 'x = 1',
      note: 'cell 2: insert'
    })
  })

  it('is null for other tools and for input not complete enough to show', () => {
    expect(editDiffOf('Bash', { command: 'ls' })).toBeNull()
    expect(editDiffOf('Edit', { file_path: 'a' })).toBeNull()
    expect(editDiffOf('Write', undefined)).toBeNull()
  })
})
