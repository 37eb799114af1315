import { describe, expect, it } from 'vitest'
import type { AgentDefinition } from '../../../shared/agent-definition'
import { resolveAgentTools } from './resolve-tools'
import { CORE_TOOLS } from './testing/tools'

const AVAILABLE = [...CORE_TOOLS, 'WebFetch', 'AskUserQuestion', 'ExitPlanMode', 'EnterPlanMode', 'TaskOutput', 'SendMessage']
const def = (over: Partial<AgentDefinition> = {}): AgentDefinition => ({
  agentType: 'x',
  whenToUse: 'w',
  systemPrompt: '',
  source: 'project',
  extra: {},
  ...over
})
const custom = { isBuiltIn: false, isBackground: false }

describe('resolveAgentTools', () => {
  it('gives an unrestricted subagent everything but the always-blocked tools, and says why each went', () => {
    const r = resolveAgentTools(def(), AVAILABLE, custom)
    expect(r.hasWildcard).toBe(true)
    expect(r.resolvedTools).toEqual(['Agent', 'Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'WebFetch', 'SendMessage'])
    expect(Object.keys(r.removed).sort()).toEqual(['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode', 'TaskOutput'])
    expect(r.removed.AskUserQuestion).toMatch(/subagents never get this tool/)
    expect(r.error).toBeUndefined()
  })

  it('treats absent, empty and * tools alike', () => {
    const all = resolveAgentTools(def(), AVAILABLE, custom).resolvedTools
    expect(resolveAgentTools(def({ tools: [] }), AVAILABLE, custom).resolvedTools).toEqual(all)
    expect(resolveAgentTools(def({ tools: ['*'] }), AVAILABLE, custom).resolvedTools).toEqual(all)
  })

  it('keeps ExitPlanMode for an agent whose own mode is plan', () => {
    expect(resolveAgentTools(def({ permissionMode: 'plan' }), AVAILABLE, custom).resolvedTools).toContain('ExitPlanMode')
  })

  it('does not filter the main agent', () => {
    expect(resolveAgentTools(def(), AVAILABLE, { ...custom, isSubagent: false }).resolvedTools).toEqual(AVAILABLE)
  })

  it('resolves an explicit list in the order written: aliases, patterns, invalid names', () => {
    const r = resolveAgentTools(def({ tools: ['Grep', 'Task(worker, critic)', 'Bash(git:*)', 'Bash(npm test:*)', 'LS', 'Read', 'Read'] }), AVAILABLE, custom)
    expect(r.hasWildcard).toBe(false)
    expect(r.resolvedTools).toEqual(['Grep', 'Agent', 'Bash', 'Read'])
    expect(r.validTools).toEqual(['Grep', 'Task(worker, critic)', 'Bash(git:*)', 'Bash(npm test:*)', 'Read', 'Read'])
    expect(r.invalidTools).toEqual(['LS'])
    expect(r.toolRules).toEqual({ Bash: ['git:*', 'npm test:*'] })
    expect(r.allowedAgentTypes).toEqual(['worker', 'critic'])
    expect(r.removed.Write).toBe("not in the agent's tools list")
  })

  it('a plain listing of a tool overrides its patterns', () => {
    expect(resolveAgentTools(def({ tools: ['Bash(git:*)', 'Bash'] }), AVAILABLE, custom).toolRules).toEqual({})
  })

  it('applies disallowedTools first; a pattern there removes the whole tool', () => {
    const r = resolveAgentTools(def({ tools: ['Read', 'Bash', 'Edit'], disallowedTools: ['Edit', 'Bash(rm:*)'] }), AVAILABLE, custom)
    expect(r.resolvedTools).toEqual(['Read'])
    expect(r.invalidTools).toEqual(['Bash', 'Edit'])
    expect(r.removed.Bash).toMatch(/disallowedTools lists Bash\(rm:\*\)/)
  })

  it('limits background agents to the allowlist but keeps MCP tools', () => {
    const r = resolveAgentTools(def(), AVAILABLE, { isBuiltIn: false, isBackground: true, mcpTools: ['mcp__gh__issue'] })
    expect(r.resolvedTools).toEqual(['Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'WebFetch', 'mcp__gh__issue'])
    expect(r.removed.Agent).toMatch(/background agents/)
  })

  it('expands MCP server wildcards against connected tools', () => {
    const mcpTools = ['mcp__gh__issue', 'mcp__gh__pr', 'mcp__db__query']
    const r = resolveAgentTools(def({ tools: ['mcp__gh__*', 'mcp__db', 'mcp__none__*'] }), [], { ...custom, mcpTools })
    expect(r.resolvedTools).toEqual(['mcp__gh__issue', 'mcp__gh__pr', 'mcp__db__query'])
    expect(r.invalidTools).toEqual(['mcp__none__*'])
    const denied = resolveAgentTools(def({ disallowedTools: ['mcp__gh__*'] }), [], { ...custom, mcpTools })
    expect(denied.resolvedTools).toEqual(['mcp__db__query'])
  })

  it('adds the file tools an agent with memory needs to an explicit list, unless denied', () => {
    expect(resolveAgentTools(def({ tools: ['Grep'], memory: 'user' }), AVAILABLE, custom).resolvedTools).toEqual(['Grep', 'Read', 'Write', 'Edit'])
    expect(resolveAgentTools(def({ tools: ['Grep'], memory: 'user', disallowedTools: ['Write'] }), AVAILABLE, custom).resolvedTools).toEqual([
      'Grep',
      'Read',
      'Edit'
    ])
  })

  it('refuses a spawn with zero tools, saying why', () => {
    const r = resolveAgentTools(def({ agentType: 'asker', file: '/a.md', tools: ['AskUserQuestion', 'Frobnicate'] }), AVAILABLE, custom)
    expect(r.resolvedTools).toEqual([])
    expect(r.error).toBe(
      'agent asker (/a.md) would be spawned with zero tools: none of the tools it lists is available to it — AskUserQuestion: subagents never get this tool (it belongs to the conversation with the person); Frobnicate: no such tool. Change its tools or disallowedTools.'
    )
    const all = resolveAgentTools(def({ disallowedTools: ['*'] }), ['Read'], custom)
    expect(all.error).toMatch(/every available tool was removed — Read: disallowedTools lists \*/)
  })

  it('is deterministic', () => {
    const d = def({ tools: ['Bash', 'Read', 'mcp__gh__*'], disallowedTools: ['Write'] })
    const opts = { ...custom, mcpTools: ['mcp__gh__b', 'mcp__gh__a'] }
    expect(resolveAgentTools(d, AVAILABLE, opts)).toEqual(resolveAgentTools(d, [...AVAILABLE], opts))
  })
})
