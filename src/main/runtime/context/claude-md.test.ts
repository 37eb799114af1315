import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatClaudeMd, loadClaudeMd, type ClaudeMdEntry } from './index'
import { extractImports } from './imports'
import { makeTempTree, type TempTree } from './testing/temp-tree'

let t: TempTree
beforeEach(() => {
  t = makeTempTree()
})
afterEach(() => t.cleanup())

const summary = (entries: ClaudeMdEntry[]) => entries.map((e) => [e.path, e.scope, e.content.trim(), e.importedFrom ?? null])

describe('loadClaudeMd', () => {
  it('loads user, project and local files from above the repository root down to cwd, in that order', async () => {
    const userMd = t.write(join(t.home, '.claude/CLAUDE.md'), 'user rules')
    // Claude Code walks up to the filesystem root: a workspace folder's CLAUDE.md applies to every checkout in it.
    const aboveMd = t.write(join(t.root, 'work/CLAUDE.md'), 'workspace rules')
    const rootMd = t.write(join(t.repo, 'CLAUDE.md'), 'root rules')
    const dotMd = t.write(join(t.repo, '.claude/CLAUDE.md'), 'dot-claude rules')
    const localMd = t.write(join(t.repo, 'CLAUDE.local.md'), 'my local rules')
    const pkgMd = t.write(join(t.repo, 'packages/web/CLAUDE.md'), 'web package rules')
    const deep = join(t.repo, 'packages/web/src')
    mkdirSync(deep, { recursive: true })

    const entries = await loadClaudeMd({ cwd: deep, home: t.home })
    expect(summary(entries)).toEqual([
      [userMd, 'user', 'user rules', null],
      [aboveMd, 'project', 'workspace rules', null],
      [rootMd, 'project', 'root rules', null],
      [dotMd, 'project', 'dot-claude rules', null],
      [localMd, 'local', 'my local rules', null],
      [pkgMd, 'project', 'web package rules', null]
    ])
  })

  it('returns nothing when there are no files', async () => {
    expect(await loadClaudeMd({ cwd: t.repo, home: t.home })).toEqual([])
  })

  it('walks up to the filesystem root outside a repository, and never loads the user file twice', async () => {
    // A home folder that is not a repository and holds the project: walking up passes ~/.claude/CLAUDE.md.
    const userMd = t.write(join(t.home, '.claude/CLAUDE.md'), 'user rules')
    const homeMd = t.write(join(t.home, 'CLAUDE.md'), 'home folder rules')
    const cwd = join(t.home, 'scratch/notes')
    mkdirSync(cwd, { recursive: true })
    const entries = await loadClaudeMd({ cwd, home: t.home })
    const mine = entries.filter((e) => e.path.startsWith(t.root))
    expect(summary(mine)).toEqual([
      [userMd, 'user', 'user rules', null],
      [homeMd, 'project', 'home folder rules', null]
    ])
  })

  it('follows @imports relative to the importing file, from ~ and absolute paths, each after its importer', async () => {
    const shared = t.write(join(t.root, 'shared/standards.md'), 'shared standards')
    const style = t.write(join(t.repo, 'docs/style.md'), 'style guide')
    const personal = t.write(join(t.home, '.claude/personal.md'), 'personal prefs')
    const rootMd = t.write(
      join(t.repo, 'CLAUDE.md'),
      `See @docs/style.md for style.\nAlso @~/.claude/personal.md and @${shared}.\nMail me at someone@example.com.\n`
    )
    const entries = await loadClaudeMd({ cwd: t.repo, home: t.home })
    expect(summary(entries)).toEqual([
      [rootMd, 'project', expect.stringContaining('See @docs/style.md'), null],
      [style, 'project', 'style guide', rootMd],
      [personal, 'project', 'personal prefs', rootMd],
      [shared, 'project', 'shared standards', rootMd]
    ])
  })

  it('keeps the scope of the file that imported it', async () => {
    const imported = t.write(join(t.repo, 'private/notes.md'), 'private notes')
    const localMd = t.write(join(t.repo, 'CLAUDE.local.md'), '@private/notes.md')
    const entries = await loadClaudeMd({ cwd: t.repo, home: t.home })
    expect(summary(entries)).toEqual([
      [localMd, 'local', '@private/notes.md', null],
      [imported, 'local', 'private notes', localMd]
    ])
  })

  it('survives import cycles and self-imports, loading each file once', async () => {
    const a = t.write(join(t.repo, 'a.md'), 'A imports @b.md and @a.md')
    const b = t.write(join(t.repo, 'b.md'), 'B imports @a.md and @CLAUDE.md')
    const rootMd = t.write(join(t.repo, 'CLAUDE.md'), 'root imports @a.md')
    const entries = await loadClaudeMd({ cwd: t.repo, home: t.home })
    expect(entries.map((e) => e.path)).toEqual([rootMd, a, b])
  })

  it('stops following imports after the depth limit', async () => {
    for (let i = 1; i <= 7; i++) t.write(join(t.repo, `chain/${i}.md`), `file ${i} @${i + 1}.md`)
    t.write(join(t.repo, 'CLAUDE.md'), '@chain/1.md')
    const entries = await loadClaudeMd({ cwd: t.repo, home: t.home })
    expect(entries.map((e) => e.content.split(' ').slice(0, 2).join(' '))).toEqual(['@chain/1.md', 'file 1', 'file 2', 'file 3', 'file 4', 'file 5'])
    const shallow = await loadClaudeMd({ cwd: t.repo, home: t.home, maxImportDepth: 1 })
    expect(shallow).toHaveLength(2)
  })

  it('ignores @ inside code, missing targets, folders and binary files', async () => {
    t.write(join(t.repo, 'real.md'), 'real')
    t.write(join(t.repo, 'fenced.md'), 'fenced')
    t.write(join(t.repo, 'inline.md'), 'inline')
    t.write(join(t.repo, 'blob.bin'), Buffer.from([0x41, 0x00, 0x42]).toString('latin1'))
    mkdirSync(join(t.repo, 'somedir'))
    t.write(
      join(t.repo, 'CLAUDE.md'),
      ['Use `@inline.md` literally.', '```ts', '@fenced.md', '```', '@missing.md @somedir @blob.bin', 'Read @real.md.'].join('\n')
    )
    const entries = await loadClaudeMd({ cwd: t.repo, home: t.home })
    expect(entries.map((e) => e.content)).toEqual([expect.any(String), 'real'])
  })

  it('reports real paths when a CLAUDE.md is a symlink', async () => {
    const target = t.write(join(t.root, 'dotfiles/CLAUDE.md'), 'from dotfiles')
    symlinkSync(target, join(t.repo, 'CLAUDE.md'))
    const entries = await loadClaudeMd({ cwd: t.repo, home: t.home })
    expect(summary(entries)).toEqual([[target, 'project', 'from dotfiles', null]])
  })
})

describe('extractImports', () => {
  it('reads tokens at line starts or after spaces, with escaped spaces', () => {
    expect(extractImports('@a.md\ntext @b/c.md x@not.md\n@my\\ file.md')).toEqual(['a.md', 'b/c.md', 'my file.md'])
  })
})

describe('formatClaudeMd', () => {
  it('says where each file came from, in order', () => {
    const text = formatClaudeMd([
      { path: '/h/.claude/CLAUDE.md', scope: 'user', content: 'U\n' },
      { path: '/p/CLAUDE.md', scope: 'project', content: 'P' },
      { path: '/p/docs/x.md', scope: 'project', content: 'X', importedFrom: '/p/CLAUDE.md' },
      { path: '/p/CLAUDE.local.md', scope: 'local', content: 'L' },
      { path: '/p/empty/CLAUDE.md', scope: 'project', content: '  \n' }
    ])
    const u = text.indexOf("Contents of /h/.claude/CLAUDE.md (the user's own instructions for every project):\n\nU")
    const p = text.indexOf('Contents of /p/CLAUDE.md (project instructions')
    const x = text.indexOf('Contents of /p/docs/x.md (project instructions, shared with everyone who works on this codebase; imported by /p/CLAUDE.md)')
    const l = text.indexOf("Contents of /p/CLAUDE.local.md (the user's private instructions for this project, not checked in):\n\nL")
    expect([u, p, x, l].every((i) => i > 0)).toBe(true)
    expect(u < p && p < x && x < l).toBe(true)
    expect(text).not.toContain('/p/empty/CLAUDE.md')
  })

  it('is empty without files', () => {
    expect(formatClaudeMd([])).toBe('')
  })
})

describe('rules and folders above the repository', () => {
  it("loads the user's and each folder's .claude/rules (subfolders too) after its CLAUDE.md files, frontmatter dropped", async () => {
    const userMd = t.write(join(t.home, '.claude/CLAUDE.md'), 'user memory')
    const userRule = t.write(join(t.home, '.claude/rules/style.md'), 'user rule')
    const rootMd = t.write(join(t.repo, 'CLAUDE.md'), 'root memory')
    const a = t.write(join(t.repo, '.claude/rules/a.md'), '---\ndescription: x\n---\nrule a')
    const b = t.write(join(t.repo, '.claude/rules/deeper/b.md'), 'rule b')
    t.write(join(t.repo, '.claude/rules/notes.txt'), 'not a rule')
    const ts = t.write(join(t.repo, '.claude/rules/ts.md'), '---\npaths: "src/**/*.ts"\n---\nts rule')
    const entries = await loadClaudeMd({ cwd: t.repo, home: t.home })
    expect(summary(entries)).toEqual([
      [userMd, 'user', 'user memory', null],
      [userRule, 'user', 'user rule', null],
      [rootMd, 'project', 'root memory', null],
      [a, 'project', 'rule a', null],
      [b, 'project', 'rule b', null],
      [ts, 'project', 'ts rule', null]
    ])
    expect(entries.find((e) => e.path === ts)?.globs).toEqual(['src/**/*.ts'])
    // A rule with paths: waits for its files; the others are in the prompt.
    const prompt = formatClaudeMd(entries)
    expect(prompt).toContain('rule a')
    expect(prompt).toContain('user rule')
    expect(prompt).not.toContain('ts rule')
  })

  it('judges a file above the repository against its own folder, so trust does not ask about it', async () => {
    const aboveMd = t.write(join(t.root, 'work/CLAUDE.md'), 'workspace')
    const inRepo = t.write(join(t.repo, 'CLAUDE.md'), 'project')
    const entries = await loadClaudeMd({ cwd: t.repo, home: t.home })
    expect(entries.find((e) => e.path === aboveMd)?.base).toBe(join(t.root, 'work'))
    expect(entries.find((e) => e.path === inRepo)?.base).toBeUndefined()
  })

  it('does not follow a link to a folder inside .claude/rules, and reads no pipe as a rule', async () => {
    mkdirSync(join(t.repo, '.claude/rules'), { recursive: true })
    t.write(join(t.root, 'elsewhere/secret.md'), 'SECRET')
    symlinkSync(join(t.root, 'elsewhere'), join(t.repo, '.claude/rules/linked'))
    execFileSync('mkfifo', [join(t.repo, '.claude/rules/pipe.md')])
    const entries = await loadClaudeMd({ cwd: t.repo, home: t.home })
    expect(entries.map((e) => e.content)).not.toContain('SECRET')
    expect(entries.filter((e) => e.path.startsWith(t.repo))).toEqual([])
  })
})
