import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rulesFrom } from '../permissions/rules'
import { createGlobTool } from '../tools/glob'
import { createGrepTool } from '../tools/grep'
import { createReadTool } from '../tools/read'
import { createWriteTool } from '../tools/write'
import { makeTempDir, toolContext, writeTree } from '../tools/test-kit'
import { PathPolicy } from './path-policy'
import { realTarget } from './real-target'
import { runTool } from '../tool-call/execute'

let root: string
let project: string
let outside: string
let cleanup: () => void
let policy: PathPolicy

beforeAll(() => {
  ;({ dir: root, cleanup } = makeTempDir('fanout-paths-'))
  project = join(root, 'p')
  outside = join(root, 'o')
  writeTree(project, { 'src/a.ts': 'a word', 'secrets/k.txt': 'KEY word', 'docs/x.md': 'word' })
  writeTree(outside, { 'o.txt': 'OUT word' })
  symlinkSync(join(outside, 'new.txt'), join(project, 'dangling.txt'))
  symlinkSync(join(project, 'dangling.txt'), join(project, 'chain.txt'))
  symlinkSync(outside, join(project, 'out'))
  symlinkSync(join(project, 'secrets'), join(project, 'docs', 'alias'))
  symlinkSync(join(project, 'l2'), join(project, 'l1'))
  symlinkSync(join(project, 'l1'), join(project, 'l2'))
  mkdirSync(join(project, 'empty'))
  policy = new PathPolicy({ cwd: project, rules: () => rulesFrom({ deny: ['Read(./secrets/**)', 'Edit(docs/**)'] }, 'project', project) })
})
afterAll(() => cleanup())

describe('realTarget', () => {
  it('follows every link, a dangling one and a chain included, and keeps a missing tail', () => {
    expect(realTarget(join(project, 'dangling.txt'))).toBe(join(outside, 'new.txt'))
    expect(realTarget(join(project, 'chain.txt'))).toBe(join(outside, 'new.txt'))
    expect(realTarget(join(project, 'out', 'deep', 'x'))).toBe(join(outside, 'deep', 'x'))
    expect(realTarget(join(project, 'src', 'missing', 'x'))).toBe(join(project, 'src', 'missing', 'x'))
    expect(realTarget(join(project, 'l1'))).toBeNull()
  })
})

describe('PathPolicy', () => {
  it('judges a path by where it leads: bounds and deny rules', () => {
    expect(policy.inBounds(join(project, 'src/a.ts'))).toBe(true)
    expect(policy.inBounds(join(project, 'dangling.txt'))).toBe(false)
    expect(policy.inBounds(join(project, 'chain.txt'))).toBe(false)
    expect(policy.inBounds(join(project, 'l1'))).toBe(false)
    expect(policy.deniedBy(join(project, 'docs/alias/k.txt'), 'read')?.raw).toBe('Read(./secrets/**)')
    expect(policy.deniedBy(join(project, 'docs/x.md'), 'write')?.raw).toBe('Edit(docs/**)')
    expect(policy.deniedBy(join(project, 'docs/x.md'), 'read')).toBeUndefined()
    expect(policy.deniedBy(join(project, 'l1'), 'read')).toBeDefined()
  })

  it('knows which folders a search could reach protected files from, and takes extra roots', () => {
    expect(policy.protectedUnder(project)?.raw).toBe('Read(./secrets/**)')
    // docs/alias leads there, but no search follows a link it meets inside a tree (rg, grep -r, find).
    expect(policy.protectedUnder(join(project, 'docs'))).toBeUndefined()
    expect(policy.protectedUnder(join(project, 'src'))).toBeUndefined()
    const wider = new PathPolicy({ cwd: project, roots: () => [outside] })
    expect(wider.inBounds(join(project, 'out/o.txt'))).toBe(true)
  })

  it("a search's filter answers alike for a link-free listing: a folder reached through a link keeps its real path's rules", async () => {
    const { walkFiles } = await import('../tools/file-walk')
    for (const [root, rootReal] of [
      [project, project],
      [join(project, 'docs', 'alias'), join(project, 'secrets')],
      [join(project, 'out'), outside]
    ]) {
      const files = (await walkFiles({ root: rootReal })).map((rel) => join(root, rel))
      expect(files.length).toBeGreaterThan(0)
      const perFile = policy.searchFilter(root, 'Glob')
      const listed = policy.searchFilter(root, 'Glob', { listedIn: rootReal })
      for (const f of files) expect([f, listed(f)]).toEqual([f, perFile(f)])
    }
    // Through the link, the protected folder's file is hidden.
    expect(policy.searchFilter(join(project, 'docs', 'alias'), 'Glob', { listedIn: join(project, 'secrets') })(join(project, 'docs', 'alias', 'k.txt'))).toBe(
      false
    )
  })

  it('files that run later are known as such', () => {
    for (const rel of ['.git/hooks/pre-commit', '.claude/settings.json', '.mcp.json', '.vscode/tasks.json', '.bashrc'])
      expect(policy.protectedWrite(join(project, rel)), rel).not.toBeNull()
    expect(policy.protectedWrite(join(project, 'src/a.ts'))).toBeNull()
  })
})

describe('tools go through it', () => {
  const ctx = () => toolContext()
  it('Read refuses a protected file reached through a link; Write refuses an Edit-denied one', async () => {
    const r = await runTool(createReadTool({ cwd: project, paths: policy }), { file_path: 'docs/alias/k.txt' }, ctx())
    expect(r).toMatchObject({ isError: true, content: expect.stringContaining('protected by the permission rule "Read(./secrets/**)"') })
    const w = await runTool(createWriteTool({ cwd: project, paths: policy }), { file_path: 'docs/new.md', content: 'x' }, ctx())
    expect(w).toMatchObject({ isError: true, content: expect.stringContaining('Edit(docs/**)') })
  })

  it.each([
    ['rg', undefined],
    ['js', false]
  ] as const)('Grep and Glob (%s engine) skip protected files and links out', async (_name, ripgrep) => {
    const grep = await runTool(createGrepTool({ cwd: project, paths: policy, ripgrep }), { pattern: 'word', output_mode: 'content' }, ctx())
    expect(grep.content).toContain('src/a.ts')
    expect(grep.content).not.toMatch(/KEY|OUT/)
    const glob = await runTool(createGlobTool({ cwd: project, paths: policy, ripgrep }), { pattern: '**/*' }, ctx())
    expect(glob.content).toContain('src/a.ts')
    expect(glob.content).not.toMatch(/secrets|o\.txt/)
  })
})
