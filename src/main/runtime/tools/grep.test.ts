import { describe, expect, it } from 'vitest'
import { createGrepTool, splitGlobs } from './grep'
import { searchOptions, useSearchFixture } from './search-fixture'
import { toolContext } from './test-kit'
import { runTool } from '../tool-call/execute'

const fixture = useSearchFixture()
const grep = (input: Record<string, unknown>, ripgrep: string | false | undefined) =>
  runTool(createGrepTool(searchOptions(fixture.dir, ripgrep)), input, toolContext())

const queries: Record<string, unknown>[] = [
  { pattern: 'hello' },
  { pattern: 'hello', output_mode: 'content' },
  { pattern: 'hello', output_mode: 'content', '-i': true },
  { pattern: 'hello', output_mode: 'content', '-n': false },
  { pattern: 'hello', output_mode: 'count' },
  { pattern: 'TODO', output_mode: 'content', '-C': 1 },
  { pattern: 'return', output_mode: 'content', '-A': 2, '-B': 1 },
  { pattern: 'hello', glob: '*.ts', output_mode: 'content' },
  { pattern: 'hello', glob: '*.{ts,tsx,md}' },
  { pattern: 'hello', glob: 'src/**' },
  { pattern: 'hello', glob: '!*.ts' },
  { pattern: 'hello', glob: '*.log' },
  { pattern: 'export', type: 'ts', output_mode: 'count' },
  { pattern: 'TODO', type: 'md' },
  { pattern: 'function\\s+\\w+\\(\\)\\s*\\{\\s*return', multiline: true, output_mode: 'content' },
  { pattern: 'function \\w+\\(\\) \\{\\n  return \\d', multiline: true, output_mode: 'count' },
  { pattern: 'hello', path: 'src', output_mode: 'content' },
  { pattern: 'l+o', path: 'notes.txt', output_mode: 'content', '-i': true },
  { pattern: '^(first|third)', path: 'crlf.txt', output_mode: 'content' },
  { pattern: 'hello', output_mode: 'content', head_limit: 3 },
  { pattern: 'hello', head_limit: 2 },
  { pattern: 'no such text anywhere' },
  { pattern: 'no such text anywhere', output_mode: 'content' }
]

describe('Grep', () => {
  for (const q of queries) {
    it(`gives the same output with rg and the JS fallback: ${JSON.stringify(q)}`, async () => {
      const withRg = await grep(q, undefined)
      const withJs = await grep(q, false)
      expect(withRg.isError).toBeFalsy()
      expect((withRg.details as { engine: string }).engine).toBe('rg')
      expect((withJs.details as { engine: string }).engine).toBe('js')
      expect(withJs.content).toBe(withRg.content)
    })
  }

  it('lists files newest first by default, skipping ignored, binary and .git files', async () => {
    const r = await grep({ pattern: 'hello' }, false)
    expect(r.content).toBe(
      [
        'Found 8 files',
        'crlf.txt',
        'sub/real.ts',
        '.hidden/secret.ts',
        'docs/guide.md',
        'src/components/button.test.ts',
        'src/util.ts',
        'notes.txt',
        'README.md'
      ].join('\n')
    )
  })

  it('shows content with line numbers and rg-style context separators', async () => {
    const r = await grep({ pattern: 'TODO', output_mode: 'content', '-C': 1, glob: '*.md' }, undefined)
    expect(r.content).toBe(
      ['README.md-2-hello from the readme', 'README.md:3:TODO: write docs', '--', 'docs/guide.md-5-', 'docs/guide.md:6:TODO: more'].join('\n')
    )
  })

  it('counts matching lines per file with a total', async () => {
    const r = await grep({ pattern: 'hello', output_mode: 'count', '-i': true, path: 'notes.txt' }, undefined)
    expect(r.content).toBe('notes.txt:3\n\nFound 3 matching lines across 1 file.')
  })

  it('matches across lines in multiline mode only', async () => {
    const single = await grep({ pattern: 'helper\\(\\) \\{\\n', output_mode: 'content' }, false)
    expect(single.content).toBe('No matches found')
    const multi = await grep({ pattern: 'helper\\(\\) \\{\\n\\s+return', output_mode: 'content', multiline: true }, false)
    expect(multi.content).toBe('src/util.ts:5:function helper() {\nsrc/util.ts:6:  return "hello"')
  })

  it('reports an invalid regex or an unknown type as an error the model can fix, with either engine', async () => {
    for (const engine of [undefined, false] as const) {
      const bad = await grep({ pattern: 'foo(' }, engine)
      expect(bad.isError).toBe(true)
      expect(bad.content).toMatch(/Invalid regex pattern/)
      const type = await grep({ pattern: 'x', type: 'nosuchtype' }, engine)
      expect(type.isError).toBe(true)
      expect(type.content).toContain('nosuchtype')
    }
    const missing = await grep({ pattern: 'x', path: 'nope' }, undefined)
    expect(missing.content).toContain('Path does not exist: nope')
    const mode = await grep({ pattern: 'x', output_mode: 'lines' }, undefined)
    expect(mode.content).toContain('output_mode')
  })

  it('splits several globs but not the commas inside braces', () => {
    expect(splitGlobs('*.ts *.md')).toEqual(['*.ts', '*.md'])
    expect(splitGlobs('*.{ts,tsx},!*.test.ts')).toEqual(['*.{ts,tsx}', '!*.test.ts'])
  })
})
