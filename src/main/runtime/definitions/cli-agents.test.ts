import { describe, expect, it } from 'vitest'
import { parseCliAgentsJson } from './cli-agents'

describe('parseCliAgentsJson', () => {
  it("reads Claude Code's --agents format", () => {
    const r = parseCliAgentsJson(JSON.stringify({ reviewer: { description: 'Reviews', prompt: ' You review. ', tools: ['Read', 'Grep'], model: 'sonnet' } }))
    expect(r.diagnostics).toEqual([])
    expect(r.definitions).toEqual([
      expect.objectContaining({
        agentType: 'reviewer',
        whenToUse: 'Reviews',
        systemPrompt: 'You review.',
        tools: ['Read', 'Grep'],
        model: 'sonnet',
        source: 'cli',
        extra: {}
      })
    ])
  })

  it('points at the JSON error', () => {
    const r = parseCliAgentsJson('{\n  "a": {\n    "description": "x",,\n  }\n}')
    expect(r.definitions).toEqual([])
    expect(r.diagnostics).toEqual([expect.objectContaining({ file: '--agents', severity: 'error', code: 'invalid-json', line: 3, column: 24 })])
  })

  it('skips entries without description or prompt, naming them, and keeps the others', () => {
    const json = '{"ok": {"description": "d", "prompt": "p"},\n "bad": {"description": "d"},\n "x:y": {"description": "d", "prompt": "p"}}'
    const r = parseCliAgentsJson(json)
    expect(r.definitions.map((d) => d.agentType)).toEqual(['ok'])
    expect(r.diagnostics.map((d) => [d.code, d.line, d.message.slice(0, 12)])).toEqual([
      ['missing-prompt', 2, 'agent "bad":'],
      ['invalid-name', 3, 'agent "x:y":']
    ])
  })

  it("keeps each agent's field diagnostics with it", () => {
    const r = parseCliAgentsJson('{"a": {"description": "d", "prompt": "p", "color": "gold"}}')
    expect(r.perAgent.a).toEqual([expect.objectContaining({ code: 'invalid-field', message: expect.stringMatching(/^agent "a": `color` should be/) })])
    expect(r.diagnostics).toEqual(r.perAgent.a)
  })

  it('refuses JSON that is not an object of agents', () => {
    expect(parseCliAgentsJson('[1]').diagnostics[0].code).toBe('invalid-agents-json')
  })
})
