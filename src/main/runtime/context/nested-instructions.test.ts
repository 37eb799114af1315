import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadClaudeMd } from './claude-md'
import { NestedInstructions } from './nested-instructions'
import { matchesGlob, pathGlobs } from './path-glob'
import { makeTempTree, type TempTree } from './testing/temp-tree'

let t: TempTree
beforeEach(() => {
  t = makeTempTree()
})
afterEach(() => t.cleanup())

async function tracker(cwd = t.repo): Promise<NestedInstructions> {
  return new NestedInstructions({ cwd, home: t.home, root: t.repo, loaded: await loadClaudeMd({ cwd, home: t.home }) })
}
const read = (file_path: string, isError = false) => ({ name: 'Read', input: { file_path }, isError })
const names = (notes: string[]) => notes.map((n) => n.split('\n')[0])

describe('path globs', () => {
  it.each([
    ['src/a.ts', 'src/**/*.ts', true],
    ['src/x/y/a.ts', 'src/**/*.ts', true],
    ['lib/a.ts', 'src/**/*.ts', false],
    ['a.ts', '**/*.ts', true],
    ['deep/a.ts', '**/*.ts', true],
    ['docs/a.md', 'docs/*.md', true],
    ['docs/x/a.md', 'docs/*.md', false],
    ['pkg.json', '*.json', true],
    ['sub/pkg.json', '*.json', false],
    ['lib/x/y.mjs', 'lib/**/*.{js,mjs}', true],
    ['lib/x/y.ts', 'lib/**/*.{js,mjs}', false],
    ['a.c', 'a.?', true],
    ['a+b.md', 'a+b.md', true],
    ['src/a.ts', './src/*.ts', true],
    ['api/anything', 'api/**', true]
  ])('%s against %s: %s', (path, glob, expected) => {
    expect(matchesGlob(path, glob)).toBe(expected)
  })

  it('reads paths: as a list or as one comma-separated string, braces kept whole', () => {
    expect(pathGlobs(['src/**/*.ts', 'test/*.ts'])).toEqual(['src/**/*.ts', 'test/*.ts'])
    expect(pathGlobs('docs/*.md, "*.json"')).toEqual(['docs/*.md', '*.json'])
    expect(pathGlobs('lib/**/*.{js,mjs}')).toEqual(['lib/**/*.{js,mjs}'])
    expect(pathGlobs(undefined)).toEqual([])
    expect(pathGlobs(42)).toEqual([])
  })
})

describe('NestedInstructions', () => {
  it("gives a subfolder's CLAUDE.md files and rules, and the folders' between, the first time a file there is read", async () => {
    t.write(join(t.repo, 'CLAUDE.md'), 'root')
    const pkg = t.write(join(t.repo, 'pkg/CLAUDE.md'), 'pkg memory')
    const local = t.write(join(t.repo, 'pkg/CLAUDE.local.md'), 'pkg local')
    const rule = t.write(join(t.repo, 'pkg/.claude/rules/r.md'), 'pkg rule')
    const deep = t.write(join(t.repo, 'pkg/deep/CLAUDE.md'), 'deep memory')
    const n = await tracker()
    const first = await n.afterTools([read(join(t.repo, 'pkg/deep/f.txt'))])
    expect(names(first)).toEqual([`Contents of ${pkg}:`, `Contents of ${local}:`, `Contents of ${rule}:`, `Contents of ${deep}:`])
    expect(first[0]).toBe(`Contents of ${pkg}:\n\npkg memory`)
    // Once per folder: another file there, or a relative path to it, brings nothing.
    expect(await n.afterTools([read(join(t.repo, 'pkg/other.txt')), read('pkg/deep/g.txt')])).toEqual([])
  })

  it('gives nothing for the working folder itself, Grep, or a file outside it; a failed Read counts', async () => {
    t.write(join(t.repo, 'CLAUDE.md'), 'root')
    t.write(join(t.repo, 'a/CLAUDE.md'), 'a memory')
    t.write(join(t.root, 'outside/CLAUDE.md'), 'outside')
    const n = await tracker()
    expect(await n.afterTools([read(join(t.repo, 'x.txt'))])).toEqual([])
    expect(await n.afterTools([{ name: 'Grep', input: { path: join(t.repo, 'a'), pattern: 'x' }, isError: false }])).toEqual([])
    expect(await n.afterTools([read(join(t.root, 'outside/x.txt'))])).toEqual([])
    expect(await n.afterTools([read(join(t.repo, 'a/missing.txt'), true)])).toHaveLength(1)
    t.write(join(t.repo, 'b/CLAUDE.md'), 'b memory')
    expect(await n.afterTools([{ name: 'Edit', input: { file_path: join(t.repo, 'b/x.txt') }, isError: false }])).toHaveLength(1)
  })

  it('gives a rule with paths: when a matching file is read, relative to the project, once', async () => {
    const ts = t.write(join(t.repo, '.claude/rules/ts.md'), '---\npaths:\n  - "src/**/*.ts"\n---\nts rule')
    const userTs = t.write(join(t.home, '.claude/rules/ts.md'), '---\npaths: "**/*.ts"\n---\nuser ts rule')
    const n = await tracker()
    expect(await n.afterTools([read(join(t.repo, 'src/a.js'))])).toEqual([])
    expect(names(await n.afterTools([read(join(t.repo, 'src/a/b.ts'))]))).toEqual([`Contents of ${userTs}:`, `Contents of ${ts}:`])
    expect(await n.afterTools([read(join(t.repo, 'src/c.ts'))])).toEqual([])
  })

  it('matches a subfolder rule with paths: relative to that subfolder', async () => {
    t.write(join(t.repo, 'pkg/CLAUDE.md'), 'pkg')
    const rule = t.write(join(t.repo, 'pkg/.claude/rules/css.md'), '---\npaths: "*.css"\n---\ncss rule')
    const n = await tracker()
    expect(names(await n.afterTools([read(join(t.repo, 'pkg/x.txt'))]))).toEqual([`Contents of ${join(t.repo, 'pkg/CLAUDE.md')}:`])
    expect(names(await n.afterTools([read(join(t.repo, 'pkg/a.css'))]))).toEqual([`Contents of ${rule}:`])
  })

  it("never gives a subfolder's file that is a link out of the project, nor what such a file imports", async () => {
    const secret = t.write(join(t.home, '.ssh/notes'), 'SECRET')
    t.write(join(t.repo, 'a/x.txt'), 'x')
    symlinkSync(secret, join(t.repo, 'a/CLAUDE.md'))
    t.write(join(t.repo, 'b/CLAUDE.md'), `see @${secret}`)
    const n = await tracker()
    expect(await n.afterTools([read(join(t.repo, 'a/x.txt'))])).toEqual([])
    const b = await n.afterTools([read(join(t.repo, 'b/y.txt'))])
    expect(b.join('\n')).not.toContain('SECRET')
    expect(b).toHaveLength(1)
  })

  it('an agent in a worktree matches the project rules against its own folder', async () => {
    const ts = t.write(join(t.repo, '.claude/rules/ts.md'), '---\npaths: "src/*.ts"\n---\nts rule')
    const worktree = join(t.root, 'wt')
    const n = new NestedInstructions({
      cwd: worktree,
      home: t.home,
      root: worktree,
      loaded: await loadClaudeMd({ cwd: t.repo, home: t.home }),
      loadedRoot: t.repo
    })
    expect(names(await n.afterTools([read(join(worktree, 'src/a.ts'))]))).toEqual([`Contents of ${ts}:`])
  })
})

describe('names that start with two dots', () => {
  it('a folder named ..notes inside the project is a subfolder like any other', async () => {
    const md = t.write(join(t.repo, '..notes/CLAUDE.md'), 'dots')
    const rule = t.write(join(t.repo, '.claude/rules/dots.md'), '---\npaths: "..notes/*.txt"\n---\ndots rule')
    const n = await tracker()
    expect(names(await n.afterTools([read(join(t.repo, '..notes/a.txt'))]))).toEqual([`Contents of ${md}:`, `Contents of ${rule}:`])
  })
})
