// An isolated agent restarted after a crash runs in its own worktree, never in the checkout, whatever it was
// doing when Fanout stopped: waiting for a slot (no worktree yet) or running in its worktree. Its launch
// record says it is isolated before it queues; the restart makes or reattaches the worktree first.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentStartEvent } from '../../../../shared/events'
import { reply, type ParsedRequest } from '../../model/scripted'
import { readAgentState } from '../../store'
import { waitUntil } from '../../tools/test-kit'
import { closeFixtures, latch, makeFixture, starts, tempRepo } from '../testing/session-fixture'

afterEach(closeFixtures)

const ISOLATED = ['iso-0', 'iso-1', 'iso-2', 'iso-3']

describe('isolated agents after a crash', () => {
  it('restart in their own worktrees, queued or running, and the checkout stays untouched', { timeout: 120_000 }, async () => {
    const repo = tempRepo()
    const before = repo.read('README.md')
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
                  input: {
                    description: name,
                    prompt: `Task ${name}`,
                    run_in_background: true,
                    ...(name === 'blocker' ? {} : { isolation: 'worktree' })
                  }
                }))
              )
            return reply.text('launched')
          }
          // Before the crash the blocker and the first isolated agent to start hold both slots (that one in its
          // worktree); the other three wait for a slot.
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
    // Queued ones are on disk as isolated before they have a worktree.
    for (const name of ISOLATED.filter((n) => n !== running)) {
      const state = await readAgentState(f.dataDir, s1.sessionId, ids.get(name)!)
      expect(state).toMatchObject({ status: 'queued', isolation: 'worktree', cwd: repo.root })
      expect(state?.worktree).toBeUndefined()
    }
    const copy = await f.crashCopy(s1)
    crashed = true

    const { session: s2, events: events2 } = await f.openSession(s1.sessionId, copy, { limits: { maxConcurrent: 2 }, permissionMode: 'bypassPermissions' })
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
    hold.open()
  })
})
