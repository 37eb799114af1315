import { describe, expect, it } from 'vitest'
import { agentBadge, agentFullName, agentTask } from './agent-naming'

describe('agent naming', () => {
  it('puts the task first and the type in the badge', () => {
    const a = { agentType: 'general-purpose', description: 'Trace the auth flow' }
    expect(agentTask(a)).toBe('Trace the auth flow')
    expect(agentBadge(a)).toBe('general-purpose')
    expect(agentFullName(a)).toBe('Trace the auth flow (general-purpose)')
  })

  it('badges a team member by its name, and names both in full', () => {
    const a = { agentType: 'implementer', name: 'alice', description: 'Fix the lexer' }
    expect(agentBadge(a)).toBe('alice')
    expect(agentFullName(a)).toBe('Fix the lexer (alice, implementer)')
  })

  it('falls back to the type when there is no task, without repeating it', () => {
    const a = { agentType: 'main', description: '' }
    expect(agentTask(a)).toBe('main')
    expect(agentBadge(a)).toBeNull()
    expect(agentFullName(a)).toBe('main')
  })
})
