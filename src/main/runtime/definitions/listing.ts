// The Agent tool's list of agent types, line for line in Claude Code's format:
//   - <agentType>: <whenToUse> (Tools: <tools>)
// The model chooses agents from this text, so it must read exactly as Claude Code's does for the same files.
import type { AgentDefinition } from '../../../shared/agent-definition'

type ListedTools = Pick<AgentDefinition, 'tools' | 'disallowedTools'>

/**
 * `All tools` when the definition does not restrict tools (absent, empty or `*`), `All tools except A, B`
 * when it only denies some, otherwise the allowed names as written minus denied ones (`None` if that
 * leaves nothing).
 */
export function formatToolsForListing(def: ListedTools): string {
  const allow = def.tools && def.tools.length > 0 && !def.tools.includes('*') ? def.tools : undefined
  const deny = def.disallowedTools && def.disallowedTools.length > 0 ? def.disallowedTools : undefined
  if (allow && deny) {
    const denied = new Set(deny)
    const effective = allow.filter((t) => !denied.has(t))
    return effective.length ? effective.join(', ') : 'None'
  }
  if (allow) return allow.join(', ')
  if (deny) return `All tools except ${deny.join(', ')}`
  return 'All tools'
}

export function formatAgentLine(def: Pick<AgentDefinition, 'agentType' | 'whenToUse'> & ListedTools): string {
  return `- ${def.agentType}: ${def.whenToUse} (Tools: ${formatToolsForListing(def)})`
}

/** One line per agent, in the order given (loadAgents keeps Claude Code's order). */
export function formatAgentListing(agents: readonly AgentDefinition[]): string {
  return agents.map(formatAgentLine).join('\n')
}
