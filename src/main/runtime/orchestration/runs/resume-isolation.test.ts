// An isolated agent restarted after a crash runs in its own worktree, never in the checkout, whatever it was
// doing when Fanout stopped: waiting for a slot (no worktree yet) or running in its worktree. Its launch
// record says it is isolated before it queues; the restart makes or reattaches the worktree first.
import { existsSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentStartEvent } from '../../../../shared/events'
import { reply, type ParsedRequest } from '../../model/scripted'
import { readAgentState } from '../../store'
import { waitUntil } from '../../tools/test-kit'
import type { TempRepo } from '../../worktrees/testing/temp-repo'
import { closeFixtures, latch, makeFixture, starts, tempRepo } from '../testing/session-fixture'

afterEach(closeFixtures)

const ISOLATED = ['iso-0', 'iso-1', 'iso-2', 'iso-3']

/**
 * A session whose main agent starts a blocker and four isolated agents in the background under a cap of two:
 * the blocker and the first isolated agent to start hold both slots (that one in its worktree) until the
 * "crash", the other three wait for a slot. Returns the fixture, the agents' ids and the crash copy.
 */
async function crashWithQueuedAgents(repo: TempRepo) {
  const hold = latch()
  let crashed = false
  const taskOf = (req: ParsedRequest) => /^Task (\S+)$/m.exec(req.firstUserText)?.[1] ?? null
  const wrote = (req: ParsedRequest) => JSON.stringify(req.messages).includes('"name":"Write"')
  const f = await makeFixture(
    {
      respond: async (req) => {
        const task = taskOf(req)
        if (!task) {
          if (req.turn === 0)
            return reply.toolUses(
              ['blocker', ...ISOLATED].map((name) => ({
                name: 'Agent',
                input: { description: name, prompt: `Task ${name}`, run_in_background: true, ...(name === 'blocker' ? {} : { isolation: 'worktree' }) }
              }))
            )
          return reply.text('noted')
        }
        if (!crashed) await hold.wait
        if (task === 'blocker') return reply.text('blocker done')
        if (!wrote(req)) return reply.toolUse('Write', { file_path: `${task}.txt`, content: `${task} was here\n` })
        return reply.text(`${task} done`)
      }
    },
    { cwd: repo.root, limits: { maxConcurrent: 2 }, permissionMode: 'bypassPermissions' }
  )
  const { session: s1, events: events1 } = f
  await s1.run('Fan out.')
  const ids = new Map(s1.registry.all().map((h) => [h.description ?? '', h.id]))
  await waitUntil(() => starts(events1).some((e) => e.worktree), 'an isolated agent running in its worktree')
  const running = ISOLATED.find((name) => starts(events1).some((e) => e.agentId === ids.get(name)))
  const queued = ISOLATED.filter((n) => n !== running)
  const copy = await f.crashCopy(s1)
  crashed = true
  const reopen = () => f.openSession(s1.sessionId, copy, { limits: { maxConcurrent: 2 }, permissionMode: 'bypassPermissions' })
  return { f, s1, ids, queued, copy, reopen, release: hold.open }
}

describe('isolated agents after a crash', () => {
  it('restart in their own worktrees, queued or running, and the checkout stays untouched', { timeout: 120_000 }, async () => {
    const repo = tempRepo()
    const before = repo.read('README.md')
    const { f, s1, ids, queued, reopen, release } = await crashWithQueuedAgents(repo)
    // Queued ones are on disk as isolated before they have a worktree.
    for (const name of queued) {
      const state = await readAgentState(f.dataDir, s1.sessionId, ids.get(name)!)
      expect(state).toMatchObject({ status: 'queued', isolation: 'worktree', cwd: repo.root })
      expect(state?.worktree).toBeUndefined()
    }

    const { session: s2, events: events2 } = await reopen()
    const report = await s2.resumeInterrupted()
    expect(report.problems).toEqual([])
    for (const name of ISOLATED) expect(report.resumed).toContain(ids.get(name))
    await waitUntil(() => ISOLATED.every((name) => events2.some((e) => e.type === 'agent_end' && e.agentId === ids.get(name))), 'every isolated agent ended')
    for (const name of ISOLATED) {
      const id = ids.get(name)!
      const start = starts(events2).find((e): e is AgentStartEvent => e.agentId === id)
      expect(start?.worktree, `${name} ran in a worktree`).toBeDefined()
      expect(start?.cwd.startsWith(repo.root + '/') || start?.cwd === repo.root, `${name} ran outside the checkout`).toBe(false)
      const end = events2.find((e) => e.type === 'agent_end' && e.agentId === id)
      expect(end).toMatchObject({ status: 'completed', worktree: { kept: true } })
      // Its work is on its branch, not in the checkout.
      expect(repo.git('show', `fanout/${id}:${name}.txt`)).toBe(`${name} was here`)
      expect(existsSync(join(repo.root, `${name}.txt`))).toBe(false)
    }
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(repo.read('README.md')).toBe(before)
    release()
  })

  it('whose worktree cannot be made after the restart fail, the main agent is told why, and they never run in the checkout', { timeout: 120_000 }, async () => {
    const repo = tempRepo()
    const { s1, ids, queued, reopen, release } = await crashWithQueuedAgents(repo)
    // The repository is gone from under the checkout (moved away): no worktree can be made from it.
    renameSync(join(repo.root, '.git'), join(repo.sandbox, 'git-away'))
    try {
      const { session: s2, events: events2 } = await reopen()
      await s2.resumeInterrupted()
      const failed = (name: string) =>
        events2.find((e) => e.type === 'status' && e.agentId === ids.get(name) && e.status === 'failed') as { detail?: string } | undefined
      await waitUntil(() => queued.every((name) => failed(name)), 'the queued isolated agents to fail')
      for (const name of queued) {
        expect(failed(name)?.detail).toMatch(/^Could not isolate the agent: isolation: worktree needs a git repository/)
        expect(
          starts(events2).some((e) => e.agentId === ids.get(name)),
          `${name} never ran`
        ).toBe(false)
        expect(existsSync(join(repo.root, `${name}.txt`))).toBe(false)
      }
      // The main agent hears each failure and its reason, as a task notification.
      await waitUntil(
        () =>
          queued.every((name) =>
            events2.some(
              (e) =>
                e.type === 'message_received' &&
                e.agentId === s2.mainAgentId &&
                e.text.includes(ids.get(name)!) &&
                e.text.includes('Could not isolate the agent')
            )
          ),
        'the main agent to be told'
      )
      // Failed is what their state says now: a later restart does not try them again.
      await s2.flush()
      for (const name of queued) expect((await readAgentState(s2.dataDir!, s1.sessionId, ids.get(name)!))?.status).toBe('failed')
    } finally {
      renameSync(join(repo.sandbox, 'git-away'), join(repo.root, '.git'))
      release()
    }
  })
})
