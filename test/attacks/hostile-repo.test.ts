// A repository that arrives with its own `.git` (an archive, a copied checkout) whose config, included config,
// `.gitattributes` and hooks name a program for every family git would run: filters, textconv, external diff,
// merge drivers, fsmonitor, hooks, signing, credential helpers, pagers, editors, ssh/proxy commands, askpass,
// upload-pack. Every git entry point Fanout has is driven on it — opening the folder, worktree create, the
// agent's commit, orphan list/clean, the Review service, base-ref's fetch, the sandbox's excludes, and
// `fanout worktrees …` through the real CLI — and not one of those programs may run. Normal work still gives
// the right answers, and the person's own ~/.gitconfig filters (trusted) still apply.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureCliBundle, runCli } from '../support/cli'
import { AgentWorkReview } from '../../src/main/runtime/review'
import { gitExcludesFor } from '../../src/main/runtime/security/sandbox/git-excludes'
import { cleanupOrphanWorktree, createAgentWorktree, findOrphanWorktrees, finishAgentWorktree, probeGit, readRepo } from '../../src/main/runtime/worktrees'
import { startPoint } from '../../src/main/runtime/worktrees/base-ref'
import { runGit, tryGit } from '../../src/main/runtime/worktrees/git'
import { closeFixtures, makeFixture, starts } from '../../src/main/runtime/orchestration/testing/session-fixture'
import { mainAgent, scriptedAgent } from '../../src/main/runtime/orchestration/testing/scripted-agents'
import { reply } from '../../src/main/runtime/model/scripted'

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-hostile-')))
const markers = join(tmp, 'markers')
const home = join(tmp, 'home')
const savedHome = process.env.HOME

function plainGit(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')))
  return execFileSync('git', args, { cwd, env: { ...env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' }).trim()
}

/** A shell command that leaves a marker named `name` (and passes stdin on, as a filter would). */
const mark = (name: string) => `sh -c 'touch ${markers}/${name}; cat' #`
const HOOKS = [
  'pre-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'post-checkout',
  'post-merge',
  'pre-merge-commit',
  'reference-transaction',
  'post-rewrite',
  'pre-auto-gc',
  'post-index-change',
  'pre-push',
  'fsmonitor-watchman'
]

/** Every key, by family, set by the repository itself (its .git/config, or a file that config includes). */
const KEYS: Record<string, string> = {
  'filter.evil.clean': mark('filter-clean'),
  'filter.evil.smudge': mark('filter-smudge'),
  'filter.Mixed.Case.process': mark('filter-process'),
  'filter.evil.required': 'true',
  'diff.evil.textconv': mark('textconv'),
  'diff.evil.command': mark('diff-command'),
  'diff.external': mark('diff-external'),
  'merge.evil.driver': mark('merge-driver'),
  'merge.evil.recursive': 'evil',
  'gpg.program': mark('gpg-program'),
  'gpg.ssh.program': mark('gpg-ssh-program'),
  'gpg.x509.program': mark('gpg-x509-program'),
  'gpg.ssh.defaultKeyCommand': mark('gpg-ssh-keycommand'),
  'commit.gpgSign': 'true',
  'tag.gpgSign': 'true',
  'log.showSignature': 'true',
  'user.signingKey': 'ABCDEF',
  'credential.helper': mark('credential-helper'),
  'credential.https://example.com.helper': mark('credential-url-helper'),
  'core.pager': mark('core-pager'),
  'pager.diff': mark('pager-diff'),
  'pager.log': mark('pager-log'),
  'core.editor': mark('core-editor'),
  'sequence.editor': mark('sequence-editor'),
  'core.sshCommand': mark('ssh-command'),
  'core.askPass': mark('askpass'),
  'core.gitProxy': mark('git-proxy'),
  'core.alternateRefsCommand': mark('alternate-refs'),
  'remote.origin.uploadpack': mark('upload-pack'),
  'trailer.sign.command': mark('trailer-command'),
  'interactive.diffFilter': mark('diff-filter'),
  'core.hooksPath': '', // set below to a folder of hooks
  'core.fsmonitor': '', // set below to a script
  'gc.auto': '1',
  'gc.autoDetach': 'false'
}
/** Set through `include.path` from .git/config, so an included file is checked too. */
const INCLUDED: Record<string, string> = {
  'filter.inc.clean': mark('included-filter-clean'),
  'filter.inc.smudge': mark('included-filter-smudge'),
  'diff.inc.textconv': mark('included-textconv'),
  'merge.inc.driver': mark('included-merge-driver')
}

function script(path: string, name: string): string {
  writeFileSync(path, `#!/bin/sh\ntouch ${markers}/${name}\ncat >/dev/null 2>&1\nexit 0\n`)
  chmodSync(path, 0o755)
  return path
}

let root = ''
let upstream = ''
const review = new AgentWorkReview()

/** Builds the hostile repository at `tmp/<name>` (its upstream beside it) and returns its folder. */
function hostileRepo(name: string): string {
  mkdirSync(markers, { recursive: true })
  mkdirSync(home, { recursive: true })
  upstream = join(tmp, `${name}-upstream`)
  const root = join(tmp, name)
  mkdirSync(root)
  plainGit(root, 'init', '-q', '-b', 'main')
  plainGit(root, 'config', 'user.name', 'Person')
  plainGit(root, 'config', 'user.email', 'person@example.com')
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\nthree\n')
  writeFileSync(join(root, 'notes.md'), '# notes\n')
  writeFileSync(join(root, 'shared.txt'), 'base\n')
  writeFileSync(join(root, 'b.txt'), 'bee\n')
  writeFileSync(join(root, 'c.txt'), 'sea\n')
  writeFileSync(
    join(root, '.gitattributes'),
    '* filter=evil diff=evil merge=evil\n*.txt filter=Mixed.Case\n*.md filter=inc diff=inc merge=inc\nb.txt filter=onbranch\nc.txt filter=wtonly\n'
  )
  plainGit(root, 'add', '-A')
  plainGit(root, 'commit', '-q', '-m', 'start')
  plainGit(tmp, 'clone', '-q', '--bare', root, upstream)
  plainGit(root, 'remote', 'add', 'origin', `file://${upstream}`)
  // Now the hostile part: nothing above ran under it.
  const gitDir = join(root, '.git')
  const hooks = join(tmp, `${name}-hooks`)
  mkdirSync(hooks)
  for (const h of HOOKS) {
    script(join(hooks, h), `hookspath-${h}`)
    script(join(gitDir, 'hooks', h), `hook-${h}`)
  }
  KEYS['core.hooksPath'] = hooks
  KEYS['core.fsmonitor'] = script(join(tmp, `${name}-fsmonitor`), 'fsmonitor')
  for (const [k, v] of Object.entries(KEYS)) plainGit(root, 'config', k, v)
  const inc = join(gitDir, 'hostile-include')
  for (const [k, v] of Object.entries(INCLUDED)) plainGit(root, 'config', '--file', inc, k, v)
  plainGit(root, 'config', 'include.path', 'hostile-include')
  // Conditional includes that hold only where Fanout's git goes next: on an agent's branch, in a linked worktree
  // (git's own child processes, e.g. worktree add's checkout, read the config again there).
  for (const [cond, file, key, marker] of [
    ['onbranch:fanout/**', 'onbranch.cfg', 'filter.onbranch.smudge', 'onbranch-smudge'],
    ['gitdir:**/worktrees/**', 'wt.cfg', 'filter.wtonly.smudge', 'worktree-only-smudge']
  ]) {
    plainGit(root, 'config', '--file', join(gitDir, file), key, mark(marker))
    plainGit(root, 'config', '--file', join(gitDir, file), key.replace('smudge', 'clean'), mark(`${marker}-clean`))
    plainGit(root, 'config', `includeIf.${cond}.path`, file)
  }
  writeFileSync(join(gitDir, 'info', 'attributes'), '*.dat filter=evil diff=evil\n')
  return root
}

const fired = () => readdirSync(markers)
/** The test's own look at the repository once it is hostile: through the runner too (plain git would run its programs). */
const g = (cwd: string, ...args: string[]) => runGit(cwd, args)

beforeAll(() => {
  ensureCliBundle()
  process.env.HOME = home // the runner reads the person's ~/.gitconfig from here
  root = hostileRepo('repo')
}, 120_000)
afterAll(async () => {
  await closeFixtures()
  process.env.HOME = savedHome
  rmSync(tmp, { recursive: true, force: true })
})

describe('a hostile repository: Fanout runs none of its programs', () => {
  it('every git entry point, 0 programs run, and the results are right', async () => {
    const entry: string[] = []
    const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      const out = await fn()
      expect(fired(), `after ${name}`).toEqual([])
      entry.push(name)
      return out
    }
    // Opening the folder: what a session start and the folder check ask of git.
    const repo = await step('open folder (readRepo)', () => readRepo(root))
    expect(repo.head).toBe(await g(root, 'rev-parse', 'HEAD'))
    await step('git probe', () => probeGit(root))
    // Worktree create, the agent's work, its auto-commit.
    const a1 = await step('worktree create', () => createAgentWorktree({ repoCwd: root, agentId: 'a1', agentType: 'coder', description: 'one' }))
    expect(readFileSync(join(a1.path, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n')
    writeFileSync(join(a1.path, 'a.txt'), 'one\nTWO\nthree\n')
    writeFileSync(join(a1.path, 'new.md'), '# new\n')
    writeFileSync(join(a1.path, 'data.dat'), 'data\n')
    const changes = await step('review changes (uncommitted)', () => review.list(root))
    expect(changes.agents[0].uncommitted.map((f) => f.path).sort()).toEqual(['a.txt', 'data.dat', 'new.md'])
    const uncommitted = await step('review file diff (uncommitted)', () => review.file(root, 'a1', 'a.txt', true))
    expect(uncommitted.newText).toBe('one\nTWO\nthree\n')
    const done = await step('agent auto-commit (finish)', () =>
      finishAgentWorktree({ worktree: { path: a1.path, branch: a1.branch, baseCommit: a1.baseCommit, repoRoot: root }, agentType: 'coder', description: 'one' })
    )
    expect(done.changed).toBe(true)
    expect(await g(root, 'show', `${a1.branch}:a.txt`)).toBe('one\nTWO\nthree')
    expect(await g(root, 'log', '-1', '--format=%G?', a1.branch)).toBe('N') // not signed
    const listed = await step('review list', () => review.list(root))
    expect(listed.agents[0].files.find((f) => f.path === 'a.txt')).toMatchObject({ additions: 1, deletions: 1 })
    const fileDiff = await step('review file diff', () => review.file(root, 'a1', 'a.txt'))
    expect(fileDiff).toMatchObject({ oldText: 'one\ntwo\nthree\n', newText: 'one\nTWO\nthree\n' })
    // A second agent changing the same file differently: the conflict preview matrix.
    const a2 = await step('second worktree', () => createAgentWorktree({ repoCwd: root, agentId: 'a2', agentType: 'coder', description: 'two' }))
    writeFileSync(join(a2.path, 'a.txt'), 'one\ntwo\nTHREE!\n')
    writeFileSync(join(a2.path, 'shared.txt'), 'theirs\n')
    await step('second commit', () =>
      finishAgentWorktree({ worktree: { path: a2.path, branch: a2.branch, baseCommit: a2.baseCommit, repoRoot: root }, agentType: 'coder', description: 'two' })
    )
    // A file with the repository's merge driver on both sides: the preview fails closed rather than run it.
    await step('conflict preview', () => review.preview(root).catch((e: unknown) => e))
    // Orphans: a third worktree whose owner is gone.
    await step('worktree for an orphan', () => createAgentWorktree({ repoCwd: root, agentId: 'a3', agentType: 'coder', description: 'three' }))
    const orphans = await step('orphan list', () => findOrphanWorktrees({ repoCwd: root, isLive: () => false }))
    const a3 = orphans.find((o) => o.agentId === 'a3')
    expect(a3).toBeDefined()
    await step('orphan clean', () => cleanupOrphanWorktree(a3!))
    // The sandbox's excludes, and base-ref's fetch (from a trusted setting) through the remote's config.
    await step('git excludes', async () => (await gitExcludesFor(root, [join(root, '.placeholder')], 'x', {})).dispose())
    const fresh = await step('base-ref fetch', () => startPoint(repo, 'fresh'))
    expect(fresh.ref).toBe('origin/main')
    // The CLI, as a person runs it.
    const cli = async (args: string[]) => {
      const r = await runCli(['worktrees', ...args, '--cwd', root], { env: { HOME: home, FANOUT_DATA_DIR: join(tmp, 'data') } })
      return r
    }
    const list = await step('fanout worktrees list', () => cli(['list']))
    expect(list.code, list.stderr).toBe(0)
    const diff = await step('fanout worktrees diff', () => cli(['diff']))
    expect(diff.code, diff.stderr).toBe(0)
    expect(diff.stdout).toContain('+TWO')
    const preview = await step('fanout worktrees preview', () => cli(['preview']))
    // a.txt carries the repository's merge driver on both branches: the preview says it cannot, runs nothing.
    expect(preview.stdout + preview.stderr).not.toBe('')
    const merged = await step('fanout worktrees merge', () => cli(['merge', 'a1']))
    expect(merged.code, merged.stdout + merged.stderr).toBe(0)
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n')
    expect(readFileSync(join(root, 'new.md'), 'utf8')).toBe('# new\n')
    expect(await g(root, 'status', '--porcelain', '--untracked-files=no')).toBe('')
    // The second agent's edit of the same lines now conflicts; its merge driver is the repository's: not run.
    const conflicted = await step('review merge (conflicting)', () => review.merge(root, { agents: ['a2'], strategy: 'merge' }).catch((e) => e))
    expect(conflicted).toBeDefined()
    expect(await g(root, 'status', '--porcelain', '--untracked-files=no')).toBe('')
    const discarded = await step('fanout worktrees discard', () => cli(['discard', 'a2', '--yes']))
    expect(discarded.code, discarded.stdout + discarded.stderr).toBe(0)
    await step('review discard (gone)', () => review.discard(root, 'a2').catch((e) => e))
    // Plain runner calls of the families that read history: log with signatures, show, diff.
    await step('log/show/diff', async () => {
      await runGit(root, ['log', '-p', '-3'])
      await runGit(root, ['show', 'HEAD'])
      await tryGit(root, ['diff', 'HEAD~1'])
    })
    const keys = Object.keys(KEYS).length + Object.keys(INCLUDED).length + HOOKS.length * 2 + 4
    expect(fired()).toEqual([])
    console.log(`hostile repo: ${keys} keys × ${entry.length} entry points, ${fired().length} programs run`)
  }, 240_000)

  it('a session opened in it, with a worktree agent that writes and is auto-committed: 0 programs run', async () => {
    const project = hostileRepo('session-repo')
    const f = await makeFixture(
      [
        scriptedAgent('coder', 'You are the coder', [reply.toolUse('Write', { file_path: 'feature.txt', content: 'feature\n' }), reply.text('Done.')]),
        mainAgent([reply.toolUse('Agent', { description: 'Write feature', prompt: 'Write it.', subagent_type: 'coder' }), reply.text('ok')])
      ],
      {
        root: realpathSync(mkdtempSync(join(tmpdir(), 'fanout-hostile-session-'))),
        cwd: project,
        permissionMode: 'bypassPermissions',
        files: { '.claude/agents/coder.md': '---\nname: coder\ndescription: Writes code\ntools: Write\nisolation: worktree\n---\nYou are the coder.' }
      }
    )
    await f.session.run('Write the feature.')
    const agent = starts(f.events).find((e) => e.agentType === 'coder')
    expect(agent?.worktree?.branch).toMatch(/^fanout\//)
    expect(await g(project, 'show', `${agent!.worktree!.branch}:feature.txt`)).toBe('feature')
    expect(fired()).toEqual([])
  }, 120_000)

  it("a submodule's own config (another .git/modules/*/config) runs nothing when Fanout's git looks at the checkout", async () => {
    const sub = join(tmp, 'sub-origin')
    mkdirSync(sub)
    plainGit(sub, 'init', '-q')
    writeFileSync(join(sub, 'f.txt'), 'x\n')
    writeFileSync(join(sub, '.gitattributes'), '* filter=subf diff=subf\n')
    plainGit(sub, 'add', '-A')
    plainGit(sub, '-c', 'user.name=a', '-c', 'user.email=b', 'commit', '-q', '-m', 's')
    const top = join(tmp, 'with-submodule')
    mkdirSync(top)
    plainGit(top, 'init', '-q')
    plainGit(top, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'sub')
    writeFileSync(join(top, '.gitmodules'), `${readFileSync(join(top, '.gitmodules'), 'utf8')}\tignore = none\n`)
    plainGit(top, '-c', 'user.name=a', '-c', 'user.email=b', 'commit', '-q', '-am', 't')
    const modules = join(top, '.git', 'modules', 'sub', 'config')
    plainGit(top, 'config', '--file', modules, 'filter.subf.clean', mark('submodule-clean'))
    plainGit(top, 'config', '--file', modules, 'diff.subf.textconv', mark('submodule-textconv'))
    plainGit(top, 'config', '--file', modules, 'core.fsmonitor', script(join(tmp, 'sub-fsmonitor'), 'submodule-fsmonitor'))
    writeFileSync(join(top, 'sub', 'f.txt'), 'changed\n')
    writeFileSync(join(top, 'top.txt'), 'top\n')
    for (const args of [
      ['status', '--porcelain'],
      ['diff', 'HEAD', '--stat'],
      ['add', '-A'],
      ['update-index', '-q', '--refresh']
    ]) {
      await runGit(top, args)
      expect(fired(), `after git ${args.join(' ')}`).toEqual([])
    }
    expect(await runGit(top, ['diff', '--cached', '--name-only'])).toBe('top.txt')
    expect(fired()).toEqual([])
  })

  it('from a subfolder too: the files git names relative to the top are found, conditional includes neutralised', async () => {
    // git reports the config files it read relative to the top of the checkout, wherever it was started; a
    // runner that read them relative to its own folder would miss the includes that hold only where git goes next.
    const sub = join(root, 'sub', 'deeper')
    mkdirSync(sub, { recursive: true })
    const path = join(tmp, 'from-subfolder')
    await runGit(sub, ['worktree', 'add', '-b', 'fanout/from-subfolder', path, 'HEAD'])
    expect(readFileSync(join(path, 'b.txt'), 'utf8')).toBe('bee\n')
    writeFileSync(join(path, 'b.txt'), 'bee two\n')
    await runGit(join(path), ['add', '-A'])
    expect(await runGit(sub, ['diff', 'HEAD', '--stat'])).toBe('')
    expect(fired()).toEqual([])
  })

  it('a core.worktree that leads out of the checkout is refused, not followed', async () => {
    const r = join(tmp, 'redirect')
    mkdirSync(r)
    plainGit(r, 'init', '-q')
    plainGit(r, 'config', 'core.worktree', '../..') // relative to .git: the folder above the checkout
    await expect(runGit(r, ['status'])).rejects.toThrow(/core\.worktree.*outside its checkout/)
    expect(await tryGit(r, ['add', '-A'])).toBeNull()
  })

  it("the person's own ~/.gitconfig filter still runs (trusted), the repository's never does", async () => {
    const r = join(tmp, 'lfs-like')
    mkdirSync(r)
    plainGit(r, 'init', '-q')
    writeFileSync(join(r, '.gitattributes'), '*.big filter=mine\n*.bad filter=theirs\n')
    writeFileSync(join(home, '.gitconfig'), `[filter "mine"]\n\tclean = tr a-z A-Z\n[user]\n\tname = P\n\temail = p@example.com\n`)
    plainGit(r, 'config', 'filter.theirs.clean', mark('theirs-clean'))
    writeFileSync(join(r, 'x.big'), 'small\n')
    writeFileSync(join(r, 'y.bad'), 'kept\n')
    await runGit(r, ['add', '-A'])
    await runGit(r, ['commit', '-m', 'x'])
    expect(await g(r, 'show', 'HEAD:x.big')).toBe('SMALL')
    expect(await g(r, 'show', 'HEAD:y.bad')).toBe('kept')
    // The repository overriding the person's own driver is the repository's again.
    plainGit(r, 'config', 'filter.mine.clean', mark('override-clean'))
    writeFileSync(join(r, 'x.big'), 'again\n')
    await runGit(r, ['add', '-A'])
    expect(fired()).toEqual([])
    rmSync(join(home, '.gitconfig'))
  })
})
