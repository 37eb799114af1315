// The agent loop's public surface.
export { apiToolSpecs, runAgentLoop } from './agent-loop'
export { runAgent, type RunAgentOptions } from './run-agent'
export { agentEventStream, type AgentEventStream } from './event-stream'
export { runToolCalls, type ToolCall, type ToolCallOutcome, type ToolRunContext } from './run-tools'
export { lastAssistantText, reminderBlock, textOf } from './conversation'
export type * from './types'
export * from './stop'
