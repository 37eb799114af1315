import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentPathContext } from './agent-paths'
import { analyzeAgentText } from './analyze'
import { buildLibrary } from './library'

let root: string
let ctx: AgentPathContext
const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}
const agent = (name: string, extra = '') => `---\nname: ${name}\ndescription: The ${name} agent.\n${extra}---\nYou are ${name}.\n`

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fanout-library-'))
  ctx = { cwd: join(root, 'repo', 'pkg'), home: join(root, 'home'), sources: { builtinDir: join(root, 'builtin') } }
  write(join(ctx.sources.builtinDir!, 'Explore.md'), agent('Explore', 'tools: Read, Grep\n'))
  write(join(ctx.home, '.claude/agents/reviewer.md'), agent('reviewer', 'color: purple\n'))
  write(join(ctx.cwd, '.claude/agents/reviewer.md'), agent('reviewer', 'tools: Read\nmodel: haiku\n'))
  write(join(root, 'repo', '.claude/agents/reviewer.md'), agent('reviewer'))
  write(join(ctx.cwd, '.claude/agents/broken.md'), '---\nname: broken\n---\nno description\n')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('buildLibrary', () => {
  it('lists every file by source, loaded or not, with what shadows what', async () => {
    const lib = await buildLibrary(ctx)
    const project = join(ctx.cwd, '.claude/agents/reviewer.md')
    const far = join(root, 'repo', '.claude/agents/reviewer.md')
    const user = join(ctx.home, '.claude/agents/reviewer.md')
    expect(lib.entries.map((e) => [e.source, e.agentType ?? e.id.split('/').pop(), e.active])).toEqual([
      ['project', 'broken.md', false],
      ['project', 'reviewer', true],
      ['project', 'reviewer', false],
      ['user', 'reviewer', false],
      ['built-in', 'Explore', true]
    ])
    const winner = lib.entries.find((e) => e.file === project)!
    expect(winner).toMatchObject({ scope: 'project', model: 'haiku', toolsLabel: 'Read' })
    expect(winner.shadows).toEqual([
      { source: 'user', file: user },
      { source: 'project', file: far }
    ])
    expect(lib.entries.find((e) => e.file === user)).toMatchObject({ shadowedBy: { source: 'project', file: project }, scope: 'user', color: 'purple' })
    const broken = lib.entries.find((e) => e.id.endsWith('broken.md'))!
    expect(broken).toMatchObject({ loaded: false, scope: 'project' })
    expect(broken.diagnostics[0]).toMatchObject({ severity: 'error', code: 'missing-description', line: 2 })
    expect(lib.entries.find((e) => e.source === 'built-in')!.scope).toBeUndefined()
  })

  it("gives the Agent tool's listing exactly as the model reads it, and where new agents go", async () => {
    const lib = await buildLibrary(ctx)
    expect(lib.listing).toBe('- Explore: The Explore agent. (Tools: Read, Grep)\n- reviewer: The reviewer agent. (Tools: Read)')
    expect(lib.dirs).toEqual({ user: join(ctx.home, '.claude/agents'), project: join(ctx.cwd, '.claude/agents') })
    expect(lib.templates.map((t) => t.id)).toContain('blank')
  })
})

describe('analyzeAgentText', () => {
  const tools = ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob', 'Agent', 'AskUserQuestion', 'TaskStop']
  const analyze = (text: string) =>
    analyzeAgentText(text, '/p/.claude/agents/a.md', 'project', { availableTools: tools, mcpTools: ['mcp__github__create_issue'] })

  it('resolves the tools a subagent gets, saying why each other tool was removed, and its listing line', () => {
    const a = analyze(agent('a', 'tools: Read, Bash(git:*), Nope\ndisallowedTools: Write\n'))
    expect(a.loaded).toBe(true)
    expect(a.effective!.tools.resolvedTools).toEqual(['Read', 'Bash'])
    expect(a.effective!.tools.invalidTools).toEqual(['Nope'])
    expect(a.effective!.tools.removed).toMatchObject({
      Write: 'disallowedTools lists Write',
      AskUserQuestion: expect.stringContaining('subagents never get'),
      Grep: "not in the agent's tools list"
    })
    expect(a.effective!.listingLine).toBe('- a: The a agent. (Tools: Read, Bash(git:*), Nope)')
    expect(a.effective!.available).toContain('mcp__github__create_issue')
  })

  it('says where each key is and which keys are not agent fields', () => {
    const a = analyze('---\nname: a\ndescription: |-\n  two\n  lines\nx-owner: me\nomitClaudeMd: true\n---\nBody\n')
    expect(a.keySpans).toEqual({
      name: { line: 2, endLine: 2 },
      description: { line: 3, endLine: 5 },
      'x-owner': { line: 6, endLine: 6 },
      omitClaudeMd: { line: 7, endLine: 7 }
    })
    expect(a.unknownKeys).toEqual(['x-owner'])
    expect(a.rawOnlyKeys).toEqual(['omitClaudeMd'])
    expect(a.fields).toEqual({ name: 'a', description: 'two\nlines' })
    expect(a).toMatchObject({ body: 'Body\n', bodyLine: 9, formEditable: true })
  })

  it('keeps the form open on a file that loads only after Claude Code repair, with the repair on offer', () => {
    const a = analyze('---\nname: a\ndescription: Use when: x\n---\nBody\n')
    expect(a.loaded).toBe(true)
    expect(a.formEditable).toBe(true)
    expect(a.formBlocked).toBeUndefined()
    expect(a.fields.description).toBe('Use when: x')
    expect(a.repair!.changes[0]).toMatch(/^Line 3/)
    expect(a.diagnostics[0]).toMatchObject({ code: 'yaml-repaired', line: 3 })
  })
})
