// What the stream-json writer (stream-json.ts) needs from the session: its system/init line's facts and the
// tool responses and output files its later lines carry.
import { BUILTIN_COMMANDS } from '../../runtime/commands'
import type { AgentSession } from '../../runtime/orchestration'
import { FANOUT_VERSION } from '../run-args'

/** The slash commands a run knows, as Claude Code's init line lists them (files and skills, then built-ins). */
export async function commandNames(session: AgentSession): Promise<string[]> {
  const files = (await session.commands().catch(() => [])).map((c) => c.name)
  return [...new Set([...files, ...BUILTIN_COMMANDS.map((b) => b.name)])]
}

/** What the stream-json writer needs from the session. */
export function streamSession(session: AgentSession, permissionMode: string, slashNames: string[]) {
  return {
    sessionId: session.sessionId,
    mainAgentId: session.mainAgentId,
    cwd: session.cwd,
    permissionMode,
    version: FANOUT_VERSION,
    servedByAnthropic: /^https:\/\/api\.anthropic\.com\/?$/.test(session.client.baseURL),
    agentTypes: () => [...session.agents().keys()],
    slashCommands: () => slashNames,
    skillNames: () => session.skillNames(),
    mcpServers: () => session.extensions.mcp.status().map((m) => ({ name: m.name, status: m.status, ...(m.error ? { error: m.error } : {}) })),
    takeToolResponse: (id: string) => session.extensions.takeToolResponse(id),
    outputFile: (id: string) => session.registry.get(id)?.outputFile
  }
}
