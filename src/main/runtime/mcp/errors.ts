// A server that could not be started, with the reason in words. Kept apart from connect.ts so that code
// which only checks for it does not load the MCP SDK.
export class McpStartError extends Error {
  constructor(
    message: string,
    readonly server: string
  ) {
    super(message)
    this.name = 'McpStartError'
  }
}
