// The final system prompt of an agent: its definition's body, then what it inherits from the user and the
// project, then the environment. Fixed order and tagged sections so each part is easy to find (for the
// model and for a person reading a transcript) and the same inputs always give the same prompt.
import type { AgentMemory } from './agent-memory'
import { agentMemoryPrompt } from './agent-memory'
import { formatClaudeMd, type ClaudeMdEntry } from './claude-md'
import { environmentDetails, type EnvironmentInput } from './environment'
import { formatSkills, type LoadedSkill } from './skills'

export interface SystemPromptParts {
  /** The definition's markdown body (its own system prompt). */
  body: string
  /** The environment block, or the values to build it from. */
  environment: string | EnvironmentInput
  claudeMd?: ClaudeMdEntry[]
  agentMemory?: AgentMemory
  skills?: LoadedSkill[]
  /** Leave CLAUDE.md out (Explore, Plan, and definitions that opt out). */
  omitClaudeMd?: boolean
}

/** Section tags, in prompt order after the body. */
export const SECTION_TAGS = ['claude_md', 'agent_memory', 'skills', 'env'] as const

function section(tag: string, text: string): string | null {
  const inner = text.trim()
  return inner ? `<${tag}>\n${inner}\n</${tag}>` : null
}

export function buildSystemPrompt(parts: SystemPromptParts): string {
  const env = typeof parts.environment === 'string' ? parts.environment : environmentDetails(parts.environment)
  const sections = [
    parts.body.trim() || null,
    parts.omitClaudeMd ? null : section('claude_md', formatClaudeMd(parts.claudeMd ?? [])),
    parts.agentMemory ? section('agent_memory', agentMemoryPrompt(parts.agentMemory)) : null,
    section('skills', formatSkills(parts.skills ?? [])),
    section('env', env)
  ]
  return sections.filter((s): s is string => s !== null).join('\n\n')
}
