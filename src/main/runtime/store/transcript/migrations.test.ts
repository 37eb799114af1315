// The migration chain: each step is pure, takes version N to N+1, and the chain ends at the version written.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/events'
import { makeHeader, TRANSCRIPT_VERSION } from './format'
import { MIGRATIONS, migrateTranscript, migrationsFrom, v1ToV2 } from './migrations'
import { SCHEMAS } from './schema'

const base = { agentId: 'a', parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 1_763_726_400_123 }
const turn = (over: Partial<AgentEvent> = {}): AgentEvent => ({ ...base, type: 'turn_start', turn: 1, ...over }) as AgentEvent

describe('the migration chain', () => {
  it('goes one version at a time, from 1 to the version this Fanout writes', () => {
    expect(MIGRATIONS.map((m) => [m.from, m.to])).toEqual(MIGRATIONS.map((_, i) => [i + 1, i + 2]))
    expect(MIGRATIONS.at(-1)?.to).toBe(TRANSCRIPT_VERSION)
    expect(Object.keys(SCHEMAS()).map(Number)).toEqual(Array.from({ length: TRANSCRIPT_VERSION }, (_, i) => i + 1))
    expect(migrationsFrom(1)).toEqual(MIGRATIONS)
    expect(migrationsFrom(TRANSCRIPT_VERSION)).toEqual([])
  })

  it('lines written now are valid lines of every older version, so appending to an older file keeps it whole', () => {
    const now = { ...turn(), seq: 1_763_726_400_123_000 }
    for (const v of Object.values(SCHEMAS())) expect(v.event.safeParse(now).success).toBe(true)
  })
})

describe('v1 -> v2: every event gets its place in the stream', () => {
  it('an event written before seq existed gets it from its time, as readers made it up before', () => {
    expect(v1ToV2.event(turn())).toEqual({ ...turn(), seq: base.ts * 1000 })
  })

  it('an event that has a seq keeps it, and its firstSeq', () => {
    const e = turn({ seq: 5, firstSeq: 3 })
    expect(v1ToV2.event(e)).toBe(e)
  })

  it('is pure: the events and header given are not changed', () => {
    const events = [turn(), turn({ ts: base.ts + 1 })]
    const before = structuredClone(events)
    const header = { ...makeHeader(base), version: 1 }
    const out = migrateTranscript(header, events)
    expect(events).toEqual(before)
    expect(header.version).toBe(1)
    expect(out.header).toEqual({ ...header, version: 2 })
    expect(out.events.map((e) => e.seq)).toEqual([base.ts * 1000, (base.ts + 1) * 1000])
  })

  it('a v2 line without seq fails the v2 schema, and is a valid v1 line', () => {
    expect(SCHEMAS()[2].event.safeParse(turn()).success).toBe(false)
    expect(SCHEMAS()[1].event.safeParse(turn()).success).toBe(true)
  })
})
