// The folder slice of the host's handler table (folder-contract.ts): a folder's agents and MCP servers
// (agent-folders.ts), what the prompt box offers (prompt-sources.ts) and whether the person trusts what it brings (trust-calls.ts).
import type { CallHandlers } from '../../../shared/call-handlers'
import type { FolderCallName } from '../../../shared/folder-contract'
import type { AgentFolders } from './agent-folders'
import { requireFolder } from './folder-check'
import { folderCommands, folderFiles } from './prompt-sources'
import type { TrustCalls } from './trust-calls'

export function folderHandlers(folders: AgentFolders, trust: TrustCalls, home: string): CallHandlers<FolderCallName> {
  return {
    'agents.list': async (req) => folders.listAgents({ cwd: await requireFolder(req.cwd) }),
    'mcp.list': async (req) => folders.listMcpServers({ cwd: await requireFolder(req.cwd) }),
    'folder.commands': async (req) => ({ commands: await folderCommands(await requireFolder(req.cwd), home) }),
    'folder.files': async (req) => folderFiles(await requireFolder(req.cwd), home),
    'trust.get': trust.get,
    'trust.answer': trust.answer
  }
}
