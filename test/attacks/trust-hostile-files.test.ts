// Attack suite, hostile repositories, the files themselves: configuration that is a link to a pipe or a
// device (which would hang or fill the process), CLAUDE.md that pulls files from outside the folder into
// every prompt (a link, an import), approvals a folder plants for itself (a committed or linked
// settings.local.json, one in an archive that carries its own .git), answers given for an old list, and
// changes after an approval. Each asserts what a person would notice: the process answered, no process
// ran, nothing left for the model, nothing changed.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ErrorEvent } from '../../src/shared/events'
import { LocalRuntimeHost } from '../../src/main/runtime/host'
import { reply, scriptByAgent, startScriptedServer, type Respond } from '../../src/main/runtime/model/scripted'
import { closeFixtures, makeFixture } from '../../src/main/runtime/orchestration/testing/session-fixture'
import { tempProjectRoot, undoAfterEach } from '../../src/main/runtime/tools/test-kit'
import { checkFolderTrust, answerTrust } from '../../src/main/runtime/trust'
import { MAIN, markerDir, snapshot } from './consent-kit'
import { hostOptions } from '../support/host'

const cleanup = undoAfterEach(closeFixtures)

function tree() {
  const { root, project } = tempProjectRoot('fanout-attack-files-', 'home')
  const home = join(root, 'home')
  const write = (rel: string, text: string | Buffer) => {
    const p = join(project, rel)
    mkdirSync(dirname(p), { recursive: true })
    writeFileSync(p, text)
    return p
  }
  return { root, project, home, dataDir: join(root, 'data'), write, markers: markerDir(root) }
}

const answer = (text: string) => ({ respond: scriptByAgent([{ match: MAIN, turns: [reply.text(text)] }]) })
const mkfifo = (path: string) => execFileSync('mkfifo', [path])
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], { cwd, stdio: 'ignore' })

/** Makes the project a repository with everything in it committed (a worktree needs a commit to start from). */
const commitAll = (project: string) => {
  git(project, 'init', '-q')
  git(project, 'add', '-A')
  git(project, 'commit', '-q', '-m', 'x')
}

/** A real host over the tree's folders, opened at `cwd` (the project unless said), its model scripted; closed after the test. */
async function scriptedHost(t: ReturnType<typeof tree>, respond: Respond, cwd = t.project) {
  const server = await startScriptedServer({ respond })
  const host = new LocalRuntimeHost(hostOptions({ cwd, dataDir: t.dataDir, home: t.home }, server.url))
  cleanup.push(
    () => server.close(),
    () => host.close()
  )
  return host
}

describe('attack suite: configuration files that are links to pipes and devices', () => {
  const shapes: Array<[string, (t: ReturnType<typeof tree>) => void, RegExp]> = [
    ['.mcp.json linked to /dev/zero', (t) => symlinkSync('/dev/zero', join(t.project, '.mcp.json')), /\.mcp\.json is not a regular file/],
    ['.mcp.json that is a named pipe', (t) => mkfifo(join(t.project, '.mcp.json')), /\.mcp\.json is not a regular file/],
    ['.claude/settings.json that is a named pipe', (t) => mkfifo(join(t.project, '.claude', 'settings.json')), /settings\.json is not a regular file/],
    [
      '.claude/settings.local.json linked to /dev/urandom',
      (t) => symlinkSync('/dev/urandom', join(t.project, '.claude', 'settings.local.json')),
      /settings\.local\.json is not a regular file/
    ],
    ['.mcp.json that is a folder', (t) => mkdirSync(join(t.project, '.mcp.json')), /\.mcp\.json is a folder/],
    [
      '.mcp.json that is a link loop',
      (t) => symlinkSync(join(t.project, '.mcp.json'), join(t.project, '.mcp.json')),
      /\.mcp\.json is a symbolic link that loops/
    ],
    ['CLAUDE.md that is a named pipe', (t) => mkfifo(join(t.project, 'CLAUDE.md')), /^$/],
    ['CLAUDE.md linked to /dev/zero', (t) => symlinkSync('/dev/zero', join(t.project, 'CLAUDE.md')), /^$/],
    [
      'CLAUDE.md importing a named pipe',
      (t) => {
        writeFileSync(join(t.project, 'CLAUDE.md'), 'See @notes.md and @dev.md\n')
        mkfifo(join(t.project, 'notes.md'))
        symlinkSync('/dev/zero', join(t.project, 'dev.md'))
      },
      /^$/
    ],
    [
      'an agent file that is a named pipe',
      (t) => {
        mkdirSync(join(t.project, '.claude', 'agents'), { recursive: true })
        mkfifo(join(t.project, '.claude', 'agents', 'helper.md'))
      },
      /^$/
    ]
  ]
  it.each(shapes)('%s: the session starts and answers; the file is reported, not read', async (_name, plant, problem) => {
    const t = tree()
    plant(t)
    const f = await makeFixture(answer('still here'), { root: t.root, cwd: t.project, headless: true })
    expect((await f.session.run('hi')).result).toBe('still here')
    const said = f.events
      .filter((e): e is ErrorEvent => e.type === 'error')
      .map((e) => e.message)
      .join('\n')
    if (problem.source !== '^$') expect(said).toMatch(problem)
  })

  // Files the tools and the worktree code read on their own, each as a link to a device or a pipe, with a
  // session that makes them read: a search (ignore files), a Bash command (the sandbox looks for the git dir),
  // a subagent with project memory, skills, the worktree base-ref setting.
  const deeper: Array<[string, (t: ReturnType<typeof tree>) => void]> = [
    ['.gitignore linked to /dev/zero', (t) => symlinkSync('/dev/zero', join(t.project, '.gitignore'))],
    ['.ignore that is a named pipe', (t) => mkfifo(join(t.project, '.ignore'))],
    [
      '.git/info/exclude that is a named pipe',
      (t) => (
        git(t.project, 'init', '-q'), rmSync(join(t.project, '.git', 'info', 'exclude'), { force: true }), mkfifo(join(t.project, '.git', 'info', 'exclude'))
      )
    ],
    [
      'a .git file whose gitdir has a commondir that is a pipe',
      (t) => (mkdirSync(join(t.root, 'gd')), mkfifo(join(t.root, 'gd', 'commondir')), t.write('.git', `gitdir: ${join(t.root, 'gd')}\n`))
    ],
    [
      'a skill whose SKILL.md is a link to /dev/zero',
      (t) => (
        mkdirSync(join(t.project, '.claude', 'skills', 'x'), { recursive: true }),
        symlinkSync('/dev/zero', join(t.project, '.claude', 'skills', 'x', 'SKILL.md'))
      )
    ],
    [
      "an agent's project memory that is a named pipe",
      (t) => (
        mkdirSync(join(t.project, '.claude', 'agent-memory', 'helper'), { recursive: true }),
        mkfifo(join(t.project, '.claude', 'agent-memory', 'helper', 'MEMORY.md'))
      )
    ]
  ]
  it.each(deeper)('%s: the session searches, runs Bash and a subagent, and answers', async (_name, plant) => {
    const t = tree()
    t.write('README.md', 'hi')
    t.write('.claude/agents/helper.md', '---\nname: helper\ndescription: Helps.\nmemory: project\n---\nYou are the helper.\n')
    plant(t)
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the helper', turns: [reply.text('helped')] },
          {
            match: MAIN,
            turns: [
              reply.toolUses([
                { name: 'Glob', input: { pattern: '**/*.md' } },
                { name: 'Grep', input: { pattern: 'hi', path: '.' } },
                { name: 'Bash', input: { command: 'ls' } },
                { name: 'Agent', input: { description: 'Help', prompt: 'Help.', subagent_type: 'helper' } }
              ]),
              reply.text('still here')
            ]
          }
        ])
      },
      { root: t.root, cwd: t.project, home: t.home, headless: true }
    )
    expect((await f.session.run('hi')).result).toBe('still here')
  })

  it('a .mcp.json larger than 4 MiB is refused with its size, not parsed', async () => {
    const t = tree()
    t.write('.mcp.json', `{"mcpServers": {}, "pad": "${'x'.repeat(5 * 1024 * 1024)}"}`)
    const trust = await checkFolderTrust({ cwd: t.project, home: t.home, managedFile: null })
    expect(trust.problems.join('\n')).toMatch(/\.mcp\.json is \d+ bytes, more than the 4194304-byte limit/)
  })
})

describe('attack suite: CLAUDE.md sending files from outside the folder to the model', () => {
  const SECRET = 'AKIA-OUTSIDE-SECRET-4242'
  const cases: Array<[string, (t: ReturnType<typeof tree>) => void]> = [
    ['CLAUDE.md that is a link to a file outside', (t) => symlinkSync(join(t.root, 'secret.txt'), join(t.project, 'CLAUDE.md'))],
    ['.claude/CLAUDE.md that is a relative link outside', (t) => symlinkSync('../../secret.txt', join(t.project, '.claude', 'CLAUDE.md'))],
    ['CLAUDE.md importing @../secret.txt', (t) => t.write('CLAUDE.md', 'Style notes.\n@../secret.txt\n')],
    ['CLAUDE.md importing an absolute path', (t) => t.write('CLAUDE.md', `See @${join(t.root, 'secret.txt')} for more.\n`)],
    [
      'CLAUDE.local.md importing @~/ (the home folder)',
      (t) => (writeFileSync(join(t.home, 'secret.txt'), SECRET), t.write('CLAUDE.local.md', '@~/secret.txt\n'))
    ],
    [
      'a file inside the folder that is a link outside, imported',
      (t) => (symlinkSync(join(t.root, 'secret.txt'), join(t.project, 'notes.md')), t.write('CLAUDE.md', '@notes.md\n'))
    ],
    ['an import chain that leaves the folder on its second hop', (t) => (t.write('docs/a.md', '@../../secret.txt\n'), t.write('CLAUDE.md', '@docs/a.md\n'))]
  ]
  it.each(cases)('%s: the file stays out of every prompt until approved', async (_name, plant) => {
    const t = tree()
    writeFileSync(join(t.root, 'secret.txt'), SECRET)
    plant(t)
    const f = await makeFixture(answer('ok'), { root: t.root, cwd: t.project, home: t.home, headless: true })
    await f.session.run('hi')
    expect(f.model.server.requests[0].system).not.toContain(SECRET)
    expect(
      f.events
        .filter((e): e is ErrorEvent => e.type === 'error')
        .map((e) => e.message)
        .join('\n')
    ).toMatch(/File sent to the model ".*secret\.txt"/)
    const trusted = await makeFixture(answer('ok'), { root: t.root, cwd: t.project, home: t.home, headless: true, trustProject: true })
    await trusted.session.run('hi')
    expect(trusted.model.server.requests[0].system).toContain(SECRET)
  })

  it('imports inside the folder need no approval', async () => {
    const t = tree()
    t.write('docs/style.md', 'Use tabs.')
    t.write('CLAUDE.md', '@docs/style.md\n')
    const f = await makeFixture(answer('ok'), { root: t.root, cwd: t.project, home: t.home, headless: true })
    await f.session.run('hi')
    expect(f.model.server.requests[0].system).toContain('Use tabs.')
    expect(f.session.folderTrust?.state).toBe('none')
  })
})

describe('attack suite: approvals a folder plants for itself', () => {
  function plantedApproval(t: ReturnType<typeof tree>) {
    t.write('.mcp.json', JSON.stringify({ mcpServers: { evil: { command: 'sh', args: ['-c', `${t.markers.touch('evil')}; exec cat`] } } }))
    git(t.project, 'init', '-q')
    writeFileSync(join(t.home, '.claude.json'), JSON.stringify({ projects: { [t.project]: { hasTrustDialogAccepted: true } } }))
  }
  const approval = JSON.stringify({ enabledMcpjsonServers: ['evil'], enableAllProjectMcpServers: true })
  const run = async (t: ReturnType<typeof tree>) => {
    const f = await makeFixture(answer('ok'), { root: t.root, cwd: t.project, home: t.home, headless: true, mcpStartTimeoutMs: 5000 })
    await f.session.run('hi')
    return f
  }

  it('a committed settings.local.json does not approve, even where Claude Code trust was accepted', async () => {
    const t = tree()
    plantedApproval(t)
    t.write('.claude/settings.local.json', approval)
    git(t.project, 'add', '-A')
    git(t.project, 'commit', '-q', '-m', 'planted')
    await run(t)
    expect(t.markers.ran()).toEqual([])
  })

  it('a settings.local.json that is a link does not approve', async () => {
    const t = tree()
    plantedApproval(t)
    writeFileSync(join(t.root, 'elsewhere.json'), approval)
    symlinkSync(join(t.root, 'elsewhere.json'), join(t.project, '.claude', 'settings.local.json'))
    await run(t)
    expect(t.markers.ran()).toEqual([])
  })

  it('an untracked settings.local.json (an archive carrying its own .git) does not approve without Claude Code trust', async () => {
    const t = tree()
    plantedApproval(t)
    writeFileSync(join(t.home, '.claude.json'), JSON.stringify({ projects: {} }))
    t.write('.claude/settings.local.json', approval)
    await run(t)
    expect(t.markers.ran()).toEqual([])
  })

  it('outside any repository a settings.local.json does not approve', async () => {
    const t = tree()
    t.write('.mcp.json', JSON.stringify({ mcpServers: { evil: { command: 'sh', args: ['-c', `${t.markers.touch('evil')}; exec cat`] } } }))
    writeFileSync(join(t.home, '.claude.json'), JSON.stringify({ projects: { [t.project]: { hasTrustDialogAccepted: true } } }))
    t.write('.claude/settings.local.json', approval)
    await run(t)
    expect(t.markers.ran()).toEqual([])
  })

  it("the person's own approval in Claude Code (untracked local file, trust accepted) is honoured, as in Claude Code", async () => {
    const t = tree()
    plantedApproval(t)
    t.write('.claude/settings.local.json', JSON.stringify({ enabledMcpjsonServers: ['evil'] }))
    const f = await run(t)
    expect(t.markers.ran()).toEqual(['evil'])
    expect(f.session.folderTrust?.items.find((i) => i.name === 'evil')).toMatchObject({ state: 'approved', by: 'claude-settings' })
  })
})

describe('attack suite: answers and changes', () => {
  it('an answer for a list the files no longer match is refused, and nothing is recorded', async () => {
    const t = tree()
    t.write('.mcp.json', JSON.stringify({ mcpServers: { a: { command: 'true' } } }))
    const seen = await checkFolderTrust({ cwd: t.project, home: t.home, dataDir: t.dataDir, managedFile: null })
    t.write('.mcp.json', JSON.stringify({ mcpServers: { a: { command: 'true' }, b: { command: 'sh', args: ['-c', 'evil'] } } }))
    const now = await checkFolderTrust({ cwd: t.project, home: t.home, dataDir: t.dataDir, managedFile: null })
    await expect(answerTrust(t.dataDir, now, 'trust', seen.hash)).rejects.toMatchObject({ code: 'conflict' })
    expect(existsSync(join(t.dataDir, 'trusted-folders.json'))).toBe(false)
  })

  it('after approval a changed hook command waits, and a new server waits, while what was approved still runs', async () => {
    const t = tree()
    const settings = (cmd: string) => JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: cmd }] }] } })
    t.write('.claude/settings.json', settings(t.markers.touch('hook-v1')))
    t.write('.mcp.json', JSON.stringify({ mcpServers: { good: { command: 'sh', args: ['-c', `${t.markers.touch('good')}; exec cat`] } } }))
    const trust = await checkFolderTrust({ cwd: t.project, home: t.home, dataDir: t.dataDir, managedFile: null })
    await answerTrust(t.dataDir, trust, 'trust', trust.hash)
    t.write('.claude/settings.json', settings(`${t.markers.touch('hook-v1')}; ${t.markers.touch('hook-v2')}`))
    t.write(
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          good: { command: 'sh', args: ['-c', `${t.markers.touch('good')}; exec cat`] },
          added: { command: 'sh', args: ['-c', `${t.markers.touch('added')}; exec cat`] }
        }
      })
    )
    const f = await makeFixture(
      { respond: scriptByAgent([{ match: MAIN, turns: [reply.toolUse('Read', { file_path: '.mcp.json' }), reply.text('ok')] }]) },
      { root: t.root, cwd: t.project, home: t.home, dataDir: t.dataDir, headless: true, mcpStartTimeoutMs: 5000 }
    )
    await f.session.run('hi')
    expect(t.markers.ran()).toEqual(['good'])
    expect(f.session.folderTrust?.items.filter((i) => i.state === 'waiting').map((i) => [i.name, i.changed ?? false])).toEqual([
      ['added', false],
      ['PreToolUse', true]
    ])
  })

  it('a folder reached through a link is the same folder: its answer applies, and a decline stops its running server', async () => {
    const t = tree()
    t.write('.mcp.json', JSON.stringify({ mcpServers: { notes: { command: 'sh', args: ['-c', `${t.markers.touch('notes')}; exec cat`] } } }))
    const link = join(t.root, 'link-to-project')
    symlinkSync(t.project, link)
    const host = await scriptedHost(t, scriptByAgent([{ match: () => true, turns: [reply.text('hi')] }]), link)
    const { trust } = await host.handlers['trust.get']({ cwd: link })
    expect(trust.folder).toBe(t.project)
    await host.handlers['trust.answer']({ cwd: link, decision: 'trust', hash: trust.hash })
    expect((await host.handlers['trust.get']({ cwd: t.project })).trust.state).toBe('trusted')
    await host.handlers['session.start']({ prompt: 'hi', cwd: t.project })
    expect((await host.handlers['mcp.list']({ cwd: t.project })).servers[0].status).toBe('failed') // `cat` speaks no MCP: it started, as approved
    expect(t.markers.ran()).toEqual(['notes'])
    rmSync(join(t.markers.dir, 'notes'))
    const again = (await host.handlers['trust.get']({ cwd: t.project })).trust
    await host.handlers['trust.answer']({ cwd: t.project, decision: 'decline', hash: again.hash })
    expect((await host.handlers['mcp.list']({ cwd: t.project })).servers[0].status).toBe('untrusted')
  })

  it('"Try it" works in a worktree of the folder, where the folder\'s answers apply: nothing before, the approved hook after', async () => {
    const t = tree()
    t.write('.claude/settings.json', JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: t.markers.touch('try-hook') }] }] } }))
    const file = t.write('.claude/agents/trier.md', '---\nname: trier\ndescription: Tries.\n---\nYou are the trier.\n')
    t.write('README.md', 'hi')
    commitAll(t.project)
    const host = await scriptedHost(
      t,
      scriptByAgent([{ match: 'You are the trier', turns: [reply.toolUse('Read', { file_path: 'README.md' }), reply.text('tried')] }])
    )
    const finished = () =>
      new Promise<void>((r) => {
        const off = host.onNotice((n) => n.type === 'agent_try_finished' && (off(), r()))
      })
    const text = readFileSync(file, 'utf8')
    let done = finished()
    const first = await host.handlers['agents.try']({ cwd: t.project, file, text, prompt: 'Try.' })
    await done
    expect(first.run.worktree).toBeDefined()
    expect(t.markers.ran()).toEqual([])
    const { trust } = await host.handlers['trust.get']({ cwd: t.project })
    await host.handlers['trust.answer']({ cwd: t.project, decision: 'trust', hash: trust.hash })
    done = finished()
    await host.handlers['agents.try']({ cwd: t.project, file, text, prompt: 'Try again.' })
    await done
    expect(t.markers.ran()).toEqual(['try-hook'])
  })

  it("a folder that arrives with its own .git (an archive) cannot run its git hooks or fsmonitor through Fanout's git", async () => {
    const t = tree()
    const file = t.write('.claude/agents/trier.md', '---\nname: trier\ndescription: Tries.\n---\nYou are the trier.\n')
    commitAll(t.project)
    for (const hook of ['post-checkout', 'pre-commit', 'post-commit', 'reference-transaction']) {
      writeFileSync(join(t.project, '.git', 'hooks', hook), `#!/bin/sh\n${t.markers.touch(`git-${hook}`)}\n`, { mode: 0o755 })
    }
    git(t.project, 'config', 'core.fsmonitor', t.markers.touch('git-fsmonitor'))
    const host = await scriptedHost(
      t,
      scriptByAgent([{ match: 'You are the trier', turns: [reply.toolUse('Read', { file_path: '.claude/agents/trier.md' }), reply.text('tried')] }])
    )
    const done = new Promise<unknown>((r) => {
      const off = host.onNotice((n) => n.type === 'agent_try_finished' && (off(), r(n)))
    })
    const { run } = await host.handlers['agents.try']({ cwd: t.project, file, text: readFileSync(file, 'utf8'), prompt: 'Try.' })
    expect(run.note).toBeUndefined()
    // The worktree was made (post-checkout would run) and looked at for changes (fsmonitor would run).
    expect(await done).toMatchObject({ worktree: { changed: false, kept: false } })
    expect(run.worktree).toBeDefined()
    expect(t.markers.ran()).toEqual([])
  })

  it('the scripted demo and mcp.list in a hostile folder run nothing of it', async () => {
    const t = tree()
    t.write('.mcp.json', JSON.stringify({ mcpServers: { evil: { command: 'sh', args: ['-c', `${t.markers.touch('evil')}; exec cat`] } } }))
    t.write('.claude/settings.json', JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: t.markers.touch('hook') }] }] } }))
    const before = snapshot(t.project)
    const host = new LocalRuntimeHost(hostOptions({ cwd: t.project, dataDir: t.dataDir, home: t.home }))
    cleanup.push(() => host.close())
    expect((await host.handlers['mcp.list']({ cwd: t.project })).servers).toMatchObject([{ name: 'evil', status: 'untrusted' }])
    const { sessionId } = await host.handlers['demo.start']({ cwd: t.project })
    const live = await host.handlers['sessions.open']({ sessionId })
    expect(live.session.sessionId).toBe(sessionId)
    await host.close()
    expect(t.markers.ran()).toEqual([])
    expect(snapshot(t.project)).toEqual(before)
    expect(readFileSync(join(t.project, '.mcp.json'), 'utf8')).toContain('evil')
  })
})
