// The Bash sandbox's placeholders, with the real sandbox (bubblewrap): made before the command starts and
// recorded, gone as soon as nothing stands on them, never a person's file, and invisible to git inside.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBashTool } from '../../tools/bash'
import { createWriteTool } from '../../tools/write'
import { toolContext } from '../../tools/test-kit'
import { foldJournal } from './mount-journal'
import { mountPoints } from './mount-points'
import { runInBackground } from './testing/background-hold'
import { runTool } from '../../tool-call/execute'

let root: string
let journalDir: string
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-mounts-')))
  journalDir = join(root, 'data', 'sandbox-mounts')
  mountPoints.configure(journalDir)
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

let n = 0
function project(files: Record<string, string> = { 'README.md': '# readme\n' }): string {
  const dir = join(root, `p${++n}`)
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true })
    writeFileSync(join(dir, rel), text)
  }
  execFileSync('git', ['init', '-q'], { cwd: dir })
  return dir
}

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }
  })
const sandboxed = (dir: string, command: string) => runTool(createBashTool({ cwd: dir }), { command }, toolContext({ sandbox: 'workspace' }))
const listing = (dir: string) => readdirSync(dir).sort()
const journal = () =>
  readdirSync(journalDir)
    .filter((f) => f === `${process.pid}.jsonl`)
    .map((f) => foldJournal(f, readFileSync(join(journalDir, f), 'utf8')))[0] ?? null

/**
 * What sandbox-runtime protects in a project root (.claude whole, by Fanout's policy), and what of its git
 * folder would redirect git when absent (git-dir-policy.ts).
 */
const EXPECTED = [
  '.bash_profile',
  '.bashrc',
  '.git/config.worktree',
  '.git/modules',
  '.gitconfig',
  '.gitmodules',
  '.idea',
  '.mcp.json',
  '.profile',
  '.ripgreprc',
  '.vscode',
  '.zprofile',
  '.zshrc'
]

describe('the sandbox placeholders of one command', () => {
  it('are made before the command starts, recorded in the journal, and removed with their record when it ends', async () => {
    const dir = project({ 'README.md': 'x\n', '.claude/settings.json': '{}\n' })
    const bg = await runInBackground(dir)
    const made = mountPoints.placeholdersUnder(dir)
    expect(made.map((p) => p.slice(dir.length + 1)).sort()).toEqual(EXPECTED)
    // .claude is write-protected whole: no placeholders for .claude/agents and .claude/commands inside it.
    expect(readdirSync(join(dir, '.claude'))).toEqual(['settings.json'])
    for (const p of made) {
      expect(statSync(p).size).toBe(0)
      expect(mountPoints.placeholderAt(p)).toMatchObject({ path: p, kind: 'file', holder: expect.stringContaining('"sleep 60"') })
    }
    const recorded = journal()
    expect([...(recorded?.entries.keys() ?? [])].sort()).toEqual(made)
    expect([...(recorded?.entries.values() ?? [])].every((e) => e.held && e.id !== null)).toBe(true)
    expect(recorded?.runs.has(bg.pid)).toBe(true)
    await bg.stop()
    expect(listing(dir)).toEqual(['.claude', '.git', 'README.md'])
    expect(existsSync(join(journalDir, `${process.pid}.jsonl`))).toBe(false)
  })

  it('in a project without .claude: one placeholder folder, no file inside it', async () => {
    const dir = project()
    const bg = await runInBackground(dir)
    expect(mountPoints.placeholderAt(join(dir, '.claude'))).toMatchObject({ kind: 'dir' })
    expect(readdirSync(join(dir, '.claude'))).toEqual([])
    await bg.stop()
    expect(listing(dir)).toEqual(['.git', 'README.md'])
  })

  it('a command in another folder does not keep them: they go when their own command ends', async () => {
    const a = project()
    const b = project()
    const inA = await runInBackground(a)
    const inB = await runInBackground(b)
    // sandbox-runtime's eleven, .claude, and .git/config.worktree and .git/modules (git-dir-policy.ts).
    expect(mountPoints.placeholdersUnder(a)).toHaveLength(14)
    await inA.stop()
    // sandbox-runtime alone keeps every placeholder until the last sandbox of the process ends.
    expect(listing(a)).toEqual(['.git', 'README.md'])
    expect(mountPoints.placeholdersUnder(b)).toHaveLength(14)
    await inB.stop()
    expect(listing(b)).toEqual(['.git', 'README.md'])
  })

  it("in the same folder, a second command stands on the first one's placeholders: still protected after the first ends", async () => {
    const dir = project()
    const flag = join(root, `go-${n}`)
    const first = await runInBackground(dir)
    const second = await runInBackground(
      dir,
      `until [ -e ${flag} ]; do sleep 0.05; done; (echo pwned > .bashrc) 2>/dev/null && echo WROTE || echo REFUSED; rm -f .mcp.json 2>/dev/null && echo REMOVED || echo KEPT`
    )
    await first.stop()
    expect(mountPoints.placeholderAt(join(dir, '.bashrc'))).toMatchObject({ holder: expect.stringContaining('until [ -e') })
    writeFileSync(flag, '')
    await second.ended()
    expect(second.output()).toContain('REFUSED')
    expect(second.output()).toContain('KEPT')
    expect(listing(dir)).toEqual(['.git', 'README.md'])
  })
})

describe('a placeholder someone wrote to is theirs', () => {
  it('keeps what a person or the Write tool made of it, also empty, and removes only the untouched ones', async () => {
    const dir = project()
    const bg = await runInBackground(dir)
    // A person: content in one, an empty file made writable in another (touch after chmod).
    chmodSync(join(dir, '.mcp.json'), 0o644)
    writeFileSync(join(dir, '.mcp.json'), '{"mcpServers":{}}\n')
    chmodSync(join(dir, '.gitmodules'), 0o644)
    // The Write tool, with permission: an empty file where a placeholder stands, without "read it first".
    const write = await runTool(createWriteTool({ cwd: dir }), { file_path: '.idea', content: '' }, toolContext())
    expect(write.isError).toBeFalsy()
    expect(write.content).toContain('File created successfully')
    // A real file put into the .claude placeholder folder makes the folder theirs too.
    mkdirSync(join(dir, '.claude', 'agents'))
    writeFileSync(join(dir, '.claude', 'agents', 'a.md'), '---\nname: a\n---\n')
    for (const p of ['.mcp.json', '.gitmodules', '.idea', '.claude']) expect(mountPoints.placeholderAt(join(dir, p))).toBeNull()
    await bg.stop()
    expect(listing(dir)).toEqual(['.claude', '.git', '.gitmodules', '.idea', '.mcp.json', 'README.md'])
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toContain('mcpServers')
    expect(statSync(join(dir, '.gitmodules')).size).toBe(0)
    expect(statSync(join(dir, '.idea')).mode & 0o777).toBe(0o644)
  })
})

describe('git inside the sandbox', () => {
  it('commits with `git add -A` and lists nothing of the placeholders, also those of another running command', async () => {
    const dir = project()
    const alone = await sandboxed(
      dir,
      'echo a > a.txt && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git status --short && echo clean'
    )
    expect(alone.content).toBe('clean')
    const bg = await runInBackground(dir)
    const shared = await sandboxed(
      dir,
      'echo b > b.txt && git status --short && git add -A && git -c user.name=t -c user.email=t@t commit -qm two && echo committed'
    )
    expect(shared.content).toBe('?? b.txt\ncommitted')
    await bg.stop()
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('b.txt')
    expect(git(dir, 'ls-files').trim().split('\n')).toEqual(['README.md', 'a.txt', 'b.txt'])
  })

  it("keeps the person's own excludes file in force", async () => {
    const dir = project()
    const home = join(root, `home-${n}`)
    mkdirSync(join(home, '.config', 'git'), { recursive: true })
    writeFileSync(join(home, '.config', 'git', 'ignore'), '*.log\n')
    const saved = { home: process.env.HOME, xdg: process.env.XDG_CONFIG_HOME }
    process.env.HOME = home
    delete process.env.XDG_CONFIG_HOME
    try {
      const r = await sandboxed(dir, 'echo x > debug.log && echo y > kept.txt && git status --short --untracked-files=all')
      expect(r.content).toBe('?? README.md\n?? kept.txt')
    } finally {
      process.env.HOME = saved.home
      if (saved.xdg !== undefined) process.env.XDG_CONFIG_HOME = saved.xdg
    }
  })
})
