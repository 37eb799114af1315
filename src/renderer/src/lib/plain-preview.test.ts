import { describe, expect, it } from 'vitest'
import { plainPreview, plainTail } from './plain-preview'

describe('plainPreview', () => {
  it('shows the words of a result without its markdown markers', () => {
    expect(plainPreview('**Report:** the lexer drops *positions* and ~~columns~~.', 200)).toBe('Report: the lexer drops positions and columns.')
    expect(plainPreview('`parse()` lives in [src/parser.ts](src/parser.ts) and runs over `lex()`.', 200)).toBe(
      'parse() lives in src/parser.ts and runs over lex().'
    )
    expect(plainPreview('__Done__ — see <https://example.com/x> and ![diagram](d.png)', 200)).toBe('Done — see https://example.com/x and diagram')
  })

  it('keeps underscores and stars that are not emphasis', () => {
    expect(plainPreview('Renamed parse_tokens to lex_all; 2 * 3 = 6', 200)).toBe('Renamed parse_tokens to lex_all; 2 * 3 = 6')
    expect(plainPreview('Use `**kwargs` and `a_b_c`', 200)).toBe('Use **kwargs and a_b_c')
    expect(plainPreview('Escaped \\*stars\\* stay', 200)).toBe('Escaped *stars* stay')
    expect(plainPreview('A regex: `a\\*b` as written', 200)).toBe('A regex: a\\*b as written')
  })

  it('folds a multi-line report into one line: headings introduce, lists keep their items, code and rules drop out', () => {
    const report = [
      '## Findings',
      '',
      '1. `lex()` never reports a **line**.',
      '2. Splitting loses columns.',
      '',
      '- [x] checked',
      '> quoted',
      '',
      '```ts',
      'const x = 1',
      '```',
      '---'
    ].join('\n')
    expect(plainPreview(report, 300)).toBe('Findings: 1. lex() never reports a line. 2. Splitting loses columns. • checked quoted const x = 1')
  })

  it('reads a table as its cells', () => {
    expect(plainPreview('| file | issue |\n|---|:---:|\n| lexer.ts | no positions |', 200)).toBe('file · issue lexer.ts · no positions')
  })

  it('cuts at the limit with an ellipsis, and drops inline HTML tags', () => {
    expect(plainPreview('<b>Bold</b> words that go on and on', 16)).toBe('Bold words that…')
    expect(plainPreview('', 10)).toBe('')
  })
})

describe('plainTail', () => {
  it('is the end of the text as plain words, cut at a word', () => {
    expect(plainTail('## Findings\n\n1. `lex()` never reports a **line**', 200)).toBe('Findings: 1. lex() never reports a line')
    const long = `${'word '.repeat(400)}the **newest** words ‹41›`
    const tail = plainTail(long, 60)
    expect(tail.startsWith('…')).toBe(true)
    expect(tail.endsWith('the newest words ‹41›')).toBe(true)
    expect(tail.length).toBeLessThanOrEqual(60)
  })

  it('keeps showing a long paragraph’s last words once it ends, and when a list item has only its marker yet', () => {
    // Longer than the window a tile reads: the window's first line is cut, and it is the only line with words.
    const paragraph = `${'word '.repeat(400)}the newest words ‹39›`
    for (const end of ['\n\n', '\n', '\n\n- ', '\n\n* ']) {
      const tail = plainTail(paragraph + end, 60)
      expect(tail.endsWith('the newest words ‹39›'), JSON.stringify(end)).toBe(true)
      expect(tail.startsWith('…')).toBe(true)
    }
    // Once the item has words, they are what is newest.
    const item = plainTail(`${paragraph}\n\n- first`, 60)
    expect(item.endsWith('first')).toBe(true)
    expect(item).not.toContain('‹39›')
    // A lone bullet in a finished text is no item either; a number alone may be the whole answer.
    expect(plainPreview('Steps:\n-\n- read', 80)).toBe('Steps: • read')
    expect(plainPreview('42.', 80)).toBe('42.')
  })

  it('drops the backtick of a code span still streaming, not one that is closed or in a fence', () => {
    expect(plainTail('Now the call sites.\n\n`parse', 200)).toBe('Now the call sites. parse')
    expect(plainTail('`parse()` lives in `src/par', 200)).toBe('parse() lives in src/par')
    expect(plainTail('`parse()` lives in src/parser.ts', 200)).toBe('parse() lives in src/parser.ts')
    expect(plainTail('See:\n```ts', 200)).toBe('See:')
  })
})
