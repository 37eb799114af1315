import { describe, expect, it } from 'vitest'
import { mcpServerWildcard, parseToolSpec, readToolList, splitToolString } from './tool-list'

describe('tool lists', () => {
  it('splits on commas and spaces outside parentheses', () => {
    expect(splitToolString('Read, Grep Glob,Bash(npm test:*) , mcp__x__y')).toEqual(['Read', 'Grep', 'Glob', 'Bash(npm test:*)', 'mcp__x__y'])
  })

  it('reads YAML lists, dropping entries that are not text', () => {
    expect(readToolList(['Read', 'Grep, Glob', 3, { a: 1 }])).toEqual({ list: ['Read', 'Grep', 'Glob'], dropped: [3, { a: 1 }] })
    expect(readToolList(undefined)).toEqual({ dropped: [] })
    expect(readToolList(null)).toEqual({ dropped: [] })
    expect(readToolList('')).toEqual({ list: [], dropped: [] })
  })

  it('parses permission patterns and aliases', () => {
    expect(parseToolSpec('Bash(git:*)')).toEqual({ toolName: 'Bash', ruleContent: 'git:*' })
    expect(parseToolSpec('Bash(*)')).toEqual({ toolName: 'Bash' })
    expect(parseToolSpec('Task')).toEqual({ toolName: 'Agent' })
    expect(parseToolSpec('Task(worker, critic)')).toEqual({ toolName: 'Agent', ruleContent: 'worker, critic' })
  })

  it('recognises MCP server wildcards', () => {
    expect(mcpServerWildcard('mcp__github__*')).toBe('mcp__github__')
    expect(mcpServerWildcard('mcp__github')).toBe('mcp__github__')
    expect(mcpServerWildcard('mcp__github__create_issue')).toBeUndefined()
    expect(mcpServerWildcard('Read')).toBeUndefined()
  })
})

describe('tool names that are Object.prototype members', () => {
  it('are not mistaken for aliases', () => {
    expect(parseToolSpec('constructor')).toEqual({ toolName: 'constructor' })
    expect(parseToolSpec('toString')).toEqual({ toolName: 'toString' })
  })
})
