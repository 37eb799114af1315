// A path splits into the directory (which gives way first in a narrow box) and the file name (kept whole).
import { describe, expect, it } from 'vitest'
import { splitPath } from './path-text'

describe('splitPath', () => {
  it('keeps the separator with the directory, so the two read as the path again', () => {
    expect(splitPath('/home/a/proj/.claude/agents/security-code-reviewer.md')).toEqual({
      dir: '/home/a/proj/.claude/agents/',
      base: 'security-code-reviewer.md'
    })
    expect(splitPath('C:\\Users\\a\\.claude\\agents\\x.md')).toEqual({ dir: 'C:\\Users\\a\\.claude\\agents\\', base: 'x.md' })
  })
  it('a bare name has no directory', () => {
    expect(splitPath('x.md')).toEqual({ dir: '', base: 'x.md' })
  })
})
