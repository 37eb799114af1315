// The time shown for a tool call is the time it ran: the wait for the person's permission is not in it.
import { describe, expect, it } from 'vitest'
import type { PermissionState } from '../../../shared/view/session-state'
import { permissionWaits, timingText, toolTiming } from './tool-timing'

const request = (id: string, toolUseId: string | undefined, ts: number, respondedAt?: number): PermissionState => ({
  requestId: id,
  sessionId: 's',
  agentId: 'a',
  requestingAgentId: 'a',
  toolName: 'Bash',
  toolUseId,
  input: { command: 'npm test' },
  reason: 'Bash wants to run: npm test',
  suggestedRules: [],
  ts,
  respondedAt,
  decision: respondedAt === undefined ? undefined : 'allow'
})

describe('tool timing', () => {
  it('a Bash call that waited 50 s for permission and ran 7 s reads 7 s', () => {
    const waits = permissionWaits({ r1: request('r1', 'tu1', 1_000, 51_000) })
    const timing = toolTiming({ durationMs: 57_000 }, waits.get('tu1'))
    expect(timing).toEqual({ runMs: 7_000, waitMs: 50_000 })
    expect(timingText(timing)).toBe('7.0 s, after 50 s waiting for you')
  })

  it("the tool's own recorded run is its time: what came before the question (a hook, the sandbox starting) is not in it", () => {
    // Handed off at 0; 0.8 s of Fanout's own work; asked at 0.8 s; answered at 4.8 s; the command ran 0.4 s.
    const waits = permissionWaits({ r1: request('r1', 'tu1', 800, 4_800) })
    const timing = toolTiming({ durationMs: 5_200, runMs: 400 }, waits.get('tu1'))
    expect(timing).toEqual({ runMs: 400, waitMs: 4_000 })
    expect(timingText(timing)).toBe('400 ms, after 4.0 s waiting for you')
  })

  it('requests still waiting, or not tied to a call, add nothing; two answers to one call add up', () => {
    const waits = permissionWaits({
      r1: request('r1', 'tu1', 0, 2_000),
      r2: request('r2', 'tu1', 3_000, 4_500),
      r3: request('r3', 'tu2', 0),
      r4: request('r4', undefined, 0, 9_000)
    })
    expect(waits.get('tu1')).toBe(3_500)
    expect(waits.has('tu2')).toBe(false)
    expect(waits.size).toBe(1)
  })

  it('a call that never waited keeps its own time; a short wait is not mentioned', () => {
    expect(timingText(toolTiming({ durationMs: 1_234 }))).toBe('1.2 s')
    expect(timingText(toolTiming({ durationMs: 5_000 }, 300))).toBe('4.7 s')
    expect(toolTiming({ durationMs: undefined }, 2_000)).toEqual({ waitMs: 2_000 })
    // A wait longer than the recorded duration (event times and the tool's own timer differ a little) is never negative.
    expect(toolTiming({ durationMs: 1_000 }, 5_000)).toEqual({ runMs: 0, waitMs: 1_000 })
  })

  it('the same permissions give the same map (views select it on every update)', () => {
    const permissions = { r1: request('r1', 'tu1', 0, 10) }
    expect(permissionWaits(permissions)).toBe(permissionWaits(permissions))
  })
})
