// Which agents are read-only by their definition: those that disallow both Write and Edit (Explore and Plan
// do). Their Bash commands run in the read-only sandbox whatever the mode, and may never leave it. An agent
// that merely lists no editing tool (the Bash agent, a test runner) is not: running builds writes files.
import type { AgentDefinition } from '../../../shared/agent-definition'

export function isReadOnlyAgent(def: Pick<AgentDefinition, 'disallowedTools'> | null | undefined): boolean {
  const names = new Set((def?.disallowedTools ?? []).map((t) => t.replace(/\(.*$/s, '').trim()))
  return names.has('Write') && names.has('Edit')
}
