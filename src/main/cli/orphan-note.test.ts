// The note about leftover worktrees: its git never runs while agents start, yet it is never lost.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../shared/events'
import { EventBus } from '../runtime/orchestration/messaging/event-bus'
import type { OrphanWorktree } from '../runtime/worktrees'
import { waitUntil } from '../runtime/tools/test-kit'
import { orphanNote } from './orphan-note'

const base = { parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 1 }
const event = (type: string, agentId = 'main'): AgentEvent => ({ ...base, agentId, type }) as unknown as AgentEvent

function setup(found: number) {
  const bus = new EventBus()
  let looks = 0
  const lines: string[] = []
  const session = {
    bus,
    findOrphans: async () => {
      looks++
      return Array.from({ length: found }, () => ({}) as OrphanWorktree)
    }
  }
  const note = orphanNote(session as never, (line) => lines.push(line))
  return { bus, note, lines, looks: () => looks }
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
})
