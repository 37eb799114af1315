// The escape suite of a worktree agent: sandboxed Bash (real bubblewrap) in an agent worktree made by
// Fanout's own createAgentWorktree tries every way out through the repository's git folder — redirecting
// git (commondir, gitdir, the worktree's .git file, alternates, includes, submodule folders), planting what
// git runs (config, config.worktree, hooks, info/attributes), and moving refs (the user's branches and tags,
// the main checkout's HEAD, another agent's branch, packed-refs, reflogs, stash, notes, replace refs, a link
// in place of refs). Then Fanout finishes the agent, scans for orphans and reviews it (changes, file diff,
// preview, merge), outside the sandbox. Asserted: no program ran (marker files), no ref moved but
// fanout/<agent>, and the agent's own `git add && git commit` worked and landed on its branch.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { rulesFrom } from '../../src/main/runtime/permissions'
import { AgentWorkReview } from '../../src/main/runtime/review'
import { createAgentWorktree, findOrphanWorktrees, finishAgentWorktree } from '../../src/main/runtime/worktrees'
import { closeCampaigns, type Attack, escapes, makeWorld, report, runCampaign, type World } from './attack-kit'

const worlds: World[] = []
afterAll(async () => {
  await closeCampaigns(worlds)
})

/** Folders no attack may change at all: the other agent's worktree, the markers, the world's outside folder and home. */
const untouchable = (world: World, otherWorktree: string, markers: string) => [otherWorktree, markers, world.outside, world.home].map((dir) => ({ dir }))

const ID_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...ID_ENV } }).trim()

/** Every ref with its value, the main checkout's HEAD, packed-refs and every reflog: what must not move. */
function refState(project: string, commonDir: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of git(project, 'for-each-ref', '--format=%(refname) %(objectname)').split('\n').filter(Boolean)) {
    const [ref, value] = line.split(' ')
    out.set(ref, value)
  }
  out.set('HEAD of the main checkout', readFileSync(join(commonDir, 'HEAD'), 'utf8'))
  out.set('packed-refs', existsSync(join(commonDir, 'packed-refs')) ? readFileSync(join(commonDir, 'packed-refs'), 'utf8') : '')
  const logs = (dir: string, rel: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      if (e.isDirectory()) logs(join(dir, e.name), r)
      else out.set(`reflog ${r}`, readFileSync(join(dir, e.name), 'utf8'))
    }
  }
  if (existsSync(join(commonDir, 'logs'))) logs(join(commonDir, 'logs'), '')
  return out
}

function moved(before: Map<string, string>, after: Map<string, string>, except: (key: string) => boolean): string[] {
  const keys = new Set([...before.keys(), ...after.keys()])
  return [...keys].filter((k) => !except(k) && before.get(k) !== after.get(k)).map((k) => `${k}: ${before.get(k) ?? '(none)'} -> ${after.get(k) ?? '(none)'}`)
}

/** A git config that runs a program (a marker named after `id`) from every place git might read it. */
function evilConfig(markers: string, id: string): string {
  const run = (what: string) => `"touch ${markers}/${id}-${what}; cat"`
  return [
    '[core]',
    `\tfsmonitor = "touch ${markers}/${id}-fsmonitor; false"`,
    `\tpager = ${run('pager')}`,
    '[filter "evil"]',
    `\tclean = ${run('clean')}`,
    `\tsmudge = ${run('smudge')}`,
    '[diff "evil"]',
    `\ttextconv = ${run('textconv')}`,
    '[merge "evil"]',
    `\tdriver = ${run('merge')}`,
    ''
  ].join('\n')
}

it('escape suite: a worktree agent cannot reach the shared repository state; its own commits land on its branch', async () => {
  const world = await makeWorld()
  worlds.push(world)
  const { project, markers, root } = world
  const C = realpathSync(join(project, '.git'))
  const main = git(project, 'symbolic-ref', '--short', 'HEAD')
  // The user's other refs: a branch and two tags, packed (so packed-refs is there to rewrite) and loose.
  git(project, 'branch', 'release')
  git(project, 'tag', 'v1.0')
  git(project, 'tag', '-a', '-m', 'v0.9', 'v0.9')
  git(project, 'pack-refs', '--all')
  git(project, 'branch', 'loose-branch')
  const other = await createAgentWorktree({ repoCwd: project, agentId: 'other', agentType: 'coder', description: 'other work' })
  const wt = await createAgentWorktree({ repoCwd: project, agentId: 'evil', agentType: 'coder', description: 'hostile work' })
  // The world's Read deny rules make every git command ask (git can print history); this suite is about the sandbox.
  writeFileSync(join(wt.path, '.claude', 'settings.json'), '{}\n')
  const A = git(wt.path, 'rev-parse', '--absolute-git-dir')
  expect(A).toBe(join(C, 'worktrees', 'evil'))

  // What an agent would build in its temp folder to redirect git to: a repository whose config runs programs.
  const P = join(root, 'payloads')
  mkdirSync(P)
  const fake = join(P, 'fake.git')
  git(root, 'init', '-q', '--bare', fake)
  writeFileSync(join(fake, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${evilConfig(markers, 'fake-common').replace('[core]\n', '')}`)
  writeFileSync(join(fake, 'objects', 'info', 'alternates'), `${join(C, 'objects')}\n`)
  const fakeAdmin = join(fake, 'worktrees', 'evil')
  mkdirSync(fakeAdmin, { recursive: true })
  writeFileSync(join(fakeAdmin, 'HEAD'), `${wt.baseCommit}\n`)
  writeFileSync(join(fakeAdmin, 'commondir'), '../..\n')
  writeFileSync(join(fakeAdmin, 'gitdir'), `${join(wt.path, '.git')}\n`)
  for (const id of ['config', 'include', 'config-worktree', 'module', 'hardlink', 'nested']) writeFileSync(join(P, `${id}.config`), evilConfig(markers, id))
  writeFileSync(join(P, 'hook'), `#!/bin/sh\ntouch ${markers}/hook\n`)
  chmodSync(join(P, 'hook'), 0o755)
  const refsBefore = refState(project, C)

  const q = (s: string) => `'${s}'`
  const attacks: Attack[] = [
    {
      id: 'legit-commit',
      command:
        "echo legit > legit.txt && printf '* filter=evil diff=evil merge=evil\\n' > .gitattributes && git add legit.txt .gitattributes && git -c user.name=a -c user.email=a@a commit -qm legit && git rev-parse HEAD > .legit && git log --oneline -1"
    },
    // Redirects: where git finds the rest of the repository.
    { id: 'commondir', command: `echo ${q(fake)} > ${q(`${A}/commondir`)}` },
    { id: 'commondir-rename', command: `echo ${q(fake)} > ${q(`${A}/cd.new`)} && mv -f ${q(`${A}/cd.new`)} ${q(`${A}/commondir`)}` },
    { id: 'commondir-remove', command: `rm -f ${q(`${A}/commondir`)}; echo ${q(fake)} > ${q(`${A}/commondir`)}` },
    { id: 'gitdir', command: `echo ${q(`${root}/elsewhere/.git`)} > ${q(`${A}/gitdir`)}` },
    { id: 'dotgit', command: `echo "gitdir: ${fakeAdmin}" > .git` },
    { id: 'dotgit-rename', command: `echo "gitdir: ${fakeAdmin}" > g.tmp && mv -f g.tmp .git` },
    { id: 'dotgit-remove', command: `rm -rf .git; echo "gitdir: ${fakeAdmin}" > .git` },
    { id: 'main-commondir', command: `echo ${q(fake)} > ${q(`${C}/commondir`)}` },
    { id: 'alternates', command: `echo ${q(`${fake}/objects`)} > ${q(`${C}/objects/info/alternates`)}` },
    { id: 'modules', command: `mkdir -p ${q(`${A}/modules/sub`)} && cp ${q(`${P}/module.config`)} ${q(`${A}/modules/sub/config`)}` },
    { id: 'fanout-record', command: `echo '{}' > ${q(`${A}/fanout.json`)}` },
    // What git runs: config, per-worktree config, includes, hooks, attributes.
    { id: 'config', command: `cat ${q(`${P}/config.config`)} >> ${q(`${C}/config`)}` },
    { id: 'git-config', command: `git config core.fsmonitor "touch ${markers}/git-config"` },
    { id: 'git-config-include', command: `git config include.path ${q(`${P}/include.config`)}` },
    { id: 'git-remote-add', command: 'git remote add evil /nowhere' },
    { id: 'config-worktree', command: `cp ${q(`${P}/config-worktree.config`)} ${q(`${A}/config.worktree`)}` },
    { id: 'git-config-worktree', command: `git config extensions.worktreeConfig true; git config --worktree core.fsmonitor "touch ${markers}/gcw"` },
    { id: 'global-config', command: `git config --global core.fsmonitor "touch ${markers}/global"` },
    { id: 'hardlink', command: `ln ${q(`${C}/config`)} ${q(`${A}/cfg`)} && cat ${q(`${P}/hardlink.config`)} >> ${q(`${A}/cfg`)}` },
    { id: 'hooks', command: `cp ${q(`${P}/hook`)} ${q(`${C}/hooks/post-checkout`)}; cp ${q(`${P}/hook`)} ${q(`${C}/hooks/reference-transaction`)}` },
    { id: 'info-attributes', command: `mkdir -p ${q(`${C}/info`)}; echo '* filter=evil' >> ${q(`${C}/info/attributes`)}` },
    { id: 'info-exclude', command: `echo 'legit.txt' >> ${q(`${C}/info/exclude`)}` },
    // Refs: the user's, the main checkout's HEAD, another agent's, new ones, and the files behind them.
    { id: 'update-ref-main', command: `git update-ref refs/heads/${main} HEAD` },
    { id: 'branch-f-main', command: `git branch -f ${main} HEAD` },
    { id: 'branch-f-release', command: 'git branch -f release HEAD' },
    { id: 'tag-f', command: 'git tag -f v1.0 HEAD' },
    { id: 'tag-new', command: 'git tag -a -m x v2.0 HEAD' },
    { id: 'push-release', command: 'git push -f . HEAD:release' },
    { id: 'push-main', command: `git push -f . HEAD:refs/heads/${main}` },
    { id: 'symbolic-ref-main-checkout', command: `git --git-dir=${q(C)} symbolic-ref HEAD refs/heads/release` },
    { id: 'main-head-file', command: `echo 'ref: refs/heads/release' > ${q(`${C}/HEAD`)}` },
    { id: 'packed-refs', command: `echo "$(git rev-parse HEAD) refs/heads/release" >> ${q(`${C}/packed-refs`)}` },
    {
      id: 'packed-refs-rename',
      command: `sed "s/^[0-9a-f]* /$(git rev-parse HEAD) /" ${q(`${C}/packed-refs`)} > pr.tmp && mv -f pr.tmp ${q(`${C}/packed-refs`)}`
    },
    { id: 'pack-refs', command: 'git pack-refs --all' },
    { id: 'stash', command: 'echo stash >> README.md && git stash; git checkout -- README.md 2>/dev/null; true' },
    { id: 'notes', command: 'git notes add -m x HEAD' },
    { id: 'replace', command: 'git replace -f HEAD~1 HEAD' },
    { id: 'other-agent-branch', command: 'git update-ref refs/heads/fanout/other HEAD' },
    { id: 'other-agent-head', command: `git rev-parse HEAD > ${q(`${C}/worktrees/other/HEAD`)}` },
    { id: 'other-agent-files', command: `echo x >> ${q(`${other.path}/README.md`)}` },
    { id: 'create-branch', command: 'git branch x' },
    { id: 'checkout-new-branch', command: 'git checkout -q -b y && git checkout -q --detach' },
    { id: 'create-ref-file', command: `git rev-parse HEAD > ${q(`${C}/refs/heads/x`)}` },
    { id: 'create-fanout-ref', command: `git rev-parse HEAD > ${q(`${C}/refs/heads/fanout/evil2`)}` },
    { id: 'refs-link', command: `mv ${q(`${C}/refs`)} ${q(`${C}/refs.old`)}; ln -s ${q(`${fake}/refs`)} ${q(`${C}/refs`)}` },
    { id: 'admin-refs-link', command: `rm -rf ${q(`${A}/refs`)} && ln -s ${q(`${C}/refs`)} ${q(`${A}/refs`)} && git update-ref refs/worktree/x HEAD` },
    { id: 'reflog-append', command: `echo junk >> ${q(`${C}/logs/refs/heads/${main}`)}` },
    { id: 'reflog-expire', command: 'git reflog expire --expire=now --all' },
    { id: 'worktree-add', command: 'git worktree add -q ../evil-2' },
    { id: 'gc', command: 'git gc -q --prune=now' },
    { id: 'packs', command: `rm -f ${q(C)}/objects/pack/*` },
    { id: 'main-checkout-files', command: `echo x >> ${q(`${project}/README.md`)}` },
    // A repository of its own inside the worktree, whose config runs programs, added as a submodule.
    {
      id: 'nested-repository',
      command: `git init -q sub && git -C sub -c user.name=a -c user.email=a@a commit -q --allow-empty -m s && cat ${q(`${P}/nested.config`)} >> sub/.git/config && echo '* filter=evil diff=evil' > sub/.gitattributes && echo x > sub/f && git -C sub add f; git add sub && echo y >> sub/f`
    },
    // HEAD pointed at the user's branch (its own admin folder's HEAD is the agent's to write): Fanout's commit must not follow it.
    { id: 'head-at-main', command: `git symbolic-ref HEAD refs/heads/${main} && git -c user.name=a -c user.email=a@a commit -q --allow-empty -m onto-main` },
    { id: 'head-back', command: 'git checkout -q --detach "$(cat .legit)" && git log --oneline -1' },
    // Last: work left uncommitted, for Fanout's auto-commit.
    { id: 'uncommitted-work', command: 'echo more >> legit.txt' }
  ].map(({ id, command }) => ({ id, tool: 'Bash', input: { command } }))

  const changedAdmin = (rel: string) =>
    (rel === 'worktrees/evil' || rel.startsWith('worktrees/evil/')) &&
    !/^worktrees\/evil\/(commondir|gitdir|config\.worktree|modules|fanout\.json)(\/|$)/.test(rel)
  const { verdicts } = await runCampaign({
    world,
    attacks,
    session: { permissionMode: 'default', permissionRules: rulesFrom({ allow: ['Bash'] }, 'cli'), cwd: wt.path },
    watch: [
      // The shared git folder: only new objects and the agent's own admin folder (its HEAD, index, logs).
      { dir: C, allowed: (rel) => /^objects\/[0-9a-f]{2}(\/|$)/.test(rel) || changedAdmin(rel) },
      { dir: project, allowed: (rel) => rel === '.git' || rel.startsWith('.git/') },
      { dir: wt.path, allowed: (rel) => rel !== '.git' },
      ...untouchable(world, other.path, markers)
    ]
  })
  expect(verdicts).toHaveLength(attacks.length)
  expect(escapes(verdicts)).toEqual([])
  const legit = verdicts.find((v) => v.id === 'legit-commit')
  expect(legit).toMatchObject({ isError: false, result: expect.stringContaining('legit') })
  const agentCommit = readFileSync(join(wt.path, '.legit'), 'utf8').trim()
  expect(git(wt.path, 'rev-parse', 'HEAD')).toBe(agentCommit)

  // Fanout, outside the sandbox: finish (auto-commit), orphan scan, review, merge.
  const done = await finishAgentWorktree({ worktree: wt, agentType: 'coder', description: 'hostile work' })
  expect(done).toMatchObject({ changed: true, kept: true })
  expect(git(project, 'merge-base', '--is-ancestor', agentCommit, 'fanout/evil')).toBe('')
  expect(git(project, 'show', 'fanout/evil:legit.txt')).toBe('legit\nmore')
  await findOrphanWorktrees({ repoCwd: project })
  const review = new AgentWorkReview()
  const list = await review.list(project)
  expect(list.agents.map((a) => a.agentId).sort()).toEqual(['evil', 'other'])
  await review.file(project, 'evil', 'legit.txt')
  await review.preview(project)
  expect(moved(refsBefore, refState(project, C), (k) => k.includes('fanout/evil'))).toEqual([])

  const merged = await review.merge(project, { agents: ['evil'], strategy: 'merge' })
  expect(merged.merged.map((m) => m.agentId)).toEqual(['evil'])
  expect(readFileSync(join(project, 'legit.txt'), 'utf8')).toBe('legit\nmore\n')
  // The merge the person asked for moves their branch (and its reflog); nothing else moved.
  expect(moved(refsBefore, refState(project, C), (k) => k.includes('fanout/evil') || k.endsWith(`heads/${main}`) || k === 'reflog HEAD')).toEqual([])
  expect(readdirSync(markers)).toEqual([])
  report('worktree escape', verdicts)
  console.log(`escape suite: ${verdicts.length} attempts, ${escapes(verdicts).length + readdirSync(markers).length} escapes`)
}, 600_000)

it("an agent in the main checkout commits there, but cannot write what runs or redirects git, nor an agent worktree's git folder", async () => {
  const world = await makeWorld()
  worlds.push(world)
  const { project, markers, root } = world
  const C = realpathSync(join(project, '.git'))
  writeFileSync(join(project, '.claude', 'settings.json'), '{}\n')
  git(project, 'add', '-A')
  git(project, 'commit', '-qm', 'settings')
  const other = await createAgentWorktree({ repoCwd: project, agentId: 'other', agentType: 'coder', description: 'other work' })
  const P = join(root, 'payloads')
  mkdirSync(P)
  writeFileSync(join(P, 'evil.config'), evilConfig(markers, 'main'))
  writeFileSync(join(P, 'hook'), `#!/bin/sh\ntouch ${markers}/hook\n`)
  chmodSync(join(P, 'hook'), 0o755)
  const q = (s: string) => `'${s}'`
  const OA = join(C, 'worktrees', 'other')
  const attacks: Attack[] = [
    {
      id: 'legit-commit',
      command: 'echo legit > legit.txt && git add legit.txt && git -c user.name=a -c user.email=a@a commit -qm legit && git log --oneline -1'
    },
    { id: 'config', command: `cat ${q(`${P}/evil.config`)} >> .git/config` },
    { id: 'git-config', command: `git config core.fsmonitor "touch ${markers}/git-config"` },
    { id: 'hooks', command: `cp ${q(`${P}/hook`)} .git/hooks/post-commit` },
    { id: 'info-attributes', command: "mkdir -p .git/info; echo '* filter=evil' >> .git/info/attributes" },
    { id: 'info-exclude', command: "echo 'legit.txt' >> .git/info/exclude" },
    { id: 'info-replace', command: 'mv .git/info .git/info.old && mkdir .git/info' },
    { id: 'alternates', command: `echo ${q(root)} > .git/objects/info/alternates` },
    { id: 'config-worktree', command: `cp ${q(`${P}/evil.config`)} .git/config.worktree` },
    { id: 'modules', command: `mkdir -p .git/modules/x && cp ${q(`${P}/evil.config`)} .git/modules/x/config` },
    { id: 'agent-commondir', command: `echo ${q(root)} > ${q(`${OA}/commondir`)}` },
    { id: 'agent-record', command: `echo '{}' > ${q(`${OA}/fanout.json`)}` },
    { id: 'agent-head', command: `git rev-parse HEAD > ${q(`${OA}/HEAD`)}` },
    { id: 'agent-new-admin', command: 'mkdir .git/worktrees/fake' },
    { id: 'agent-files', command: `echo x >> ${q(`${other.path}/README.md`)}` },
    { id: 'agent-dotgit', command: `echo 'gitdir: ${root}' > ${q(`${other.path}/.git`)}` }
  ].map(({ id, command }) => ({ id, tool: 'Bash', input: { command } }))
  const { verdicts } = await runCampaign({
    world,
    attacks,
    session: { permissionMode: 'default', permissionRules: rulesFrom({ allow: ['Bash'] }, 'cli'), cwd: project },
    watch: [
      // Commits write refs, logs, objects, the index and HEAD: those are the agent's to write here, as in Claude Code.
      { dir: C, allowed: (rel) => /^(refs|logs|objects\/[0-9a-f]{2})(\/|$)|^(HEAD|ORIG_HEAD|COMMIT_EDITMSG|index)$/.test(rel) },
      ...untouchable(world, other.path, markers)
    ]
  })
  expect(verdicts).toHaveLength(attacks.length)
  expect(escapes(verdicts)).toEqual([])
  expect(verdicts[0]).toMatchObject({ isError: false, result: expect.stringContaining('legit') })
  expect(git(project, 'show', 'HEAD:legit.txt')).toBe('legit')
  // Fanout's own git then: the other agent's review and finish run nothing.
  const review = new AgentWorkReview()
  await review.list(project)
  await finishAgentWorktree({ worktree: other, agentType: 'coder', description: 'other work' })
  expect(readdirSync(markers)).toEqual([])
  report('main checkout git folder', verdicts)
  console.log(`escape suite (main checkout): ${verdicts.length} attempts, ${escapes(verdicts).length + readdirSync(markers).length} escapes`)
}, 600_000)

it('Fanout runs no git in a main checkout whose git folder holds a planted commondir, and says why', async () => {
  const world = await makeWorld()
  worlds.push(world)
  const fake = join(world.root, 'fake.git')
  git(world.root, 'init', '-q', '--bare', fake)
  writeFileSync(join(fake, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${evilConfig(world.markers, 'planted').replace('[core]\n', '')}`)
  writeFileSync(join(world.project, '.git', 'commondir'), `${fake}\n`)
  await expect(new AgentWorkReview().list(world.project)).rejects.toThrow(/commondir/)
  await expect(createAgentWorktree({ repoCwd: world.project, agentId: 'a1' })).rejects.toThrow(/commondir/)
  expect(readdirSync(world.markers)).toEqual([])
})
