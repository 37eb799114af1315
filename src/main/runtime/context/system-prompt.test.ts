import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildSystemPrompt, environmentDetails, loadAgentMemory, loadClaudeMd, loadSkills, type EnvironmentInput } from './index'
import { makeTempTree, type TempTree } from './testing/temp-tree'

const env: EnvironmentInput = {
  cwd: '/work/project',
  isGitRepo: true,
  branch: 'main',
  platform: 'linux',
  date: '2026-03-14',
  model: 'claude-sonnet-4-5'
}

describe('environmentDetails', () => {
  it('states the working directory, git, platform, date and model', () => {
    expect(environmentDetails(env)).toBe(
      [
        'Working directory: /work/project',
        'Git repository: yes, on branch main',
        'Platform: linux',
        "Today's date: 2026-03-14",
        'Model: claude-sonnet-4-5'
      ].join('\n')
    )
  })

  it('covers detached HEAD, no repository, and a Date in local time', () => {
    expect(environmentDetails({ ...env, branch: null })).toContain('Git repository: yes, detached HEAD')
    expect(environmentDetails({ ...env, isGitRepo: false })).toContain('Git repository: no')
    expect(environmentDetails({ ...env, date: new Date(2026, 0, 5, 23, 30) })).toContain("Today's date: 2026-01-05")
  })

  it('tells an agent in a worktree where it is and which branch gets its changes', () => {
    const text = environmentDetails({
      ...env,
      cwd: '/w/.fanout-worktrees/project/a1',
      branch: 'fanout/a1',
      worktree: { path: '/w/.fanout-worktrees/project/a1', branch: 'fanout/a1', baseCommit: '0123456789abcdef0123', repoRoot: '/w/project' }
    })
    expect(text).toContain('isolated git worktree at /w/.fanout-worktrees/project/a1, created from commit 0123456789ab of /w/project')
    expect(text).toContain('committed to the branch fanout/a1')
    expect(text).toContain('Uncommitted changes in the original checkout are not present')
  })
})

describe('buildSystemPrompt', () => {
  let t: TempTree
  beforeEach(() => {
    t = makeTempTree()
  })
  afterEach(() => t.cleanup())

  async function parts() {
    t.write(join(t.home, '.claude/CLAUDE.md'), 'Always answer in English.')
    t.write(join(t.repo, 'CLAUDE.md'), 'Run npm test before finishing.')
    t.write(join(t.home, '.claude/agent-memory/reviewer/MEMORY.md'), '- reviewed auth module last time')
    t.write(join(t.repo, '.claude/skills/checklist/SKILL.md'), '---\nname: checklist\ndescription: Review checklist\n---\nCheck error handling.')
    return {
      claudeMd: await loadClaudeMd({ cwd: t.repo, home: t.home }),
      agentMemory: await loadAgentMemory({ agentType: 'reviewer', scope: 'user', cwd: t.repo, home: t.home }),
      skills: (await loadSkills({ names: ['checklist'], cwd: t.repo, home: t.home })).skills
    }
  }

  it('puts the body first, then CLAUDE.md, memory, skills and environment, each in its own tagged section', async () => {
    const p = await parts()
    const prompt = buildSystemPrompt({ body: '  You review code.\n', environment: env, ...p })
    expect(prompt.startsWith('You review code.\n\n<claude_md>\n')).toBe(true)
    const order = ['<claude_md>', '</claude_md>', '<agent_memory>', '</agent_memory>', '<skills>', '</skills>', '<env>', '</env>'].map((tag) =>
      prompt.indexOf(tag)
    )
    expect(order.every((i) => i > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(prompt).toContain('Always answer in English.')
    expect(prompt).toContain('Run npm test before finishing.')
    expect(prompt).toContain('- reviewed auth module last time')
    expect(prompt).toContain('Check error handling.')
    expect(prompt.endsWith(`<env>\n${environmentDetails(env)}\n</env>`)).toBe(true)
    // Same inputs, same prompt.
    expect(buildSystemPrompt({ body: '  You review code.\n', environment: env, ...p })).toBe(prompt)
  })

  it('leaves CLAUDE.md out when the definition opts out, and omits empty sections', async () => {
    const p = await parts()
    const prompt = buildSystemPrompt({ body: 'Explore.', environment: 'ENV', claudeMd: p.claudeMd, omitClaudeMd: true })
    expect(prompt).toBe('Explore.\n\n<env>\nENV\n</env>')
    expect(prompt).not.toContain('Always answer in English.')
    expect(buildSystemPrompt({ body: 'B', environment: 'ENV', claudeMd: [], skills: [] })).toBe('B\n\n<env>\nENV\n</env>')
  })
})
