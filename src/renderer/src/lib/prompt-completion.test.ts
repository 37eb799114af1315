import { describe, expect, it } from 'vitest'
import { complete, mentionText, rank, triggerAt } from './prompt-completion'

describe('prompt completion', () => {
  it('finds a / command only at the start, an @ mention after a space or at the start', () => {
    expect(triggerAt('/comp', 5)).toEqual({ kind: 'command', query: 'comp', start: 0, end: 5 })
    expect(triggerAt('see /comp', 9)).toBeNull()
    expect(triggerAt('/compact now', 12)).toBeNull()
    expect(triggerAt('look at @src/pa', 15)).toEqual({ kind: 'mention', query: 'src/pa', start: 8, end: 15 })
    expect(triggerAt('mail a@b', 8)).toBeNull()
    expect(triggerAt('@"my no', 7)).toMatchObject({ kind: 'mention', query: 'my no' })
  })

  it('replaces the whole word the caret is in and adds one space', () => {
    const t = triggerAt('fix @pa and', 6)!
    expect(complete('fix @pa and', t, '@src/parser.ts')).toEqual({ text: 'fix @src/parser.ts and', caret: 18 })
    expect(complete('/co', triggerAt('/co', 3)!, '/compact')).toEqual({ text: '/compact ', caret: 9 })
    expect(mentionText('docs/my notes.md')).toBe('@"docs/my notes.md"')
  })

  it('ranks a name match above a folder match, and fuzzy letters in order', () => {
    const files = ['parser/index.ts', 'src/lexer.ts', 'src/parser.ts', 'README.md']
    expect(rank(files, 'parser', (f) => f, 10)[0]).toBe('src/parser.ts')
    expect(rank(files, 'srlx', (f) => f, 10)).toEqual(['src/lexer.ts'])
    expect(rank(files, 'zzz', (f) => f, 10)).toEqual([])
  })
})
