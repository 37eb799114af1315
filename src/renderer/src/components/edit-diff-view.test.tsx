import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { EditDiffView } from './edit-diff-view'

const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i}`).join('\n')

describe('EditDiffView', () => {
  it('starts a large diff collapsed behind its line counts, with a named toggle', () => {
    const html = renderToStaticMarkup(
      <EditDiffView toolName="Edit" input={{ file_path: 'a.ts', old_string: lines(30, 'old'), new_string: lines(31, 'new') }} />
    )
    expect(html).toContain('Show diff (+31 −30 lines)')
    expect(html).toContain('aria-expanded="false"')
    expect(html).not.toContain('data-testid="diff-view"')
  })

  it('shows a small diff open, and a new file as all added', () => {
    const small = renderToStaticMarkup(<EditDiffView toolName="Edit" input={{ file_path: 'a.ts', old_string: 'a', new_string: 'b' }} />)
    expect(small).toContain('data-testid="diff-view"')
    expect(small).not.toContain('Show diff')
    const write = renderToStaticMarkup(<EditDiffView toolName="Write" input={{ file_path: 'n.md', content: 'x\ny\n' }} />)
    expect(write).toContain('whole file, all added')
    expect(write).toContain('2 lines added, 0 lines removed')
  })

  it('draws nothing for a tool that is not an edit', () => {
    expect(renderToStaticMarkup(<EditDiffView toolName="Bash" input={{ command: 'ls' }} />)).toBe('')
  })
})
