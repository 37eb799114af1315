import { describe, expect, it } from 'vitest'
import { formatPatch, patchFromReplacements, patchFromTexts } from './text-patch'

const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}`).join('\n') + '\n'

describe('text patches', () => {
  it('keeps far-apart changes in separate hunks with 3 lines of context and correct numbering', () => {
    const before = lines(20)
    const i2 = before.indexOf('l2\n')
    const i15 = before.indexOf('l15\n')
    const p = patchFromReplacements(before, [
      { index: i2, oldText: 'l2\n', newText: 'two\nzwei\n' },
      { index: i15, oldText: 'l15', newText: 'fifteen' }
    ])
    expect(formatPatch(p)).toBe(
      [
        '@@ -1,5 +1,6 @@',
        ' l1',
        '-l2',
        '+two',
        '+zwei',
        ' l3',
        ' l4',
        ' l5',
        '@@ -12,7 +13,7 @@',
        ' l12',
        ' l13',
        ' l14',
        '-l15',
        '+fifteen',
        ' l16',
        ' l17',
        ' l18'
      ].join('\n')
    )
    expect(p.additions).toBe(3)
    expect(p.deletions).toBe(2)
  })

  it('merges nearby changes and changes on one line', () => {
    const before = 'a b a\nx\ny\na\n'
    const p = patchFromReplacements(before, [
      { index: 0, oldText: 'a', newText: 'A' },
      { index: 4, oldText: 'a', newText: 'A' },
      { index: 10, oldText: 'a', newText: 'A' }
    ])
    expect(p.hunks).toHaveLength(1)
    expect(formatPatch(p)).toBe(['@@ -1,4 +1,4 @@', '-a b a', '+A b A', ' x', ' y', '-a', '+A'].join('\n'))
  })

  it('describes a whole-file rewrite and a creation', () => {
    expect(formatPatch(patchFromTexts('a\nb\nc\n', 'a\nB\nc\n'))).toBe(['@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c'].join('\n'))
    expect(formatPatch(patchFromTexts('', 'x\ny\n'))).toBe(['@@ -0,0 +1,2 @@', '+x', '+y'].join('\n'))
    expect(patchFromTexts('same\n', 'same\n').hunks).toHaveLength(0)
    expect(formatPatch(patchFromTexts('a\nb\n', 'a\n'))).toBe(['@@ -1,2 +1,1 @@', ' a', '-b'].join('\n'))
  })
})
