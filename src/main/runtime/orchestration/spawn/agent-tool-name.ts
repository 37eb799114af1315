// The Agent tool's name, apart from the tool so the delivery ledger can recognise its calls without importing
// the tool (an import cycle).
export const AGENT_TOOL_NAME = 'Agent'
