// The agent editor's methods on RuntimeHost, one per call of AGENT_EDITOR_CALLS, derived from that table.
import type { AGENT_EDITOR_CALLS } from './agent-editor-channels'
import type { HostMethods } from './host-methods'

export type AgentEditorHost = HostMethods<typeof AGENT_EDITOR_CALLS>
