import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { agentMemoryPrompt, loadAgentMemory, MEMORY_MAX_BYTES } from './index'
import { makeTempTree, type TempTree } from './testing/temp-tree'

let t: TempTree
beforeEach(() => {
  t = makeTempTree()
})
afterEach(() => t.cleanup())

describe('loadAgentMemory', () => {
  it('puts each scope in its folder, with the project at the repository root, and creates the folder', async () => {
    const cwd = join(t.repo, 'src/deep')
    mkdirSync(cwd, { recursive: true })
    const user = await loadAgentMemory({ agentType: 'reviewer', scope: 'user', cwd, home: t.home })
    const project = await loadAgentMemory({ agentType: 'reviewer', scope: 'project', cwd, home: t.home })
    const local = await loadAgentMemory({ agentType: 'reviewer', scope: 'local', cwd, home: t.home })
    expect(user.dir).toBe(join(t.home, '.claude/agent-memory/reviewer'))
    expect(project.dir).toBe(join(t.repo, '.claude/agent-memory/reviewer'))
    expect(local.dir).toBe(join(t.repo, '.claude/agent-memory-local/reviewer'))
    for (const m of [user, project, local]) {
      expect(m.file).toBe(join(m.dir, 'MEMORY.md'))
      expect(existsSync(m.dir)).toBe(true)
      expect(m).toMatchObject({ exists: false, content: '', truncated: false })
    }
  })

  it('uses the folder itself as the project outside a repository, and a given project root when told', async () => {
    const loose = join(t.root, 'loose')
    mkdirSync(loose)
    expect((await loadAgentMemory({ agentType: 'a', scope: 'project', cwd: loose, home: t.home })).dir).toBe(join(loose, '.claude/agent-memory/a'))
    const other = join(t.root, 'checkout')
    expect((await loadAgentMemory({ agentType: 'a', scope: 'local', cwd: loose, home: t.home, projectRoot: other })).dir).toBe(
      join(other, '.claude/agent-memory-local/a')
    )
  })

  it('makes plugin agent names safe as folder names', async () => {
    const m = await loadAgentMemory({ agentType: 'my-plugin:review:strict', scope: 'user', cwd: t.repo, home: t.home })
    expect(m.dir).toBe(join(t.home, '.claude/agent-memory/my-plugin-review-strict'))
  })

  it('loads a short MEMORY.md whole', async () => {
    t.write(join(t.home, '.claude/agent-memory/reviewer/MEMORY.md'), '- prefers small PRs\n- run npm test\n')
    const m = await loadAgentMemory({ agentType: 'reviewer', scope: 'user', cwd: t.repo, home: t.home })
    expect(m).toMatchObject({ exists: true, truncated: false, content: '- prefers small PRs\n- run npm test\n', totalLines: 2 })
  })

  it('keeps only the first 200 lines', async () => {
    const lines = Array.from({ length: 250 }, (_, i) => `line ${i + 1}`)
    t.write(join(t.home, '.claude/agent-memory/r/MEMORY.md'), lines.join('\n') + '\n')
    const m = await loadAgentMemory({ agentType: 'r', scope: 'user', cwd: t.repo, home: t.home })
    expect(m.truncated).toBe(true)
    expect(m.content.split('\n')).toEqual(lines.slice(0, 200))
    expect(m.totalLines).toBe(250)
    const prompt = agentMemoryPrompt(m)
    expect(prompt).toContain('line 200')
    expect(prompt).not.toContain('line 201')
    expect(prompt).toMatch(/MEMORY\.md is longer \(250 lines.*was cut here/)
  })

  it('keeps at most 25 KB, cut at a line boundary', async () => {
    const line = 'x'.repeat(999) // 1000 bytes with its newline
    t.write(join(t.home, '.claude/agent-memory/r/MEMORY.md'), Array.from({ length: 60 }, () => line).join('\n'))
    const m = await loadAgentMemory({ agentType: 'r', scope: 'user', cwd: t.repo, home: t.home })
    expect(m.truncated).toBe(true)
    expect(Buffer.byteLength(m.content)).toBeLessThanOrEqual(MEMORY_MAX_BYTES)
    expect(m.content.split('\n').every((l) => l === line)).toBe(true)
    expect(m.content.split('\n')).toHaveLength(25)
  })

  it('cuts one huge line of multi-byte text without leaving a broken character', async () => {
    t.write(join(t.home, '.claude/agent-memory/r/MEMORY.md'), '€'.repeat(20_000))
    const m = await loadAgentMemory({ agentType: 'r', scope: 'user', cwd: t.repo, home: t.home })
    expect(Buffer.byteLength(m.content)).toBeLessThanOrEqual(MEMORY_MAX_BYTES)
    expect(m.content).toMatch(/^€+$/)
  })
})

describe('agentMemoryPrompt', () => {
  it('tells the agent where its memory is, that it can update it, and what it holds', async () => {
    t.write(join(t.repo, '.claude/agent-memory/reviewer/MEMORY.md'), '- the API lives in src/api\n')
    const m = await loadAgentMemory({ agentType: 'reviewer', scope: 'project', cwd: t.repo, home: t.home })
    const prompt = agentMemoryPrompt(m)
    expect(prompt).toContain(m.dir)
    expect(prompt).toContain(m.file)
    expect(prompt).toMatch(/Write and Edit/)
    expect(prompt).toMatch(/version control/)
    expect(prompt).toContain('- the API lives in src/api')
    expect(prompt).not.toMatch(/was cut here/)
  })

  it('invites the agent to start a memory that does not exist yet', async () => {
    const m = await loadAgentMemory({ agentType: 'fresh', scope: 'local', cwd: t.repo, home: t.home })
    expect(agentMemoryPrompt(m)).toContain(`${m.file} does not exist yet or is empty. Create it`)
  })
})
