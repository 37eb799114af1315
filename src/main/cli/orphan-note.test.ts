// The note about leftover worktrees: its git never runs while agents start, yet it is never lost.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../shared/events'
import { EventBus } from '../runtime/orchestration/messaging/event-bus'
import type { OrphanWorktree } from '../runtime/worktrees'
import { waitUntil } from '../runtime/tools/test-kit'
import { orphanNote } from './orphan-note'
import { hostname } from 'node:os'
import { cleanupOrphanWorktree, findOrphanWorktrees, worktreePathFor } from '../runtime/worktrees'
import { killedAdd } from '../runtime/worktrees/testing/killed-add'
import { git, makeTempRepo } from '../runtime/worktrees/testing/temp-repo'

const base = { parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 1 }
const event = (type: string, agentId = 'main'): AgentEvent => ({ ...base, agentId, type }) as unknown as AgentEvent

function setup(found: number, halfMade: Array<'removable' | 'refused'> = []) {
  const bus = new EventBus()
  let looks = 0
  const lines: string[] = []
  const cleaned: string[] = []
  const session = {
    bus,
    findOrphans: async () => {
      looks++
      return [
        ...Array.from({ length: found }, (_, i) => ({ agentId: `kept-${i}` }) as OrphanWorktree),
        ...halfMade.map((kind, i) => ({ agentId: `${kind}-${i}`, halfMade: true }) as OrphanWorktree)
      ]
    },
    cleanupOrphan: async (o: OrphanWorktree) => {
      cleaned.push(o.agentId)
      return o.agentId.startsWith('removable')
        ? { removed: true, branchDeleted: true }
        : { removed: false, branchDeleted: false, reason: 'a file in it was not put there by git' }
    }
  }
  const note = orphanNote(session as never, (line) => lines.push(line))
  return { bus, note, lines, cleaned, looks: () => looks }
}

describe('orphanNote', () => {
  it('does not look while a fan-out starts, only once the agents wait on the model', async () => {
    const { bus, lines, looks } = setup(2)
    bus.emit(event('usage'))
    // Sixteen siblings start, each with its request: no git while they do.
    for (let i = 0; i < 16; i++) {
      bus.emit(event('agent_start', `a${i}`))
      bus.emit(event('model_request', `a${i}`))
      expect(looks()).toBe(0)
    }
    await waitUntil(() => looks() === 1, 'the look, once the agents wait')
    await waitUntil(() => lines.length === 1, 'the note')
    expect(lines[0]).toMatch(/^fanout: 2 agent worktrees were left behind by an earlier run/)
  })

  it('looks at the end of a run too short for a quiet moment, and once only', async () => {
    const { bus, note, lines, looks } = setup(1)
    bus.emit(event('usage'))
    await note.settle()
    expect(looks()).toBe(1)
    expect(lines).toEqual([expect.stringMatching(/^fanout: 1 agent worktree was left behind/)])
    await note.settle()
    bus.emit(event('usage'))
    expect(looks()).toBe(1)
  })

  it('never looks in a run that got no model response (as before)', async () => {
    const { note, looks } = setup(1)
    await note.settle()
    expect(looks()).toBe(0)
  })

  it('removes the worktrees a killed git worktree add left half made, and lists what it could not remove with the rest', async () => {
    // A half-made worktree's placeholder HEAD breaks `git log --all` in the person's repository; it never held work.
    const { bus, note, lines, cleaned } = setup(1, ['removable', 'removable', 'refused'])
    bus.emit(event('usage'))
    await note.settle()
    expect(cleaned).toEqual(['removable-0', 'removable-1', 'refused-2'])
    expect(lines).toEqual([
      'fanout: removed 2 half-made agent worktrees left behind by an earlier run (killed while git was adding them; nothing was in them).\n',
      "fanout: 2 agent worktrees were left behind by an earlier run; see 'fanout worktrees list' and 'fanout worktrees clean'.\n"
    ])
  })

  it('in a real repository: a run killed inside git worktree add leaves git log --all broken; the next run mends it', async () => {
    const r = makeTempRepo()
    try {
      killedAdd(r, 'a1b2c3', worktreePathFor({ mainRoot: r.root, repoName: 'project' }, 'a1b2c3'), 'commondir', {
        recordFor: { pid: 99_999_999, hostname: hostname() }
      })
      expect(() => git(r.root, 'log', '--all', '--oneline')).toThrow(/bad object/)
      const lines: string[] = []
      const bus = new EventBus()
      const session = { bus, findOrphans: () => findOrphanWorktrees({ repoCwd: r.root }), cleanupOrphan: cleanupOrphanWorktree }
      const note = orphanNote(session as never, (line) => lines.push(line))
      bus.emit(event('usage'))
      await note.settle()
      expect(lines).toEqual([expect.stringMatching(/^fanout: removed 1 half-made agent worktree left behind by an earlier run/)])
      expect(git(r.root, 'log', '--all', '--oneline')).toMatch(/initial commit/)
      expect(await findOrphanWorktrees({ repoCwd: r.root })).toEqual([])
    } finally {
      r.cleanup()
    }
  })
})
