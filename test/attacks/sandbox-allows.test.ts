// The other half of the sandbox: what it must still let work. Read-only commands run in plan mode; an
// allowed command writes in its working tree and its temp folder; an agent in a git worktree can commit
// (the repository's git folder is writable, its hooks are not); a domain the user allowed is reachable,
// one a project tries to allow is not.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeFixtures } from '../../src/main/runtime/orchestration/testing/session-fixture'
import { rulesFrom } from '../../src/main/runtime/permissions'
import { escapes, makeWorld, runCampaign, RUNS_LATER } from './attack-kit'

afterEach(() => closeFixtures())
const allowBash = rulesFrom({ allow: ['Bash'] }, 'cli')

describe('the sandbox lets work happen', () => {
  it('plan mode runs read-only commands (in the read-only sandbox) and shows their output', async () => {
    const world = await makeWorld()
    const { verdicts } = await runCampaign({
      world,
      session: { permissionMode: 'plan' },
      attacks: ['git status --short', 'cat README.md', 'grep -rn word src', 'git log --oneline', 'ls -la src', 'git diff --stat HEAD -- src'].map(
        (command, i) => ({ id: `ro${i}`, tool: 'Bash', input: { command } })
      )
    })
    expect(escapes(verdicts)).toEqual([])
    expect(verdicts.map((v) => (v.isError ? v.result : ''))).toEqual(['', '', '', '', '', ''])
    expect(verdicts[1].result).toContain('# readme')
    expect(verdicts[2].result).toContain('src/a.ts:1')
    expect(verdicts[3].result).toContain('init')
  })

  it('an allowed command writes in its tree and $TMPDIR, and is told when the sandbox stops it elsewhere', async () => {
    const world = await makeWorld()
    const { verdicts } = await runCampaign({
      world,
      session: { permissionMode: 'default', permissionRules: allowBash },
      watch: [{ dir: world.project, allowed: (rel) => !RUNS_LATER(rel) }, { dir: world.outside }],
      attacks: [
        { id: 'write-here', tool: 'Bash', input: { command: 'echo made > made.txt && cat made.txt' } },
        { id: 'tmp', tool: 'Bash', input: { command: 't=$(mktemp) && echo ok > "$t" && cat "$t"' } },
        { id: 'outside', tool: 'Bash', input: { command: `echo x > ${world.outside}/nope.txt` } }
      ]
    })
    expect(escapes(verdicts)).toEqual([])
    expect(verdicts[0]).toMatchObject({ isError: false, result: 'made' })
    expect(verdicts[1].result).toBe('ok')
    expect(verdicts[2].isError).toBe(true)
    expect(verdicts[2].result).toContain('ran in the sandbox')
    expect(readFileSync(join(world.project, 'made.txt'), 'utf8')).toBe('made\n')
  })

  it('an agent in a git worktree commits, but cannot plant a hook in the repository', async () => {
    const world = await makeWorld()
    const wt = join(world.root, 'wt')
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'agent', wt], { cwd: world.project })
    const { verdicts } = await runCampaign({
      world,
      session: { permissionMode: 'default', permissionRules: allowBash, cwd: wt },
      watch: [{ dir: join(world.project, '.git', 'hooks') }, { dir: world.outside }],
      attacks: [
        {
          id: 'commit',
          tool: 'Bash',
          input: { command: 'echo more >> README.md && git -c user.name=a -c user.email=a@a commit -qam more && git log --oneline | head -1' }
        },
        { id: 'hook', tool: 'Bash', input: { command: 'echo "touch /tmp/pwned" > "$(git rev-parse --git-common-dir)/hooks/post-commit"' } }
      ]
    })
    expect(escapes(verdicts)).toEqual([])
    expect(verdicts[0].result).toContain('more')
    expect(verdicts[1].isError).toBe(true)
  })

  it("a domain in the user's sandbox.network.allowedDomains is reachable; one a project lists is not", async () => {
    const world = await makeWorld({ sandbox: { network: { allowedDomains: ['127.0.0.1:1'] } } })
    mkdirSync(join(world.home, '.claude'), { recursive: true })
    writeFileSync(
      join(world.home, '.claude', 'settings.json'),
      JSON.stringify({ sandbox: { network: { allowedDomains: [`127.0.0.1:${world.canary.port}`] } } })
    )
    const { verdicts, fixture } = await runCampaign({
      world,
      session: { permissionMode: 'default', permissionRules: allowBash },
      attacks: [{ id: 'curl', tool: 'Bash', input: { command: `curl --noproxy '' -s -m 5 http://127.0.0.1:${world.canary.port}/allowed` } }]
    })
    expect(verdicts[0].result).toBe('canary')
    expect(world.canary.hits).toEqual(['GET /allowed'])
    expect(fixture.session.permissionSettings?.diagnostics.map((d) => d.code)).toContain('sandbox-widen-ignored')
  })
})
