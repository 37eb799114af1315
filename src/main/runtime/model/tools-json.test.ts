import { describe, expect, it } from 'vitest'
import { toolsJson } from './tools-json'

const schema = { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] }

describe('toolsJson', () => {
  it('is JSON.stringify of the list, for the agent loop’s tool specs and anything else a list may hold', () => {
    const lists: unknown[][] = [
      [],
      [{ name: 'Glob', description: 'Find files', input_schema: schema }],
      [
        { name: 'Glob', description: 'Find files', input_schema: schema },
        { name: 'Grep', description: 'Search "text"\n', input_schema: schema }
      ],
      [{ description: 'keys in another order', name: 'X', input_schema: schema }],
      [{ name: 'X', description: 'more keys', input_schema: schema, cache_control: { type: 'ephemeral' } }],
      [undefined, null, 3, 'text', () => 1, { name: 'X', description: 'd', input_schema: null }],
      [Object.assign(Object.create({ toJSON: () => 'custom' }), { name: 'X', description: 'd', input_schema: schema })]
    ]
    for (const list of lists) {
      expect(toolsJson(list)).toBe(JSON.stringify(list))
      expect(toolsJson(list)).toBe(JSON.stringify(list)) // again, from what it kept
    }
  })

  it('follows a tool whose description changed, on the same schema', () => {
    const first = [{ name: 'Agent', description: 'Agents: a, b', input_schema: schema }]
    const second = [{ name: 'Agent', description: 'Agents: a, b, c', input_schema: schema }]
    expect(toolsJson(first)).toBe(JSON.stringify(first))
    expect(toolsJson(second)).toBe(JSON.stringify(second))
    for (let i = 0; i < 100; i++) {
      const list = [{ name: 'Agent', description: `Agents: ${i}`, input_schema: schema }]
      expect(toolsJson(list)).toBe(JSON.stringify(list))
    }
    expect(toolsJson(first)).toBe(JSON.stringify(first))
  })
})
