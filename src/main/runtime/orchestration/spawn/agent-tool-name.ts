// The Agent tool's name, apart from the tool so the delivery ledger can recognise its calls without importing
// the tool (an import cycle).
export const AGENT_TOOL_NAME = 'Agent'

/** The agent type an Agent call without subagent_type starts. */
export const DEFAULT_SUBAGENT_TYPE = 'general-purpose'
