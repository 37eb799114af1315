// A session applies its folder's approvals at each reload: the folder's agent definitions, MCP servers and
// hooks are gated (trust/gate.ts) before the session uses them, and what waits for the person is said once,
// on the next agent that runs (the main agent for the folder's files, the agent itself for its own file).
import type { FolderTrust, ProjectCommand } from '../../../../shared/trust'
import type { PermissionPreapproval } from '../../permissions/settings'
import { approvedIn, describeWaiting, gateMcpConfig, gateSettingsFiles, howToApprove, permissionWithhold } from '../../trust'
import { itemLine } from '../../trust/wording'
import type { ExtensionsConfig, SessionExtensions } from './extensions'
import type { SessionDefinitions } from './session-definitions'

export interface ApplyTrustTarget {
  cwd: string
  /** No one can answer an approval prompt here (`fanout run`): the note says how to approve from the command line. */
  headless: boolean
  definitions: SessionDefinitions
  extensions: SessionExtensions
}

export function applyFolderTrust(
  trust: FolderTrust,
  read: ExtensionsConfig,
  target: ApplyTrustTarget
): { withhold: (grant: PermissionPreapproval) => boolean } {
  const approved = approvedIn(trust)
  const waitingHashes = new Set(trust.items.filter((i) => i.state === 'waiting').map((i) => i.hash))
  const withheldByAgent = target.definitions.gate(approved)
  const how = howToApprove(target.headless ? 'cli' : 'app', target.cwd)
  const folderWaiting = trust.items.filter((i) => i.state === 'waiting' && i.kind !== 'agent-hook' && i.kind !== 'agent-mcp-server' && i.kind !== 'agent-mode')
  const waiting = folderWaiting.length
    ? `This folder's ${describeWaiting(folderWaiting)} ${folderWaiting.length === 1 ? 'waits' : 'wait'} for your approval, so ${folderWaiting.length === 1 ? 'it is' : 'they are'} not used in this session:\n${folderWaiting.map((i) => `- ${itemLine(i, 300)}`).join('\n')}\n${how}`
    : null
  const withheld = new Map<string, string>()
  for (const [agentType, items] of withheldByAgent) {
    const still = items.filter((i: ProjectCommand) => waitingHashes.has(i.hash))
    if (still.length)
      withheld.set(
        agentType,
        `Agent ${agentType}'s file brings ${describeWaiting(still)}, which ${still.length === 1 ? 'waits' : 'wait'} for your approval, so it runs without ${still.length === 1 ? 'it' : 'them'}:\n${still.map((i) => `- ${itemLine(i, 300)}`).join('\n')}\n${how}`
      )
  }
  target.extensions.configure(
    { ...read, settingsFiles: gateSettingsFiles(read.settingsFiles, target.cwd, approved), mcp: gateMcpConfig(read.mcp, target.cwd, approved) },
    { waiting, withheld }
  )
  return { withhold: permissionWithhold(target.cwd, approved) }
}
