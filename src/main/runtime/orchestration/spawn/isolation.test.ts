// Worktree isolation, agent memory and CLAUDE.md through a session, in real git repositories: where an
// isolated agent's files, memory and instructions come from, resuming it in its kept worktree, orphaned
// worktrees at start, and a clear error outside git.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ToolEndEvent } from '../../../../shared/events'
import { reply } from '../../model/scripted'
import { createAgentWorktree } from '../../worktrees'
import type { TempRepo } from '../../worktrees/testing/temp-repo'
import { closeFixtures, tempRepo, latch, makeFixture, starts, waitForEvent } from '../testing/session-fixture'
import { heldUntil, mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

function repo(): TempRepo {
  const r = tempRepo()
  r.write('.gitignore', 'CLAUDE.local.md\n')
  r.write('CLAUDE.md', 'PROJECT RULE: run the tests before you finish.\n')
  r.commitAll('project files')
  // Not committed (git-ignored): a worktree never has it, yet isolated agents must still follow it.
  r.write('CLAUDE.local.md', 'LOCAL RULE: tabs only.\n')
  return r
}

const toolEnds = (events: AgentEvent[], name: string) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)

const ARCHIVIST = `---
name: archivist
description: Writes features and remembers where they are
tools: Grep
memory: project
isolation: worktree
skills: [release-notes]
---
You are the archivist.`

describe('isolated agents', () => {
  it('work in their own worktree with the original checkout’s CLAUDE.md and memory, and resume there with their branch', async () => {
    const r = repo()
    const head = r.git('rev-parse', 'HEAD')
    const memoryFile = join(r.root, '.claude', 'agent-memory', 'archivist', 'MEMORY.md')
    const f = await makeFixture(
      [
        scriptedAgent('archivist', 'You are the archivist', [
          reply.toolUses([
            { name: 'Write', input: { file_path: 'src/feature.ts', content: 'export const feature = 1\n' } },
            { name: 'Write', input: { file_path: memoryFile, content: '- remember: feature lives in src/feature.ts\n' } }
          ]),
          reply.text('Wrote the feature.'),
          reply.toolUse('Read', { file_path: 'src/feature.ts' }),
          (req) =>
            reply.toolUse('Write', {
              file_path: 'src/feature.ts',
              content: `${req.toolResults[0].content.includes('feature = 1') ? 'export const feature = 2' : 'lost'}\n`
            }),
          reply.text('Bumped the feature.')
        ]),
        mainAgent([
          reply.toolUse('Agent', { description: 'Write feature', prompt: 'Write the feature.', subagent_type: 'archivist' }),
          (req) =>
            reply.toolUse('Agent', {
              description: 'Bump feature',
              prompt: 'Bump the feature.',
              resume: /agentId: (a[0-9a-f]{16})/.exec(req.toolResults[0].content)![1]
            }),
          (req) => reply.text(req.toolResults[0].content)
        ])
      ],
      {
        root: r.sandbox,
        cwd: r.root,
        permissionMode: 'bypassPermissions',
        files: {
          '.claude/agents/archivist.md': ARCHIVIST,
          '.claude/skills/release-notes/SKILL.md':
            '---\nname: release-notes\ndescription: How to write release notes\n---\nSKILL BODY: write release notes in past tense.\n'
        }
      }
    )
    const result = await f.session.run('Add a feature, then bump it.')
    const agent = starts(f.events).find((e) => e.agentType === 'archivist')!
    const branch = `fanout/${agent.agentId}`
    expect(agent.worktree?.branch).toBe(branch)
    const worktree = agent.worktree!.path
    expect(worktree.startsWith(r.root)).toBe(false)

    const [first, , resumed] = f.model.server.messageRequests().filter((q) => q.system.includes('You are the archivist'))
    // memory: the file tools come with it, even though its tools list only Grep.
    expect(first.toolNames.sort()).toEqual(['Edit', 'Grep', 'Read', 'Write'])
    expect(first.system).toContain('PROJECT RULE: run the tests before you finish.')
    expect(first.system).toContain('LOCAL RULE: tabs only.')
    expect(first.system).toContain(`persistent memory folder at ${join(r.root, '.claude', 'agent-memory', 'archivist')}`)
    expect(first.system).toContain(`isolated git worktree at ${worktree}`)
    expect(first.system).toContain('SKILL BODY: write release notes in past tense.')
    // Memory landed in the user's project, not on the agent's branch; the second run starts with it loaded.
    expect(readFileSync(memoryFile, 'utf8')).toContain('feature lives in src/feature.ts')
    expect(resumed.system).toContain('- remember: feature lives in src/feature.ts')

    // Its work is on its branch, two commits from the parent's HEAD; the parent's checkout is untouched.
    expect(existsSync(join(r.root, 'src', 'feature.ts'))).toBe(false)
    expect(r.git('rev-parse', 'HEAD')).toBe(head)
    expect(r.git('branch', '--show-current')).toBe('main')
    expect(r.git('show', `${branch}:src/feature.ts`)).toBe('export const feature = 2')
    expect(r.git('log', '--format=%s', `${head}..${branch}`).split('\n')).toEqual(['Agent archivist: Write feature', 'Agent archivist: Write feature'])
    expect(result.result).toMatch(/^Bumped the feature\.[\s\S]*worktree: its changes are on branch fanout\/a[0-9a-f]{16}/)
    expect(toolEnds(f.events, 'Agent').every((e) => !e.isError)).toBe(true)
  })

  it("an isolated agent's own git commit (sandboxed Bash) lands on its branch; moving the user's branch or tag fails", async () => {
    const r = repo()
    r.git('tag', 'v1.0')
    const head = r.git('rev-parse', 'HEAD')
    const f = await makeFixture(
      [
        scriptedAgent('committer', 'You are the committer', [
          reply.toolUse('Bash', {
            command: 'echo mine > mine.txt && git add mine.txt && git -c user.name=a -c user.email=a@a commit -qm mine && git log --format=%s -1'
          }),
          reply.toolUse('Bash', { command: 'git branch -f main HEAD; git tag -f v1.0 HEAD; git push -f . HEAD:refs/heads/main' }),
          reply.text('Committed.')
        ]),
        mainAgent([reply.toolUse('Agent', { description: 'Commit', prompt: 'Commit a file.', subagent_type: 'committer' }), reply.text('done')])
      ],
      {
        root: r.sandbox,
        cwd: r.root,
        permissionMode: 'bypassPermissions',
        files: { '.claude/agents/committer.md': '---\nname: committer\ndescription: Commits\ntools: Bash\nisolation: worktree\n---\nYou are the committer.' }
      }
    )
    await f.session.run('Commit.')
    const agent = starts(f.events).find((e) => e.agentType === 'committer')!
    const branch = `fanout/${agent.agentId}`
    const [commit, hostile] = toolEnds(f.events, 'Bash')
    expect(commit).toMatchObject({ isError: false, output: 'mine' })
    expect(hostile.isError).toBe(true)
    expect(r.git('log', '--format=%s', `${head}..${branch}`)).toBe('mine')
    expect(r.git('rev-parse', 'main')).toBe(head)
    expect(r.git('rev-parse', 'v1.0')).toBe(head)
  })

  it('finds worktrees a crash left behind, never one whose agent is running, and cleans up without losing work', async () => {
    const r = repo()
    const hold = latch()
    const f = await makeFixture(
      [
        scriptedAgent('busy', 'Busy isolated job', [heldUntil(hold, reply.text('done'))]),
        mainAgent([
          reply.toolUse('Agent', { description: 'Busy', prompt: 'Busy isolated job', isolation: 'worktree', run_in_background: true }),
          reply.text('ok'),
          reply.text('ok')
        ])
      ],
      { root: r.sandbox, cwd: r.root }
    )
    // A worktree from an earlier run that crashed, with uncommitted work in it.
    const crashed = await createAgentWorktree({ repoCwd: r.root, agentId: 'a00000000000dead', agentType: 'general-purpose', description: 'Crashed job' })
    mkdirSync(join(crashed.path, 'src'), { recursive: true })
    writeFileSync(join(crashed.path, 'src', 'half-done.ts'), 'export const half = true\n')

    await f.session.run('go')
    const busy = starts(f.events).find((e) => e.agentType === 'general-purpose')
    const busyId = busy?.agentId ?? (await waitForEvent(f.session, f.events, (e) => e.type === 'agent_start' && e.agentType === 'general-purpose')).agentId
    const orphans = await f.session.findOrphans()
    expect(orphans.map((o) => o.agentId)).toEqual(['a00000000000dead'])
    expect(orphans[0]).toMatchObject({ uncommittedChanges: true, branch: 'fanout/a00000000000dead', description: 'Crashed job' })
    expect(orphans.some((o) => o.agentId === busyId)).toBe(false)

    expect(await f.session.cleanupOrphan(orphans[0])).toMatchObject({ removed: false, reason: expect.stringMatching(/uncommitted changes/) })
    const forced = await f.session.cleanupOrphan(orphans[0], { force: true })
    expect(forced).toMatchObject({ removed: true, branchDeleted: false, commit: expect.any(String) })
    expect(r.git('show', 'fanout/a00000000000dead:src/half-done.ts')).toBe('export const half = true')
    expect(existsSync(crashed.path)).toBe(false)
    hold.open()
    await f.session.idle()
  })

  it('isolation outside a git repository is a clear error, in the foreground and in the background', async () => {
    const f = await makeFixture([
      mainAgent([
        reply.toolUses([
          { name: 'Agent', input: { description: 'Isolated', prompt: 'Isolated job', isolation: 'worktree' } },
          { name: 'Agent', input: { description: 'Isolated bg', prompt: 'Isolated job', isolation: 'worktree', run_in_background: true } }
        ]),
        reply.text('ok')
      ])
    ])
    await f.session.run('go')
    const [fg, bg] = toolEnds(f.events, 'Agent')
    for (const e of [fg, bg]) {
      expect(e.isError).toBe(true)
      expect(e.output).toMatch(/^Could not isolate the agent: isolation: worktree needs a git repository; .* is not inside one$/)
    }
    expect(starts(f.events).filter((e) => e.agentId !== f.session.mainAgentId)).toEqual([])
  })
})
