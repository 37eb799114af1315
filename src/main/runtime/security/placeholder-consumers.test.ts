// Every reader of a project, while a sandboxed command runs there (so its placeholders stand in the folder):
// commits, review listings, MCP/settings/agent loading and the file tools treat a placeholder as no file,
// and a real file at such a path (with content, or made by the Write tool) exactly as before.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadAgents } from '../definitions'
import { loadMcpConfig } from '../mcp/load-config'
import { loadPermissionSettings } from '../permissions/settings'
import { worktreeChanges } from '../review/changes'
import { makeTempDir, toolContext } from '../tools/test-kit'
import { createEditTool } from '../tools/edit'
import { createGlobTool } from '../tools/glob'
import { createReadTool } from '../tools/read'
import { createWriteTool } from '../tools/write'
import { createAgentWorktree, finishAgentWorktree, uncommittedChanges, worktreeGitDirs } from '../worktrees'
import { git, makeTempRepo, type TempRepo } from '../worktrees/testing/temp-repo'
import { placeholderAt, placeholdersUnder } from './placeholders'
import { holdWithPolicy, runInBackground, type BackgroundCommand } from './sandbox/testing/background-hold'
import { runTool } from '../tool-call/execute'

const running: Array<{ stop(): Promise<void> }> = []
const cleanups: Array<() => void> = []
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop()
  for (const c of cleanups.splice(0)) c()
})

async function hold(dir: string): Promise<BackgroundCommand> {
  const bg = await runInBackground(dir)
  running.push(bg)
  expect(placeholdersUnder(dir).length).toBeGreaterThan(10)
  return bg
}

function repo(): TempRepo {
  const r = makeTempRepo()
  cleanups.push(() => r.cleanup())
  return r
}

function folder(): string {
  const { dir, cleanup } = makeTempDir()
  cleanups.push(cleanup)
  return dir
}

describe("an isolated agent's worktree while a sandboxed command runs in it", () => {
  it("commits only the agent's files on its end, and a real .mcp.json the Write tool made there, even empty", async () => {
    const r = repo()
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'agent1' })
    const bg = await hold(wt.path)
    writeFileSync(join(wt.path, 'work.txt'), 'done\n')
    const write = await runTool(createWriteTool({ cwd: wt.path }), { file_path: '.mcp.json', content: '' }, toolContext())
    expect(write.isError).toBeFalsy()
    const dirs = await worktreeGitDirs(wt.path, wt.commonDir)
    expect(await uncommittedChanges(dirs)).toBe('?? .mcp.json\n?? work.txt')
    expect((await worktreeChanges(dirs)).map((f) => f.path)).toEqual(['.mcp.json', 'work.txt'])
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'work' })
    expect(done).toMatchObject({ changed: true, kept: true })
    expect(r.git('show', '--name-only', '--format=', 'fanout/agent1').split('\n').sort()).toEqual(['.mcp.json', 'work.txt'])
    await bg.stop()
    expect(git(wt.path, 'status', '--porcelain')).toBe('')
  })

  it('with nothing but placeholders: no changes, and the worktree is kept while the command runs, saying why', async () => {
    const r = repo()
    const wt = await createAgentWorktree({ repoCwd: r.root, agentId: 'agent2' })
    await hold(wt.path)
    const dirs = await worktreeGitDirs(wt.path, wt.commonDir)
    expect(await uncommittedChanges(dirs)).toBe('')
    expect(await worktreeChanges(dirs)).toEqual([])
    const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'nothing' })
    expect(done).toMatchObject({ changed: false, kept: true, error: expect.stringContaining('a sandboxed command is still running') })
    expect(r.git('rev-parse', 'fanout/agent2')).toBe(wt.baseCommit)
  })
})

describe('loading a project while a sandboxed command runs in it', () => {
  it('an empty placeholder .mcp.json is no file (no error, no servers); a real one loads', async () => {
    const dir = folder()
    await hold(dir)
    expect(loadMcpConfig({ cwd: dir, home: folder(), env: {} })).toEqual({ servers: [], problems: [] })
  })

  it('a real .mcp.json written over the placeholder is loaded', async () => {
    const dir = folder()
    await hold(dir)
    const w = await runTool(createWriteTool({ cwd: dir }), { file_path: '.mcp.json', content: '{"mcpServers":{"echo":{"command":"echo"}}}' }, toolContext())
    expect(w.isError).toBeFalsy()
    expect(loadMcpConfig({ cwd: dir, home: folder(), env: {} }).servers.map((s) => s.name)).toEqual(['echo'])
  })

  it('.claude/agents as a placeholder file is no folder: no warning, and the other agents load', async () => {
    const dir = folder()
    mkdirSync(join(dir, '.claude'))
    writeFileSync(join(dir, '.claude', 'settings.json'), '{}\n')
    // sandbox-runtime's own defaults (Fanout's policy protects .claude whole and needs no placeholder there).
    const held = await holdWithPolicy(dir)
    running.push(held)
    expect(placeholderAt(join(dir, '.claude', 'agents'))).toMatchObject({ kind: 'file' })
    const loaded = await loadAgents({ cwd: dir, home: folder() })
    expect(loaded.diagnostics.filter((d) => d.file.startsWith(dir))).toEqual([])
    expect(loaded.agents.length).toBeGreaterThan(0)
  })

  it('a placeholder at a settings file an Edit deny rule protects is no settings file', async () => {
    const dir = folder()
    mkdirSync(join(dir, '.claude'))
    writeFileSync(join(dir, '.claude', 'settings.json'), '{"permissions":{"allow":["Bash(ls)"]}}\n')
    const held = await holdWithPolicy(dir, [join(dir, '.claude', 'settings.local.json')])
    running.push(held)
    expect(placeholderAt(join(dir, '.claude', 'settings.local.json'))).not.toBeNull()
    const settings = loadPermissionSettings({ cwd: dir, home: folder(), managedFile: null })
    expect(settings.files).toEqual([join(dir, '.claude', 'settings.json')])
    expect(settings.diagnostics).toEqual([])
  })
})

describe('the file tools while a sandboxed command runs in the folder', () => {
  it('Glob does not list placeholders (they would be the newest files)', async () => {
    const dir = folder()
    writeFileSync(join(dir, 'a.ts'), 'x')
    await hold(dir)
    const r = await runTool(createGlobTool({ cwd: dir, ripgrep: false }), { pattern: '**/*' }, toolContext())
    expect(r.content).toBe('a.ts')
    const dot = await runTool(createGlobTool({ cwd: dir }), { pattern: '.*' }, toolContext())
    expect(dot.content).toMatch(/^No files found/)
  })

  it('Read says a placeholder is no file, and why', async () => {
    const dir = folder()
    await hold(dir)
    const r = await runTool(createReadTool({ cwd: dir }), { file_path: '.bashrc' }, toolContext())
    expect(r).toMatchObject({
      isError: true,
      content: expect.stringMatching(
        /^File does not exist: \.bashrc\. \(What is there now is an empty file the Bash sandbox put in place for the sandbox of the running command "sleep 60"/
      )
    })
  })

  it('Write and Edit create a file where a placeholder stands, and say why a folder cannot be made through one', async () => {
    const dir = folder()
    await hold(dir)
    const edit = await runTool(createEditTool({ cwd: dir }), { file_path: '.gitmodules', old_string: '', new_string: '[submodule "x"]\n' }, toolContext())
    expect(edit).toMatchObject({ content: 'Created .gitmodules.' })
    expect(readFileSync(join(dir, '.gitmodules'), 'utf8')).toBe('[submodule "x"]\n')
    expect(statSync(join(dir, '.gitmodules')).mode & 0o777).toBe(0o644)
    const blocked = await runTool(createWriteTool({ cwd: dir }), { file_path: '.vscode/settings.json', content: '{}' }, toolContext())
    expect(blocked).toMatchObject({ isError: true, content: expect.stringContaining('.vscode is held by the sandbox of the running command "sleep 60"') })
  })
})
