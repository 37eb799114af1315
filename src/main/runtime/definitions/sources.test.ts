import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadAgents, projectAgentDirs } from './sources'

let tmp: string
let builtinDir: string
let home: string
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fanout-sources-'))
  builtinDir = join(tmp, 'builtin')
  home = join(tmp, 'home')
  mkdirSync(builtinDir)
  mkdirSync(home)
})
afterEach(() => rmSync(tmp, { recursive: true, force: true }))

function agent(path: string, name: string, description = `${name} from ${path}`, extra = ''): string {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `---\nname: ${name}\ndescription: ${description}\n${extra}---\nPrompt of ${name}\n`)
  return path
}

describe('loadAgents', () => {
  it('applies priority built-in < plugin < user < project < cli < managed, recording shadows', async () => {
    const cwd = join(tmp, 'repo')
    mkdirSync(cwd)
    const b = agent(join(builtinDir, 'x.md'), 'x')
    const p = agent(join(tmp, 'plug/agents/x.md'), 'x') // namespaced: does not collide
    const u = agent(join(home, '.claude/agents/x.md'), 'x')
    const pr = agent(join(cwd, '.claude/agents/x.md'), 'x')
    const m = agent(join(tmp, 'managed/x.md'), 'x')
    const cliAgentsJson = JSON.stringify({ x: { description: 'from cli', prompt: 'P' } })
    const opts = { cwd, home, builtinDir, pluginDirs: [{ name: 'plug', dir: join(tmp, 'plug') }] }

    let r = await loadAgents(opts)
    expect(r.byType.get('plug:x')?.definition).toMatchObject({ source: 'plugin', file: p, plugin: 'plug' })
    expect(r.byType.get('x')?.definition.file).toBe(pr)
    expect(r.byType.get('x')?.shadows).toEqual([
      { source: 'built-in', file: b },
      { source: 'user', file: u }
    ])
    r = await loadAgents({ ...opts, cliAgentsJson })
    expect(r.byType.get('x')?.definition).toMatchObject({ source: 'cli', whenToUse: 'from cli' })
    r = await loadAgents({ ...opts, cliAgentsJson, managedDir: join(tmp, 'managed') })
    expect(r.byType.get('x')?.definition).toMatchObject({ source: 'managed', file: m })
    expect(r.byType.get('x')?.shadows.map((s) => s.source)).toEqual(['built-in', 'user', 'project', 'cli'])
    // Claude Code's order: first appearance by priority.
    expect(r.agents.map((a) => a.definition.agentType)).toEqual(['x', 'plug:x'])
  })

  it('walks up from the working directory: the nearest project folder wins', async () => {
    const top = join(tmp, 'work')
    const deep = join(top, 'a/b')
    mkdirSync(deep, { recursive: true })
    const far = agent(join(top, '.claude/agents/r.md'), 'r')
    const near = agent(join(top, 'a/.claude/agents/r.md'), 'r')
    agent(join(top, '.claude/agents/only-top.md'), 'only-top')
    const r = await loadAgents({ cwd: deep, home, builtinDir })
    expect(r.byType.get('r')?.definition.file).toBe(near)
    expect(r.byType.get('r')?.shadows).toEqual([{ source: 'project', file: far }])
    expect(r.byType.has('only-top')).toBe(true)
    expect(r.diagnostics.filter((d) => d.code === 'duplicate-name')).toEqual([])
  })

  it('stops below the home folder, whose .claude/agents is the user scope', () => {
    expect(projectAgentDirs('/home/u/p/q', '/home/u')).toEqual(['/home/u/p/q/.claude/agents', '/home/u/p/.claude/agents'])
    expect(projectAgentDirs('/srv/x', '/home/u')).toEqual(['/srv/x/.claude/agents', '/srv/.claude/agents', '/.claude/agents'])
  })

  it('reads folders recursively, skips non-.md files with a note, and survives symlink loops', async () => {
    const cwd = join(tmp, 'repo')
    const dir = join(cwd, '.claude/agents')
    agent(join(dir, 'team/deep/a.md'), 'a')
    writeFileSync(join(dir, 'notes.txt'), 'not an agent')
    writeFileSync(join(dir, '.hidden.md'), 'ignored')
    symlinkSync(dir, join(dir, 'team/loop'))
    const r = await loadAgents({ cwd, home, builtinDir })
    expect(r.agents.map((a) => a.definition.agentType)).toEqual(['a'])
    expect(r.diagnostics).toEqual([expect.objectContaining({ file: join(dir, 'notes.txt'), severity: 'info', code: 'not-markdown' })])
  })

  it('reads a file once whatever path leads to it: a linked file, a linked folder, a folder under a linked parent', async () => {
    const cwd = join(tmp, 'repo')
    const dir = join(cwd, '.claude/agents')
    const a = agent(join(dir, 'a.md'), 'a')
    symlinkSync(a, join(dir, 'b.md')) // the same file under another name
    // The person's agents folder is the project's, through a link to its parent: every file there is read once.
    mkdirSync(join(home, '.claude'), { recursive: true })
    symlinkSync(join(cwd, '.claude'), join(home, '.claude', 'linked'))
    symlinkSync(join(home, '.claude', 'linked', 'agents'), join(home, '.claude', 'agents'))
    const r = await loadAgents({ cwd, home, builtinDir })
    expect(r.agents.filter((x) => x.definition.agentType === 'a')).toHaveLength(1)
    const dupes = r.diagnostics.filter((d) => d.code === 'duplicate-file').map((d) => d.file)
    // The person's folder is read first (its scope is below the project's): of the four paths, the first is read.
    expect(dupes.sort()).toEqual([join(dir, 'a.md'), join(dir, 'b.md'), join(home, '.claude/agents/b.md')].sort())
  })

  it('namespaces plugin agents by subfolder', async () => {
    agent(join(tmp, 'plug/agents/review/deep.md'), 'deep')
    const r = await loadAgents({ cwd: tmp, home, builtinDir, pluginDirs: [{ name: 'plug', dir: join(tmp, 'plug') }] })
    expect([...r.byType.keys()]).toEqual(['plug:review:deep'])
  })

  it('warns when two files of the same folder level share a name; the later file wins', async () => {
    const cwd = join(tmp, 'repo')
    agent(join(cwd, '.claude/agents/a.md'), 'same')
    const second = agent(join(cwd, '.claude/agents/b.md'), 'same')
    const r = await loadAgents({ cwd, home, builtinDir })
    expect(r.byType.get('same')?.definition.file).toBe(second)
    expect(r.byType.get('same')?.diagnostics).toEqual([expect.objectContaining({ code: 'duplicate-name', severity: 'warning', file: second })])
  })

  it('lets a project file override a built-in, and collects diagnostics from every file', async () => {
    const cwd = join(tmp, 'repo')
    agent(join(builtinDir, 'explore.md'), 'Explore')
    agent(join(cwd, '.claude/agents/explore.md'), 'Explore', 'mine')
    writeFileSync(join(cwd, '.claude/agents/broken.md'), '---\nname: broken\n')
    const r = await loadAgents({ cwd, home, builtinDir })
    expect(r.byType.get('Explore')?.definition).toMatchObject({ source: 'project', whenToUse: 'mine' })
    expect(r.diagnostics).toEqual([expect.objectContaining({ file: join(cwd, '.claude/agents/broken.md'), code: 'unterminated-frontmatter' })])
  })

  it('refuses oversized files without reading them', async () => {
    const cwd = join(tmp, 'repo')
    mkdirSync(join(cwd, '.claude/agents'), { recursive: true })
    writeFileSync(join(cwd, '.claude/agents/huge.md'), Buffer.alloc(2 * 1024 * 1024, 'a'))
    const r = await loadAgents({ cwd, home, builtinDir })
    expect(r.agents).toEqual([])
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'file-too-large', severity: 'error' })])
  })
})
