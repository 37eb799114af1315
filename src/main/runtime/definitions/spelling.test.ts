// Misspelt tools and models in an agent file are warnings at their line; the agent still loads as Claude
// Code would load it, and names that are merely unknown here (MCP, newer tools) are not called typos.
import { describe, expect, it } from 'vitest'
import { parseAgentMarkdown } from './parse'

const parse = (front: string) =>
  parseAgentMarkdown(`---\nname: weird\ndescription: Bad tools and model\n${front}\n---\nYou help.\n`, '/p/.claude/agents/weird.md', 'project')

describe('spelling warnings', () => {
  it('warns at the tools line for each misspelt tool, naming the likely one, and still loads the agent', () => {
    const r = parse('tools: Reed, Grpe, Bash(npm test:*), read, WebSearch, mcp__github__list, BashOutput\ndisallowedTools: Wrte')
    expect(r.definition?.tools).toEqual(['Reed', 'Grpe', 'Bash(npm test:*)', 'read', 'WebSearch', 'mcp__github__list', 'BashOutput'])
    const warnings = r.diagnostics.filter((d) => d.code === 'unknown-tool')
    expect(warnings.map((d) => [d.line, d.severity, d.message])).toEqual([
      [4, 'warning', '`tools` lists "Reed", which is not a tool; did you mean `Read`? As written, the agent will not get it'],
      [4, 'warning', '`tools` lists "Grpe", which is not a tool; did you mean `Grep`? As written, the agent will not get it'],
      [4, 'warning', '`tools` lists "read", which is not a tool; did you mean `Read`? As written, the agent will not get it'],
      [5, 'warning', '`disallowedTools` lists "Wrte", which is not a tool; did you mean `Write`? As written, nothing is removed by it']
    ])
  })

  it('warns about a model that is no alias and no Claude model id, with the alias a typo meant', () => {
    const msg = (model: string) =>
      parse(`model: ${model}`)
        .diagnostics.filter((d) => d.code === 'unknown-model')
        .map((d) => d.message)
    expect(msg('gpt-4')).toEqual([
      '`model` is "gpt-4", which is not a Claude model id (like claude-sonnet-4-5) nor haiku, sonnet, opus, fable, best, opusplan, default, inherit; it is sent to the API as written, which refuses it unless your gateway knows that name'
    ])
    expect(msg('sonet')[0]).toMatch(/did you mean `sonnet`\?\); starting this agent will fail$/)
    expect(msg('claude-sonnet-4-5')).toEqual([])
    expect(msg('us.anthropic.claude-3-5-haiku')).toEqual([])
    expect(msg('Opus')).toEqual([])
    // Every alias Claude Code 2.1.328 accepts, and its [1m] suffix.
    for (const alias of ['fable', 'best', 'opusplan', 'default', 'sonnet[1m]', 'opus[1m]', 'fable[1m]']) expect(msg(alias), alias).toEqual([])
    expect(parse('model: gpt-4').definition?.model).toBe('gpt-4')
  })
})
