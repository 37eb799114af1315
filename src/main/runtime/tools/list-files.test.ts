// Sibling searches of one folder share one listing while it is under way; an older one is served only for a small
// tree the disk shows unchanged since its walk began (tree-quiet.ts).
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listFiles, noteWrite } from './list-files'
import { QUIET_BEFORE } from './tree-quiet'
import { createGlobTool } from './glob'
import { ripgrepPath } from './ripgrep'
import { toolContext, writeTree } from './test-kit'
import { runTool } from '../tool-call/execute'

const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-list-files-')))
for (let i = 0; i < 20; i++) writeFileSync(join(root, `f${i}.ts`), '')
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('listFiles shared by sibling searches', () => {
  it('sixteen searches started together get one listing', async () => {
    const all = await Promise.all(Array.from({ length: 16 }, () => listFiles(root, null)))
    for (const l of all) expect(l.files).toBe(all[0].files)
    expect(all[0].files).toHaveLength(20)
  })

  it('a search after a listing finished, or after the runtime wrote, lists afresh', async () => {
    const before = await listFiles(root, null)
    writeFileSync(join(root, 'late.ts'), '')
    const after = await listFiles(root, null)
    expect(after.files).toContain('late.ts')
    const running = listFiles(root, null)
    noteWrite()
    writeFileSync(join(root, 'written.ts'), '')
    const next = await listFiles(root, null)
    expect(next.files).toContain('written.ts')
    expect((await running).files).not.toBe(next.files)
    expect(before.files).not.toContain('late.ts')
  })

  it("one search's abort leaves the listing to the others", async () => {
    const stop = new AbortController()
    const aborted = listFiles(root, null, stop.signal)
    const other = listFiles(root, null)
    stop.abort(new Error('stopped'))
    await expect(aborted).rejects.toThrow('stopped')
    expect((await other).files.length).toBeGreaterThan(20)
  })
})

describe('a finished listing served again', () => {
  // The margin shortened (3 s by default), so a tree a test made is "left alone" after a short wait.
  const margin = QUIET_BEFORE.ms
  beforeEach(() => {
    QUIET_BEFORE.ms = 100
  })
  afterEach(() => {
    QUIET_BEFORE.ms = margin
  })
  const settle = () => new Promise((r) => setTimeout(r, 250))
  // A listing served again is joined until the event loop's next turn, as a walk under way is: a change made in
  // between is a change during the listing.
  const nextTurn = () => new Promise((r) => setImmediate(r))
  const rg = '/usr/bin/rg'
  const sorted = (l: { files: readonly string[] }) => [...l.files].sort()

  /** Each change, made to a tree left alone whose listing is served again, is in the very next listing. */
  async function eachChangeSeen(dir: string, changes: Array<[what: string, change: () => void, expected: string[]]>): Promise<void> {
    for (const [what, change, expected] of changes) {
      await settle()
      await listFiles(dir, rg)
      expect((await listFiles(dir, rg)).servedAgain, `left alone before: ${what}`).toBe(true)
      await nextTurn()
      change()
      const next = await listFiles(dir, rg)
      expect(next.servedAgain, what).toBeUndefined()
      expect(sorted(next), what).toEqual(expected)
    }
  }

  /** A small tree in a folder of its own: `outer/tree`, outer holding what applies from above. */
  function tree(files: Record<string, string>): { outer: string; dir: string } {
    const outer = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-list-again-')))
    const dir = join(outer, 'tree')
    writeTree(dir, files)
    trees.push(outer)
    return { outer, dir }
  }
  const trees: string[] = []
  afterAll(() => {
    for (const t of trees) rmSync(t, { recursive: true, force: true })
  })

  it('of a tree left alone since its walk: the same files, as a copy', async () => {
    const { dir } = tree({ 'a.ts': '', 'src/b.ts': '', 'src/deep/c.ts': '' })
    await settle()
    const first = await listFiles(dir, rg)
    expect(first.servedAgain).toBeUndefined()
    const again = await listFiles(dir, rg)
    expect(again.servedAgain).toBe(true)
    expect(again.files).not.toBe(first.files)
    expect(sorted(again)).toEqual(['a.ts', 'src/b.ts', 'src/deep/c.ts'])
    // Siblings started together (each a few promise steps after the last, as a reply's calls start) share one
    // copy, and what they learn of its files, as they share a walk under way.
    await nextTurn()
    const started: Array<ReturnType<typeof listFiles>> = []
    for (let i = 0; i < 16; i++) {
      started.push(listFiles(dir, rg))
      for (let step = 0; step < 5; step++) await Promise.resolve()
    }
    const together = await Promise.all(started)
    for (const l of together) expect(l.files).toBe(together[0].files)
    expect(together[0].servedAgain).toBe(true)
    expect(together[0].files).not.toBe(again.files)
  })

  it('never after a file was made, removed or renamed anywhere in the tree: each change is in the next listing', async () => {
    const { dir } = tree({ 'a.ts': '', 'src/b.ts': '', 'src/deep/c.ts': '' })
    const changes: Array<[string, () => void, string[]]> = [
      ['made at the root', () => writeFileSync(join(dir, 'new.ts'), ''), ['a.ts', 'new.ts', 'src/b.ts', 'src/deep/c.ts']],
      ['made two folders down', () => writeFileSync(join(dir, 'src/deep/d.ts'), ''), ['a.ts', 'new.ts', 'src/b.ts', 'src/deep/c.ts', 'src/deep/d.ts']],
      ['removed', () => unlinkSync(join(dir, 'src/b.ts')), ['a.ts', 'new.ts', 'src/deep/c.ts', 'src/deep/d.ts']],
      ['renamed', () => renameSync(join(dir, 'src/deep/c.ts'), join(dir, 'src/deep/e.ts')), ['a.ts', 'new.ts', 'src/deep/d.ts', 'src/deep/e.ts']],
      ['a folder made', () => mkdirSync(join(dir, 'src/deep/more/x.ts'), { recursive: true }), ['a.ts', 'new.ts', 'src/deep/d.ts', 'src/deep/e.ts']],
      [
        'a file in the new folder',
        () => writeFileSync(join(dir, 'src/deep/more/y.ts'), ''),
        ['a.ts', 'new.ts', 'src/deep/d.ts', 'src/deep/e.ts', 'src/deep/more/y.ts']
      ]
    ]
    await eachChangeSeen(dir, changes)
  })

  it('never after an ignore file changed, in the tree or above it, or a repository appeared above it', async () => {
    const { outer, dir } = tree({ 'a.ts': '', 'a.log': '', 'src/b.ts': '', 'src/b.tmp': '', 'src/.gitignore': '*.tmp\n' })
    const changes: Array<[string, () => void, string[]]> = [
      [
        // Edited in place to the same size, its mtime set back: only its ctime tells.
        'a .gitignore in the tree edited in place',
        () => {
          const file = join(dir, 'src/.gitignore')
          writeFileSync(file, '*.ts\n')
          utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1))
        },
        ['a.log', 'a.ts', 'src/.gitignore', 'src/b.tmp']
      ],
      ['an .ignore made in the folder above the root', () => writeFileSync(join(outer, '.ignore'), '*.log\n'), ['a.ts', 'src/.gitignore', 'src/b.tmp']],
      ['the .ignore above removed', () => unlinkSync(join(outer, '.ignore')), ['a.log', 'a.ts', 'src/.gitignore', 'src/b.tmp']],
      [
        // A .gitignore above that a repository's root in between would cut off: the .git made is a change of its own.
        'a .gitignore above the root',
        () => writeFileSync(join(outer, '.gitignore'), 'a.ts\n'),
        ['a.log', 'src/.gitignore', 'src/b.tmp']
      ],
      ['a repository made at the root', () => mkdirSync(join(dir, '.git', 'info'), { recursive: true }), ['a.log', 'a.ts', 'src/.gitignore', 'src/b.tmp']],
      ['its exclude file written', () => writeFileSync(join(dir, '.git', 'info', 'exclude'), 'a.log\n'), ['a.ts', 'src/.gitignore', 'src/b.tmp']],
      [
        'its exclude file edited in place',
        () => writeFileSync(join(dir, '.git', 'info', 'exclude'), 'b.tmp\n'.padEnd(6, ' ')),
        ['a.log', 'a.ts', 'src/.gitignore']
      ]
    ]
    await eachChangeSeen(dir, changes)
    expect(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8')).toMatch(/^b\.tmp/)
  })

  it('never for a tree changed within the margin before its walk, after a write by the runtime, or through a link', async () => {
    QUIET_BEFORE.ms = 60_000
    const { outer, dir } = tree({ 'a.ts': '' })
    const other = tree({ 'b.ts': '' })
    await listFiles(dir, rg)
    expect((await listFiles(dir, rg)).servedAgain).toBeUndefined()
    QUIET_BEFORE.ms = 100
    await settle()
    await listFiles(dir, rg)
    noteWrite()
    expect((await listFiles(dir, rg)).servedAgain).toBeUndefined()
    const link = join(outer, 'link')
    symlinkSync(dir, link)
    await settle()
    await listFiles(link, rg)
    expect((await listFiles(link, rg)).servedAgain).toBeUndefined()
    // A folder above the root swapped for another that holds a tree of the same name, both left alone for long:
    // the root's path now leads to another folder whose own times are old. Only its identity tells.
    await settle()
    await listFiles(dir, rg)
    expect((await listFiles(dir, rg)).servedAgain).toBe(true)
    await nextTurn()
    renameSync(outer, `${outer}-old`)
    trees.push(`${outer}-old`)
    renameSync(other.outer, outer)
    const swapped = await listFiles(dir, rg)
    expect(swapped.servedAgain).toBeUndefined()
    expect(sorted(swapped)).toEqual(['b.ts'])
  })

  it("a Glob served a listing again still orders by the files' times now", async () => {
    const { dir } = tree({ 'old.ts': '', 'new.ts': '' })
    utimesSync(join(dir, 'old.ts'), new Date(2020, 0, 1), new Date(2020, 0, 1))
    utimesSync(join(dir, 'new.ts'), new Date(2021, 0, 1), new Date(2021, 0, 1))
    await settle()
    // The default engine choice (a small tree is walked in-process), as an agent's Glob makes it.
    const glob = () => runTool(createGlobTool({ cwd: dir }), { pattern: '*.ts' }, toolContext())
    expect((await glob()).content).toBe('new.ts\nold.ts')
    // The older file written to: its folder is untouched, its mtime is not.
    writeFileSync(join(dir, 'old.ts'), 'export {}\n')
    expect((await listFiles(dir, ripgrepPath(undefined))).servedAgain).toBe(true)
    await nextTurn()
    expect((await glob()).content).toBe('old.ts\nnew.ts')
  })
})
