import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { createGlobTool, GLOB_MAX_RESULTS } from './glob'
import { findRipgrep } from './ripgrep'
import { searchOptions, useSearchFixture } from './search-fixture'
import { makeTempDir, toolContext, writeTree } from './test-kit'
import { runTool } from '../tool-call/execute'

const fixture = useSearchFixture()
const glob = (input: Record<string, unknown>, ripgrep: string | false | undefined, cwd = fixture.dir) =>
  runTool(createGlobTool(searchOptions(cwd, ripgrep)), input, toolContext())

describe('Glob', () => {
  it('has ripgrep on this machine, so both engines are compared below', () => {
    expect(findRipgrep()).toMatch(/rg$/)
  })

  const patterns = [
    '**/*.ts',
    '*.ts',
    'src/**/*.{ts,tsx}',
    'src/*.ts',
    '**/*',
    'docs/**',
    '*.md',
    '.env',
    'src/**/[Bb]utton*',
    'node_modules/**/*.ts',
    '**/*.log',
    'nothing/**/*.zzz'
  ]
  for (const pattern of patterns) {
    it(`gives the same answer with rg and with the JS fallback for ${pattern}`, async () => {
      const withRg = await glob({ pattern }, undefined)
      const withJs = await glob({ pattern }, false)
      expect((withRg.details as { engine: string }).engine).toBe('rg')
      expect((withJs.details as { engine: string }).engine).toBe('js')
      expect(withJs.content).toBe(withRg.content)
    })
  }

  it('lists newest first, skips .gitignored files and .git, includes hidden files', async () => {
    const r = await glob({ pattern: '**/*.ts' }, false)
    expect(r.content.split('\n')).toEqual(['sub/real.ts', '.hidden/secret.ts', 'src/components/button.test.ts', 'src/util.ts', 'src/app.ts'])
    const all = (await glob({ pattern: '**/*' }, undefined)).content
    expect(all).not.toMatch(/node_modules|debug\.log|build\/|generated\.ts|\.git\//)
    expect(all).toContain('.env')
  })

  it('follows a fixed prefix into an ignored folder when the pattern names it', async () => {
    expect((await glob({ pattern: 'node_modules/**/*.ts' }, undefined)).content).toBe('node_modules/pkg/lib.ts')
  })

  it('searches under path, and takes absolute patterns', async () => {
    expect((await glob({ pattern: '*.tsx', path: 'src' }, undefined)).content).toBe('src/components/Button.tsx')
    expect((await glob({ pattern: `${fixture.dir}/src/*.ts` }, false)).content).toBe('src/util.ts\nsrc/app.ts')
    const other = makeTempDir()
    try {
      const r = await glob({ pattern: '**/*.md' }, undefined, other.dir)
      expect(r.content).toMatch(/^No files found/)
      const abs = await glob({ pattern: '*.md', path: fixture.dir }, undefined, other.dir)
      expect(abs.content.split('\n')).toEqual([join(fixture.dir, 'docs/guide.md'), join(fixture.dir, 'README.md')])
    } finally {
      other.cleanup()
    }
  })

  it(`caps results at ${GLOB_MAX_RESULTS} and says so`, async () => {
    const many = makeTempDir()
    try {
      writeTree(many.dir, Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`f${i}.txt`, 'x'])))
      const r = await glob({ pattern: '*.txt' }, undefined, many.dir)
      expect(r.content.split('\n').filter((l) => l.endsWith('.txt'))).toHaveLength(GLOB_MAX_RESULTS)
      expect(r.content).toContain(`Results are truncated: showing ${GLOB_MAX_RESULTS} of 130`)
    } finally {
      many.cleanup()
    }
  })

  it('reports a bad path or pattern clearly', async () => {
    expect((await glob({ pattern: '*', path: 'missing' }, undefined)).content).toContain('Directory does not exist: missing')
    expect((await glob({ pattern: '*', path: 'README.md' }, undefined)).content).toContain('is a file')
    const bad = await glob({ pattern: 'src/{a,b' }, undefined)
    expect(bad.isError).toBe(true)
    expect(bad.content).toContain("unclosed '{'")
  })

  it('sibling Globs started together (one shared listing) each list newest first, with either engine', async () => {
    for (const engine of [undefined, false] as const) {
      const [ts, all, again] = await Promise.all([
        glob({ pattern: '**/*.ts' }, engine),
        glob({ pattern: '**/*' }, engine),
        glob({ pattern: '**/*.ts' }, engine)
      ])
      expect(ts.content.split('\n')).toEqual(['sub/real.ts', '.hidden/secret.ts', 'src/components/button.test.ts', 'src/util.ts', 'src/app.ts'])
      expect(again.content).toBe(ts.content)
      // The .ts files keep their places among all files: the same mtimes answered both patterns.
      expect(all.content.split('\n').filter((f) => f.endsWith('.ts'))).toEqual(ts.content.split('\n'))
    }
  })
})
