// What the spawn path needs from its session. Kept as an interface so spawn.ts stays a plain function
// that tests can read top to bottom.
import type { AgentDefinition, LoadedAgent } from '../../../shared/agent-definition'
import type { AgentEvent } from '../../../shared/events'
import type { CanUseTool } from '../loop/types'
import type { ModelAliases } from '../model/aliases'
import type { ModelClient } from '../model/types'
import type { Tool } from '../tools/define-tool'
import type { AgentHandle, AgentRegistry } from './agent-registry'
import type { SpawnGate } from './limits'

export interface SessionContext {
  sessionId: string
  home: string
  client: ModelClient
  aliases: ModelAliases
  registry: AgentRegistry
  gate: SpawnGate
  emit: (event: AgentEvent) => void
  /** Effective definitions, read at spawn time so that a file changed on disk applies to the next spawn. */
  agents(): Map<string, LoadedAgent>
  newAgentId(): string
  /** Every tool name an agent could be given, for tool resolution. */
  availableToolNames(): string[]
  /** Builds the named tools for an agent on its cwd. */
  buildTools(handle: AgentHandle, names: readonly string[]): Tool[]
  systemPrompt(def: AgentDefinition, handle: AgentHandle, worktree?: { path: string; branch: string; baseCommit?: string }): Promise<string>
  canUseTool(handle: AgentHandle): CanUseTool | undefined
}
