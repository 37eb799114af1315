// The trust pieces on their own: what an item is and when its hash changes, who approves it and in which
// order, the gates' "approved entries only" rebuilding, git's index read without git, and the store.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { displayCommand } from '../../../shared/trust'
import { gitTracks } from './claude-approvals'
import { answerTrust, EMPTY_LIST_HASH, evaluateTrust, listHash } from './folder-trust'
import { keepApprovedHooks } from './gate'
import { canonicalJson, commandLine, makeItem } from './items'
import { collectItems, hookItem } from './scan'
import { forgetFolder, trustStorePath } from './trust-store'

const tmp = () => realpathSync(mkdtempSync(join(tmpdir(), 'fanout-trust-')))

describe('items', () => {
  it('hash the content, whatever the key order, and change with one character of it', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}')
    const a = makeItem({ kind: 'mcp-server', folder: '/p', file: '/p/.mcp.json', name: 's', command: 'x', content: { command: 'node', args: ['a'] } })
    const b = makeItem({ kind: 'mcp-server', folder: '/p', file: '/p/.mcp.json', name: 's', command: 'x', content: { args: ['a'], command: 'node' } })
    const c = makeItem({ kind: 'mcp-server', folder: '/p', file: '/p/.mcp.json', name: 's', command: 'x', content: { args: ['a '], command: 'node' } })
    expect(a.hash).toBe(b.hash)
    expect(c.hash).not.toBe(a.hash)
    expect(c.id).toBe(a.id)
  })

  it('list hash: a folder that brings nothing hashes as sha256 of the empty list, as any other list is hashed', () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32)
    expect(listHash([])).toBe(sha(''))
    expect(EMPTY_LIST_HASH).toBe(sha(''))
    const a = makeItem({ kind: 'mcp-server', folder: '/p', file: '/p/.mcp.json', name: 's', command: 'x', content: { command: 'node' } })
    expect(listHash([a])).toBe(sha(a.hash))
  })

  it('are the same in a worktree of the folder (paths relative to it)', () => {
    const inRepo = hookItem('/repo', '/repo/.claude/settings.json', 'PreToolUse', 'Bash', { type: 'command', command: 'x' })
    const inWorktree = hookItem('/wt/try-1', '/wt/try-1/.claude/settings.json', 'PreToolUse', 'Bash', { type: 'command', command: 'x' })
    expect(inWorktree.hash).toBe(inRepo.hash)
  })

  it('show every character of a command: escapes, bidi overrides, zero-width characters, long space runs', () => {
    expect(displayCommand('ok\u001b[2K\u202eevil')).toBe('ok\\u{1b}[2K\\u{202e}evil')
    expect(displayCommand(`echo hi${' '.repeat(300)}; rm -rf ~`)).toBe('echo hi [300 spaces] ; rm -rf ~')
    expect(displayCommand('a\nb')).toBe('a ⏎ b')
    expect(displayCommand('zero\u200bwidth')).toBe('zero\\u{200b}width')
    expect(commandLine('sh', ['-c', "echo 'x'"])).toBe(`sh -c 'echo '\\''x'\\'''`)
  })
})

describe('who approves', () => {
  const settings = (json: Record<string, unknown>) => [{ file: '/p/.claude/settings.json', source: 'project' as const, json }]
  const collected = collectItems({
    folder: '/p',
    settingsFiles: settings({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'h' }] }] } }),
    mcpServers: [{ name: 's', scope: 'project', file: '/p/.mcp.json', raw: { command: 'x' } }],
    agents: []
  })

  it('waits by default; Claude Code settings approve .mcp.json servers only; the flag approves everything', () => {
    expect(evaluateTrust(collected, { trustFolder: '/p' }).items.map((i) => i.state)).toEqual(['waiting', 'waiting'])
    const claude = evaluateTrust(collected, { trustFolder: '/p', claudeApproves: () => '/home/.claude/settings.json' })
    expect(claude.items.map((i) => [i.kind, i.state, i.by])).toEqual([
      ['mcp-server', 'approved', 'claude-settings'],
      ['hook', 'waiting', undefined]
    ])
    expect(evaluateTrust(collected, { trustFolder: '/p', trustAll: true }).state).toBe('trusted')
  })

  it("the person's decline wins over Claude Code's approval, and forgetting it makes everything wait again", async () => {
    const dataDir = tmp()
    const folder = tmp()
    const opts = { dataDir, trustFolder: folder, claudeApproves: () => 'x' }
    const first = evaluateTrust(collected, opts)
    await answerTrust(dataDir, first, 'decline', first.hash)
    expect(evaluateTrust(collected, opts).items.map((i) => i.state)).toEqual(['declined', 'declined'])
    expect(evaluateTrust(collected, opts).state).toBe('declined')
    expect(readFileSync(trustStorePath(dataDir), 'utf8')).toContain(folder)
    await forgetFolder(dataDir, folder)
    expect(evaluateTrust(collected, { dataDir, trustFolder: folder }).state).toBe('waiting')
  })

  it('a store file that is not one is reported, and every folder waits', () => {
    const dataDir = tmp()
    writeFileSync(trustStorePath(dataDir), '{"version": 9}')
    const t = evaluateTrust(collected, { dataDir, trustFolder: '/p' })
    expect(t.state).toBe('waiting')
    expect(t.problems.join()).toMatch(/is not a Fanout trusted-folders file/)
  })

  it('`disableAllHooks` in any settings file means no hook needs approving', () => {
    const off = collectItems({
      folder: '/p',
      settingsFiles: [
        ...settings({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'h' }] }] } }),
        { file: '/h/.claude/settings.json', source: 'user', json: { disableAllHooks: true } }
      ],
      mcpServers: [],
      agents: []
    })
    expect(off.items).toEqual([])
  })
})

describe('keepApprovedHooks', () => {
  it('rebuilds from approved entries only: malformed groups and entries are dropped too', () => {
    const value = {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: 'ok' },
            { type: 'command', command: 'no' }
          ]
        },
        { hooks: 'not a list' },
        'junk'
      ],
      Stop: 'not a list',
      SessionStart: [{ hooks: [{ type: 'command', command: 'no' }] }]
    }
    const { hooks, dropped } = keepApprovedHooks(value, (_e, _m, h) => (h as { command: string }).command === 'ok')
    expect(hooks).toEqual({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'ok' }] }] })
    expect(dropped).toBe(5)
    expect(keepApprovedHooks('a string', () => true).hooks).toBeUndefined()
  })
})

describe('gitTracks', () => {
  it("reads git's index: a committed file is tracked, a new one is not, and outside a repository it cannot tell", () => {
    const repo = tmp()
    const git = (...a: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...a], { cwd: repo, stdio: 'ignore' })
    git('init', '-q')
    mkdirSync(join(repo, 'sub', '.claude'), { recursive: true })
    writeFileSync(join(repo, 'sub', '.claude', 'settings.local.json'), '{}')
    writeFileSync(join(repo, 'sub', '.claude', 'settings.json'), '{}')
    git('add', 'sub/.claude/settings.json')
    git('commit', '-q', '-m', 'x')
    expect(gitTracks(join(repo, 'sub', '.claude', 'settings.json'))).toBe(true)
    expect(gitTracks(join(repo, 'sub', '.claude', 'settings.local.json'))).toBe(false)
    expect(gitTracks(join(tmp(), 'x.json'))).toBe(null)
  })
})
