// The agent loop's public surface.
export { runAgentLoop } from './agent-loop'
export { apiToolSpecs, toolSpecsOf } from './run-state'
export { runAgent, type RunAgentOptions } from './run-agent'
export { agentEventStream, type AgentEventStream } from './event-stream'
export { runToolCalls, type ToolCall, type ToolCallOutcome, type ToolRunContext } from './run-tools'
export { lastAssistantText, reminderBlock, textOf } from './conversation'
export type * from './types'
export * from './stop'
