// RequestMerge through a real session: an isolated agent writes a file in its worktree, then the main agent
// asks to merge its branch. The request always reaches the person's permission queue — in bypassPermissions
// mode too — and nothing is merged until they allow it; a denial, a headless run or plan mode merge nothing.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { PermissionMode } from '../../../../shared/agent-definition'
import type { PermissionRequestEvent, ToolEndEvent } from '../../../../shared/events'
import { reply, type ParsedRequest } from '../../model/scripted'
import { AgentWorkReview } from '../../review'
import { createRequestMergeTool } from './request-merge-tool'
import { closeFixtures, tempRepo, makeFixture, starts, waitForEvent } from '../testing/session-fixture'
import { mainAgent } from '../testing/scripted-agents'
import { runTool } from '../../tool-call/execute'

afterEach(closeFixtures)

const WRITER = `---
name: writer
description: Writes notes
tools: Write
isolation: worktree
permissionMode: acceptEdits
---
You are the writer.`

const agentIdIn = (req: ParsedRequest) => /agentId: (a[0-9a-f]{16})/.exec(req.toolResults[0].content)![1]

async function session(mode: PermissionMode, opts: { headless?: boolean; baseRef?: 'fresh' } = {}) {
  const r = tempRepo()
  const mergeResults: string[] = []
  const f = await makeFixture(
    [
      {
        name: 'writer',
        match: 'You are the writer',
        turns: [reply.toolUse('Write', { file_path: 'notes.md', content: '# notes from the writer\n' }), reply.text('Wrote notes.md.')]
      },
      mainAgent([
        reply.toolUse('Agent', { description: 'Write notes', prompt: 'Write the notes.', subagent_type: 'writer' }),
        (req) => reply.toolUse('RequestMerge', { agents: [agentIdIn(req)], reason: 'The notes are written and checked.' }),
        (req) => {
          mergeResults.push(req.toolResults[0].content)
          return reply.text('Done.')
        }
      ])
    ],
    // The writer's own acceptEdits mode is the folder's grant: the folder is approved (trust/ withholds it otherwise).
    { root: r.sandbox, cwd: r.root, permissionMode: mode, headless: opts.headless === true, trustProject: true, files: { '.claude/agents/writer.md': WRITER } }
  )
  // The agent file is the project's: commit it, so the checkout is clean for the merge.
  r.commitAll('writer agent')
  return { r, f, mergeResults }
}

const request = (f: Awaited<ReturnType<typeof session>>['f']) =>
  waitForEvent<PermissionRequestEvent>(f.session, f.events, (e) => e.type === 'permission_request' && e.toolName === 'RequestMerge')

describe('RequestMerge', () => {
  it('asks the person even in bypassPermissions mode, saying what would be merged; allowed, it merges the branch', async () => {
    const { r, f, mergeResults } = await session('bypassPermissions')
    const run = f.session.run('Write notes, then land them.')
    const asked = await request(f)
    const writer = starts(f.events).find((e) => e.agentType === 'writer')!
    expect(asked.reason).toBe(
      `Merge writer ${writer.agentId} (fanout/${writer.agentId}: 1 file, +1 −0) into main (merge commits). The agent says: The notes are written and checked.`
    )
    expect(asked.suggestedRules).toEqual([])
    // Nothing is merged while the question waits.
    expect(existsSync(join(r.root, 'notes.md'))).toBe(false)
    f.session.respondPermission(asked.requestId, 'allow', 'Thanks, ship it')
    await run
    expect(r.read('notes.md')).toBe('# notes from the writer\n')
    expect(r.git('log', '-1', '--format=%s')).toBe(`Merge fanout/${writer.agentId} (writer: Write notes)`)
    expect(r.git('status', '--porcelain')).toBe('')
    expect(mergeResults[0]).toMatch(
      new RegExp(
        `^Merged fanout/${writer.agentId} into main as [0-9a-f]{12} \\(merge commit, 1 file\\); its worktree and branch were removed\\.\n\nThe user allowed this call and said: Thanks, ship it$`
      )
    )
  })

  it('denied, nothing is merged and the branch is kept', async () => {
    const { r, f, mergeResults } = await session('default')
    const run = f.session.run('Write notes, then land them.')
    f.session.respondPermission((await request(f)).requestId, 'deny', 'Wait until I have read the diff')
    await run
    expect(existsSync(join(r.root, 'notes.md'))).toBe(false)
    expect(r.git('branch', '--list', 'fanout/*')).not.toBe('')
    expect(mergeResults[0]).toMatch(/^The person declined the merge; nothing was merged.*\nThe user said: Wait until I have read the diff$/s)
    const end = f.events.find((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === 'RequestMerge')!
    expect(end.isError).toBe(true)
  })

  it('where nobody can answer (headless), it merges nothing and asks nobody', async () => {
    const headless = await session('bypassPermissions', { headless: true })
    await headless.f.session.run('Write notes, then land them.')
    expect(headless.mergeResults[0]).toMatch(/^RequestMerge needs the person's approval and nobody can answer in this run/)
    expect(existsSync(join(headless.r.root, 'notes.md'))).toBe(false)
    expect(headless.f.events.some((e) => e.type === 'permission_request')).toBe(false)
  })

  it('in plan and dontAsk modes it refuses without asking', async () => {
    for (const mode of ['plan', 'dontAsk'] as const) {
      let asked = false
      const tool = createRequestMergeTool({
        cwd: '/nowhere',
        review: new AgentWorkReview(),
        mode: () => mode,
        agentId: async () => undefined,
        consent: async () => ((asked = true), { decision: 'allow' }),
        strategy: async () => 'merge'
      })
      const r = await runTool(tool, { agents: ['a1'], reason: 'ready' }, { signal: new AbortController().signal, agentId: 'main', toolUseId: 't1' })
      expect(r.isError).toBe(true)
      expect(r.content).toContain(mode === 'plan' ? 'not available in plan mode' : 'dontAsk mode')
      expect(asked).toBe(false)
    }
  })

  it('subagents never get it', async () => {
    const { f } = await session('default')
    const run = f.session.run('Write notes, then land them.')
    f.session.respondPermission((await request(f)).requestId, 'deny')
    await run
    const writer = starts(f.events).find((e) => e.agentType === 'writer')!
    expect(writer.tools).not.toContain('RequestMerge')
    expect(starts(f.events).find((e) => e.agentId === f.session.mainAgentId)!.tools).toContain('RequestMerge')
  })

  it('new agent worktrees follow worktree.baseRef from the settings of a trusted project', async () => {
    const r = tempRepo()
    const remote = join(r.sandbox, 'remote.git')
    r.git('init', '--quiet', '--bare', '--initial-branch=main', remote)
    r.git('remote', 'add', 'origin', remote)
    r.git('push', '--quiet', 'origin', 'main')
    const pushed = r.git('rev-parse', 'HEAD')
    mkdirSync(join(r.root, '.claude'), { recursive: true })
    writeFileSync(join(r.root, '.claude', 'settings.json'), JSON.stringify({ worktree: { baseRef: 'fresh' } }))
    r.commitAll('local commit, not pushed')
    const f = await makeFixture(
      [
        { name: 'writer', match: 'You are the writer', turns: [reply.text('Nothing to write.')] },
        mainAgent([reply.toolUse('Agent', { description: 'Look', prompt: 'Look.', subagent_type: 'writer' }), reply.text('Done.')])
      ],
      {
        root: r.sandbox,
        cwd: r.root,
        permissionMode: 'bypassPermissions',
        // "fresh" fetches from the repository's remote: only a trusted folder's settings may ask for it.
        trustProject: true,
        files: { '.claude/agents/writer.md': WRITER.replace('tools: Write', 'tools: Bash') }
      }
    )
    // The writer's worktree (its start event's cwd) starts at the pushed commit, not at the local one.
    const done = f.session.run('Look.')
    const started = await waitForEvent(f.session, f.events, (e) => e.type === 'agent_start' && e.agentType === 'writer')
    const cwd = (started as { cwd: string }).cwd
    expect(r.git('-C', cwd, 'rev-parse', 'HEAD')).toBe(pushed)
    await done
  })
})
