// An Agent card names the agent type as soon as the call's input says it, never the word "subagent".
import { describe, expect, it } from 'vitest'
import { pendingAgentType } from './agent-call'
import { parsePartialInput } from './tool-summary'

describe('the agent type of an Agent call still streaming', () => {
  it('is unknown until subagent_type has arrived whole, then that type', () => {
    expect(pendingAgentType(undefined, parsePartialInput('{"description": "Map the par') ?? {}, false)).toBeUndefined()
    expect(pendingAgentType(undefined, parsePartialInput('{"description": "Map the parser", "subagent_type": "Exp') ?? {}, false)).toBeUndefined()
    expect(pendingAgentType(undefined, parsePartialInput('{"description": "Map the parser", "subagent_type": "Explore", "pro') ?? {}, false)).toBe('Explore')
  })

  it('a complete input without one asks for general-purpose; a started agent says its own', () => {
    expect(pendingAgentType(undefined, { description: 'x', prompt: 'y' }, true)).toBe('general-purpose')
    expect(pendingAgentType('code-reviewer', { subagent_type: 'Explore' }, true)).toBe('code-reviewer')
    expect(pendingAgentType(undefined, { subagent_type: '  ' }, false)).toBeUndefined()
  })
})
