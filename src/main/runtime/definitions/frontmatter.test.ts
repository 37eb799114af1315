import { describe, expect, it } from 'vitest'
import { splitFrontmatter } from './frontmatter'

describe('splitFrontmatter', () => {
  it('splits YAML and body and says where each starts', () => {
    const r = splitFrontmatter('---\nname: a\n---\nBody\n')
    expect(r).toMatchObject({ ok: true, yaml: 'name: a\n', yamlStart: { line: 2, column: 1 }, body: 'Body\n', closeMidLine: false })
  })

  it('skips blank lines after the opening --- like Claude Code, keeping line numbers right', () => {
    const r = splitFrontmatter('---  \n\n\nname: a\n---\n')
    expect(r).toMatchObject({ ok: true, yaml: 'name: a\n', yamlStart: { line: 4, column: 1 } })
  })

  it('ends at the first ---, even mid-line, and flags it', () => {
    const r = splitFrontmatter('---\nname: a\ndescription: x --- y\n---\nBody')
    expect(r).toMatchObject({ ok: true, yaml: 'name: a\ndescription: x ', closeMidLine: true, close: { line: 3, column: 16 } })
  })

  it('reports a file without frontmatter and one whose frontmatter never closes', () => {
    expect(splitFrontmatter('# Title\n')).toMatchObject({ ok: false, reason: 'no-frontmatter' })
    expect(splitFrontmatter('----\nname: a\n----\n')).toMatchObject({ ok: false, reason: 'no-frontmatter' })
    expect(splitFrontmatter('---name: a\n---\n')).toMatchObject({ ok: false, reason: 'no-frontmatter' })
    expect(splitFrontmatter('---\nname: a\ndescription: b\n')).toMatchObject({ ok: false, reason: 'unterminated' })
  })

  it('stays linear on input that makes the regex form backtrack', () => {
    const text = `---${'\n'.repeat(200_000)}`
    expect(splitFrontmatter(text)).toMatchObject({ ok: false, reason: 'unterminated' })
  })
})
