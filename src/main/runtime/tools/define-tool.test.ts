// What a tool's schema tells the model is what it needs and no more: every request of every agent reads the
// tools, so a bound that says nothing costs tokens on each of them; the input is still checked in full.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from './define-tool'
import { createBuiltinTools } from './registry'

const SAFE_BOUND = String(Number.MAX_SAFE_INTEGER)

describe('a tool schema as the model reads it', () => {
  const tool = defineTool({
    name: 'Probe',
    description: 'probe',
    readOnly: true,
    schema: z.object({
      count: z.number().int().positive(),
      offset: z.number().int().min(1).optional(),
      any: z.number().int().optional(),
      small: z.number().int().max(10).optional()
    }),
    execute: async () => ({ content: 'ok' })
  })

  it('leaves out the ±2^53−1 bounds zod gives every integer, and keeps the bounds that say something', () => {
    const props = (tool.inputJsonSchema as any).properties
    expect(props.count).toEqual({ type: 'integer', exclusiveMinimum: 0 })
    expect(props.offset).toEqual({ type: 'integer', minimum: 1 })
    expect(props.any).toEqual({ type: 'integer' })
    expect(props.small).toEqual({ type: 'integer', maximum: 10 })
  })

  it('still refuses what the schema refuses', () => {
    expect(tool.parse({ count: 1.5 }).ok).toBe(false)
    expect(tool.parse({ count: 0 }).ok).toBe(false)
    expect(tool.parse({ count: 2 ** 60 }).ok).toBe(false)
    expect(tool.parse({ count: 3, offset: 0 }).ok).toBe(false)
    expect(tool.parse({ count: 3, offset: 2 }).ok).toBe(true)
  })

  it('holds for every built-in tool', () => {
    for (const t of createBuiltinTools({ cwd: __dirname })) {
      expect(JSON.stringify(t.inputJsonSchema), t.name).not.toContain(SAFE_BOUND)
      expect(JSON.stringify(t.inputJsonSchema), t.name).not.toContain(String(Number.MIN_SAFE_INTEGER))
    }
  })
})
