import { describe, expect, it } from 'vitest'
import { compileGlob, matchGlob, splitGlobBase } from './glob-pattern'
import { OverrideGlobs } from './ignore-rules'

const m = (pattern: string, path: string, isDir = false) => matchGlob(compileGlob(pattern), path, isDir)

describe('glob patterns (gitignore / ripgrep semantics)', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/deep/a.ts', true],
    ['*.ts', 'a.tsx', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/x/a.ts', false],
    ['src/*.ts', 'lib/src/a.ts', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['**/*.{ts,tsx}', 'x/a.tsx', true],
    ['docs/**', 'docs/a/b.md', true],
    ['docs/**', 'docs', false],
    ['/build', 'build', true],
    ['/build', 'x/build', false],
    ['[a-c]?.md', 'b1.md', true],
    ['[!a-c]?.md', 'd1.md', true],
    ['[!a-c]?.md', 'a1.md', false],
    ['\\*.md', '*.md', true],
    ['./secrets/**', 'secrets/key', true],
    ['.env', 'sub/.env', true]
  ])('%s on %s → %s', (pattern, path, expected) => {
    expect(m(pattern, path)).toBe(expected)
  })

  it('treats a trailing slash as directories only and parses negation', () => {
    expect(m('build/', 'build', true)).toBe(true)
    expect(m('build/', 'build', false)).toBe(false)
    expect(compileGlob('!keep.txt').negated).toBe(true)
  })

  it('rejects unclosed braces with a message naming the pattern', () => {
    expect(() => compileGlob('src/{a,b')).toThrow("unclosed '{' in glob pattern 'src/{a,b'")
  })

  it('splits the fixed directory prefix off, keeping the rest anchored', () => {
    expect(splitGlobBase('src/lib/**/*.ts')).toEqual({ base: 'src/lib', rest: '/**/*.ts' })
    expect(splitGlobBase('src/*.ts')).toEqual({ base: 'src', rest: '/*.ts' })
    expect(splitGlobBase('*.ts')).toEqual({ base: '', rest: '*.ts' })
    expect(splitGlobBase('**/x/*.ts')).toEqual({ base: '', rest: '/**/x/*.ts' })
    expect(splitGlobBase('/abs/dir/*.md')).toEqual({ base: '/abs/dir', rest: '/*.md' })
  })

  it('applies ripgrep override rules: last glob wins, positive globs exclude unmatched files but not directories', () => {
    const o = new OverrideGlobs(['*.ts', '!*.test.ts'])
    expect(o.match('a.ts', false)).toBe('whitelist')
    expect(o.match('a.test.ts', false)).toBe('ignore')
    expect(o.match('a.md', false)).toBe('ignore')
    expect(o.match('src', true)).toBe('none')
  })
})
