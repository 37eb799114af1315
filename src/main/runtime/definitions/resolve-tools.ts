// The tools a spawned agent gets: one deterministic function, following Claude Code's resolveAgentTools
// and filterToolsForAgent, and saying why every tool it drops was dropped.
//
// Order of rules:
//   1. start from the available tools (+ connected MCP tools);
//   2. for subagents: drop the always-blocked set, the custom-agent set (non-built-ins), and for
//      background agents everything outside the background allowlist (MCP tools pass these filters);
//   3. drop `disallowedTools` (a pattern such as `Bash(rm:*)` drops the whole tool, as in Claude Code: the
//      safe reading);
//   4. `tools` absent, empty or `*` keeps everything left; otherwise each name is resolved (`Task` is
//      `Agent`, `mcp__server__*` expands to that server's connected tools) and names that resolve to
//      nothing are reported as invalid;
//   5. nothing left is an error the parent sees, never a silent spawn with zero tools.
import type { AgentDefinition, ToolResolution } from '../../../shared/agent-definition'
import { ALWAYS_BLOCKED_FOR_SUBAGENTS, BACKGROUND_ALLOWED, CUSTOM_AGENT_BLOCKED, MEMORY_TOOLS } from './tool-sets'
import { isMcpToolName, mcpServerWildcard, parseToolSpec } from './tool-list'

export interface ResolveToolsOptions {
  /** Fanout's own agents (source `built-in`) skip the custom-agent block set. */
  isBuiltIn: boolean
  /** Background agents get only BACKGROUND_ALLOWED (plus MCP tools). */
  isBackground: boolean
  /** False for the main agent, which gets no subagent filtering. Default true. */
  isSubagent?: boolean
  /** Tools of connected MCP servers, named `mcp__server__tool`. */
  mcpTools?: string[]
}

type Def = Pick<AgentDefinition, 'agentType' | 'tools' | 'disallowedTools' | 'permissionMode' | 'memory' | 'file'>

function subagentFilterReason(name: string, def: Def, opts: ResolveToolsOptions): string | undefined {
  if (isMcpToolName(name)) return undefined
  if (name === 'ExitPlanMode' && def.permissionMode === 'plan') return undefined
  if (ALWAYS_BLOCKED_FOR_SUBAGENTS.has(name)) return 'subagents never get this tool (it belongs to the conversation with the person)'
  if (!opts.isBuiltIn && CUSTOM_AGENT_BLOCKED.has(name)) return 'custom agents never get this tool'
  if (opts.isBackground && !BACKGROUND_ALLOWED.has(name)) return 'background agents get only file, search, shell, web and to-do tools'
  return undefined
}

/** The tools `spec` names among `pool`: one tool, a whole MCP server, or everything for `*`. */
function match(toolName: string, pool: readonly string[]): string[] {
  if (toolName === '*') return [...pool]
  const prefix = mcpServerWildcard(toolName)
  if (prefix) return pool.filter((t) => t.startsWith(prefix))
  return pool.includes(toolName) ? [toolName] : []
}

export function resolveAgentTools(def: Def, available: readonly string[], opts: ResolveToolsOptions): ToolResolution {
  const removed: Record<string, string> = {}
  const all = [...new Set([...available, ...(opts.mcpTools ?? [])])]
  let pool = all
  if (opts.isSubagent ?? true) {
    pool = all.filter((name) => {
      const reason = subagentFilterReason(name, def, opts)
      if (reason) removed[name] = reason
      return !reason
    })
  }

  for (const spec of def.disallowedTools ?? []) {
    const { toolName, ruleContent } = parseToolSpec(spec)
    const hits = new Set(match(toolName, pool))
    for (const t of hits) {
      removed[t] = ruleContent ? `disallowedTools lists ${spec}; a pattern there removes the whole tool` : `disallowedTools lists ${spec}`
    }
    pool = pool.filter((t) => !hits.has(t))
  }

  const hasWildcard = !def.tools || def.tools.length === 0 || def.tools.includes('*')
  const validTools: string[] = []
  const invalidTools: string[] = []
  const toolRules: Record<string, string[]> = {}
  const unrestricted = new Set<string>()
  let allowedAgentTypes: string[] | undefined
  let resolved: string[]

  if (hasWildcard) {
    resolved = pool
  } else {
    const picked = new Set<string>()
    for (const spec of def.tools ?? []) {
      const { toolName, ruleContent } = parseToolSpec(spec)
      if (toolName === 'Agent' && ruleContent) {
        allowedAgentTypes = [
          ...(allowedAgentTypes ?? []),
          ...ruleContent
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        ]
      }
      const hits = toolName === '*' ? [] : match(toolName, pool)
      if (!hits.length) {
        invalidTools.push(spec)
        continue
      }
      validTools.push(spec)
      for (const t of hits) {
        picked.add(t)
        if (ruleContent && toolName !== 'Agent') (toolRules[t] ??= []).push(ruleContent)
        else unrestricted.add(t)
      }
    }
    // An agent with memory reads and writes its memory files, so it keeps the file tools it was not denied.
    if (def.memory) for (const t of MEMORY_TOOLS) if (pool.includes(t) && !picked.has(t)) picked.add(t)
    // Keep the order the definition wrote (then memory tools), as Claude Code does.
    resolved = [...picked]
    for (const t of pool) if (!picked.has(t)) removed[t] = "not in the agent's tools list"
  }
  // A tool listed plainly as well as with a pattern is not narrowed by the pattern.
  for (const t of unrestricted) delete toolRules[t]

  const resolution: ToolResolution = { validTools, invalidTools, resolvedTools: resolved, hasWildcard, removed, toolRules }
  if (allowedAgentTypes) resolution.allowedAgentTypes = allowedAgentTypes
  if (resolved.length === 0) resolution.error = zeroToolsMessage(def, invalidTools, removed, all)
  return resolution
}

function zeroToolsMessage(def: Def, invalid: string[], removed: Record<string, string>, all: string[]): string {
  const where = def.file ? ` (${def.file})` : ''
  let why: string
  if (invalid.length) {
    const explained = invalid.map((spec) => {
      const reason = removed[parseToolSpec(spec).toolName]
      return reason ? `${spec}: ${reason}` : `${spec}: no such tool`
    })
    why = `none of the tools it lists is available to it — ${explained.join('; ')}`
  } else if (all.length === 0) {
    why = 'no tools are available at all'
  } else {
    const byReason = new Map<string, string[]>()
    for (const [tool, reason] of Object.entries(removed)) byReason.set(reason, [...(byReason.get(reason) ?? []), tool])
    why = `every available tool was removed — ${[...byReason].map(([reason, tools]) => `${tools.join(', ')}: ${reason}`).join('; ')}`
  }
  return `agent ${def.agentType}${where} would be spawned with zero tools: ${why}. Change its tools or disallowedTools.`
}
