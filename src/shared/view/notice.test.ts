import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../events'
import { applyEvents } from './reducer'
import { emptyEventsState } from './session-state'

describe('a notice event', () => {
  it('shows as a notice in the transcript and leaves the agent without an error', () => {
    const base = { agentId: 'a', parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 5 }
    const events: AgentEvent[] = [
      { ...base, type: 'agent_start', agentType: 'main', model: 'm', description: 'x', prompt: 'p' } as AgentEvent,
      { ...base, type: 'error', message: 'The Bash sandbox is unavailable: bwrap missing.', retrying: false, notice: true }
    ]
    const s = applyEvents(emptyEventsState(), events).sessions.s
    expect(s.items.a?.at(-1)).toMatchObject({ kind: 'notice', text: 'The Bash sandbox is unavailable: bwrap missing.' })
    expect(s.agents.a?.error).toBeUndefined()
    expect(s.agents.a?.lastError).toBeUndefined()
  })
})
