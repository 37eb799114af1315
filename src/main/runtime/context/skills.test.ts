import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatSkills, loadSkills, parseFrontmatter } from './index'
import { makeTempTree, type TempTree } from './testing/temp-tree'

let t: TempTree
beforeEach(() => {
  t = makeTempTree()
})
afterEach(() => t.cleanup())

const skillMd = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`

describe('loadSkills', () => {
  it("prefers the project's skill over the user's, and falls back to the user's", async () => {
    t.write(join(t.repo, '.claude/skills/release/SKILL.md'), skillMd('release', 'Cut a release', 'Project release steps.'))
    t.write(join(t.home, '.claude/skills/release/SKILL.md'), skillMd('release', 'User release', 'User release steps.'))
    t.write(join(t.home, '.claude/skills/pdf/SKILL.md'), skillMd('pdf', 'Work with PDF files', 'Use pdftotext.'))
    const cwd = join(t.repo, 'src/app')
    mkdirSync(cwd, { recursive: true })

    const { skills, diagnostics } = await loadSkills({ names: ['release', 'pdf'], cwd, home: t.home })
    expect(diagnostics).toEqual([])
    expect(skills).toEqual([
      {
        name: 'release',
        description: 'Cut a release',
        scope: 'project',
        path: join(t.repo, '.claude/skills/release/SKILL.md'),
        dir: join(t.repo, '.claude/skills/release'),
        body: 'Project release steps.',
        frontmatter: { name: 'release', description: 'Cut a release' }
      },
      expect.objectContaining({ name: 'pdf', scope: 'user', description: 'Work with PDF files', body: 'Use pdftotext.' })
    ])
  })

  it('finds the nearest project skill when walking up from a subfolder', async () => {
    t.write(join(t.repo, '.claude/skills/lint/SKILL.md'), skillMd('lint', 'root lint', 'root'))
    t.write(join(t.repo, 'packages/web/.claude/skills/lint/SKILL.md'), skillMd('lint', 'web lint', 'web'))
    const { skills } = await loadSkills({ names: ['lint'], cwd: join(t.repo, 'packages/web'), home: t.home })
    expect(skills.map((s) => s.body)).toEqual(['web'])
  })

  it('warns about a missing skill without failing, naming the agent file', async () => {
    t.write(join(t.home, '.claude/skills/ok/SKILL.md'), skillMd('ok', 'fine', 'fine'))
    const definitionFile = join(t.repo, '.claude/agents/helper.md')
    const { skills, diagnostics } = await loadSkills({ names: ['ghost', 'ok', 'ok'], cwd: t.repo, home: t.home, definitionFile })
    expect(skills.map((s) => s.name)).toEqual(['ok'])
    expect(diagnostics).toEqual([
      {
        file: definitionFile,
        line: 1,
        column: 1,
        severity: 'warning',
        code: 'skill-not-found',
        message: expect.stringContaining('Skill "ghost" was not found')
      }
    ])
    expect(diagnostics[0].message).toContain(join(t.home, '.claude', 'skills'))
  })

  it('loads the instructions of a skill with broken frontmatter, and says where the YAML is wrong', async () => {
    const path = t.write(join(t.repo, '.claude/skills/broken/SKILL.md'), '---\nname: broken\ndescription: [unclosed\n---\nStill useful.\n')
    const { skills, diagnostics } = await loadSkills({ names: ['broken'], cwd: t.repo, home: t.home })
    expect(skills).toEqual([expect.objectContaining({ name: 'broken', body: 'Still useful.', frontmatter: {} })])
    expect(diagnostics).toEqual([expect.objectContaining({ file: path, code: 'skill-frontmatter-invalid', severity: 'warning' })])
    expect(diagnostics[0].line).toBeGreaterThanOrEqual(3)
  })

  it('refuses names that would leave the skills folder', async () => {
    t.write(join(t.repo, '.claude/secret/SKILL.md'), 'no')
    const { skills, diagnostics } = await loadSkills({ names: ['../secret'], cwd: t.repo, home: t.home })
    expect(skills).toEqual([])
    expect(diagnostics.map((d) => d.code)).toEqual(['skill-name-invalid'])
  })
})

describe('parseFrontmatter', () => {
  it('handles files without frontmatter, empty frontmatter and CRLF', () => {
    expect(parseFrontmatter('just text')).toEqual({ data: {}, body: 'just text' })
    expect(parseFrontmatter('---\n---\nbody')).toEqual({ data: {}, body: 'body' })
    expect(parseFrontmatter('---\r\nname: x\r\n---\r\nbody')).toEqual({ data: { name: 'x' }, body: 'body' })
    expect(parseFrontmatter('---\nname: a---b\n---\nbody').data).toEqual({ name: 'a---b' })
  })
})

describe('formatSkills', () => {
  it('lists each skill with its folder, purpose and instructions', () => {
    const text = formatSkills([
      {
        name: 'pdf',
        description: 'Work with PDF files',
        scope: 'user',
        path: '/h/s/pdf/SKILL.md',
        dir: '/h/s/pdf',
        body: 'Use pdftotext.',
        frontmatter: { name: 'PDF tools' }
      },
      { name: 'plain', scope: 'project', path: '/p/s/plain/SKILL.md', dir: '/p/s/plain', body: 'Plain body.', frontmatter: {} }
    ])
    expect(text).toContain('## Skill: PDF tools\nFolder: /h/s/pdf\nUse it for: Work with PDF files\n\nUse pdftotext.')
    expect(text).toContain('## Skill: plain\nFolder: /p/s/plain\n\nPlain body.')
    expect(text.indexOf('PDF tools')).toBeLessThan(text.indexOf('Skill: plain'))
    expect(formatSkills([])).toBe('')
  })
})
