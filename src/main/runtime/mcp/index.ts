// MCP servers through @modelcontextprotocol/sdk: configuration, connection, and their tools as agent tools.
export { readAgentServers, type AgentServerRef } from './agent-servers'
export { connectMcpServer, DEFAULT_MCP_START_TIMEOUT_MS, McpStartError, type McpConnection, type McpToolInfo } from './connect'
export { loadMcpConfig, type LoadMcpConfigOptions, type McpConfig, type McpScope, type McpServerEntry } from './load-config'
export { checkInput, createMcpTool, DEFAULT_MCP_CALL_TIMEOUT_MS } from './mcp-tool'
export { describeTransport, expandEnv, mcpToolName, normalizeMcpName, parseServerConfig, type McpTransportConfig } from './server-config'
export { SessionMcp, type AgentMcpTools, type McpAgent, type McpServerState, type McpServerStatus, type SessionMcpOptions } from './session-mcp'
export { mcpResultToToolResult, type McpResultDetails } from './tool-result'
