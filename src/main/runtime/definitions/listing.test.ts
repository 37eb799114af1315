import { describe, expect, it } from 'vitest'
import type { AgentDefinition } from '../../../shared/agent-definition'
import { formatAgentListing, formatToolsForListing } from './listing'

const def = (agentType: string, over: Partial<AgentDefinition> = {}): AgentDefinition => ({
  agentType,
  whenToUse: `Use ${agentType}`,
  systemPrompt: '',
  source: 'project',
  extra: {},
  ...over
})

describe('Agent tool listing', () => {
  it('describes tools the way Claude Code does', () => {
    expect(formatToolsForListing({})).toBe('All tools')
    expect(formatToolsForListing({ tools: [] })).toBe('All tools')
    expect(formatToolsForListing({ tools: ['*'] })).toBe('All tools')
    expect(formatToolsForListing({ disallowedTools: ['Write', 'Edit'] })).toBe('All tools except Write, Edit')
    expect(formatToolsForListing({ tools: ['Read', 'Task', 'Bash(git:*)'] })).toBe('Read, Task, Bash(git:*)')
    expect(formatToolsForListing({ tools: ['Read', 'Write'], disallowedTools: ['Write'] })).toBe('Read')
    expect(formatToolsForListing({ tools: ['Write'], disallowedTools: ['Write'] })).toBe('None')
  })

  it('prints one line per agent', () => {
    expect(formatAgentListing([def('a'), def('b', { tools: ['Read'] })])).toBe('- a: Use a (Tools: All tools)\n- b: Use b (Tools: Read)')
  })
})
