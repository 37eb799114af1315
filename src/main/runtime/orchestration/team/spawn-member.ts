// Starting a team member: an in-process agent of the session, a child of the lead, defined by an agent
// definition — its tools and model apply, and its body follows the team prompt. It reports to the lead
// (a <task-notification>) each time it goes idle, and is woken by messages like any agent.
import type { AgentDefinition } from '../../../../shared/agent-definition'
import { resolveAgentTools } from '../../definitions'
import { resolveModel } from '../../model/aliases'
import { startSubagentRun, type SubagentRunHost } from '../runs/agent-run'
import { newAgentHandle, type AgentHandle } from '../runs/agent-registry'
import { AGENT_TOOL_NAME } from '../spawn/agent-tool'
import { childPermissionMode, DEFAULT_SUBAGENT_TYPE } from '../spawn/spawn'
import type { SessionContext } from '../types'
import { LEAD_ONLY, MEMBER_TOOL_NAMES } from '../../tools/team-tool-names'
import { errorMessage } from '../../../../shared/error-message'

export interface MemberInput {
  name: string
  agent_type?: string
  prompt: string
  model?: string
  isolation?: 'worktree'
}

export interface MemberPlan {
  input: MemberInput
  def: AgentDefinition
  model: string
  toolNames: string[]
  allowedAgentTypes?: string[]
  isolated: boolean
}

const NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/
const RESERVED = new Set(['main', 'lead', 'user', 'fanout'])

/** What the member will be, or a sentence saying why it cannot be. */
export function planMember(
  s: Pick<SessionContext, 'definitions' | 'aliases' | 'tools' | 'gate' | 'registry'>,
  lead: AgentHandle,
  m: MemberInput
): MemberPlan | string {
  if (!NAME.test(m.name)) return `Member name '${m.name}' is not usable: use 1-64 letters, digits, '.', '_' or '-'.`
  if (RESERVED.has(m.name)) return `Member name '${m.name}' is reserved; choose another.`
  const agentType = m.agent_type ?? DEFAULT_SUBAGENT_TYPE
  const loaded = s.definitions.agents().get(agentType)
  if (!loaded) return `Member ${m.name}: there is no agent type '${agentType}'. Available agent types: ${[...s.definitions.agents().keys()].join(', ')}.`
  const def = loaded.definition
  let model: string
  try {
    model = resolveModel({ override: m.model, definition: def.model, parent: lead.model, aliases: s.aliases })
  } catch (err) {
    return `Member ${m.name}: ${errorMessage(err)}`
  }
  const resolution = resolveAgentTools(def, s.tools.names(), { isBuiltIn: def.source === 'built-in', isBackground: false, isSubagent: true })
  if (resolution.error) return `Member ${m.name}: ${resolution.error}`
  const depth = lead.depth + 1
  const own = resolution.resolvedTools.filter((t) => !LEAD_ONLY.has(t) && !(t === AGENT_TOOL_NAME && depth >= s.gate.limits.maxDepth))
  return {
    input: m,
    def,
    model,
    toolNames: [...new Set([...own, ...MEMBER_TOOL_NAMES])],
    ...(resolution.allowedAgentTypes ? { allowedAgentTypes: resolution.allowedAgentTypes } : {}),
    isolated: (m.isolation ?? def.isolation) === 'worktree'
  }
}

/** One member's launch: its plan, the id it runs as, its team, and the lead's TeamCreate call that made it. */
export interface MemberLaunch {
  lead: AgentHandle
  plan: MemberPlan
  agentId: string
  teamName: string
  toolUseId: string
}

/**
 * Registers the member's agent, records it as launched (with its task: a crash before its first turn leaves it
 * to start on resume) and starts its first run. Its definition stays the plain one (what state.json records);
 * the session adds the team instructions to its prompt for as long as it is a member.
 */
export async function startMember(s: SubagentRunHost, m: MemberLaunch): Promise<AgentHandle> {
  s.gate.admit()
  const handle = memberHandle(m)
  s.registry.add(handle)
  await s.files.recordLaunch(handle, m.plan.input.prompt)
  const maxTurns = m.plan.def.maxTurns
  void startSubagentRun(s, handle, { prompt: m.plan.input.prompt, history: [], reportTo: m.lead.id, ...(maxTurns !== undefined ? { maxTurns } : {}) })
  return handle
}

/**
 * Records a member the team log lists and nothing else does (a crash came between TeamCreate's write and the
 * member's launch record) as launched, so the resume starts it like any launched agent. Not registered here.
 */
export function recordMemberLaunch(s: SubagentRunHost, m: MemberLaunch): Promise<void> {
  return s.files.recordLaunch(memberHandle(m), m.plan.input.prompt)
}

function memberHandle({ lead, plan, agentId, teamName, toolUseId }: MemberLaunch): AgentHandle {
  return newAgentHandle({
    id: agentId,
    parentId: lead.id,
    parentToolUseId: toolUseId,
    depth: lead.depth + 1,
    agentType: plan.def.agentType,
    definition: plan.def,
    name: plan.input.name,
    description: `${plan.input.name} · team ${teamName}`,
    model: plan.model,
    cwd: lead.cwd,
    permissionMode: childPermissionMode(lead.permissionMode, plan.def.permissionMode),
    ...(plan.allowedAgentTypes ? { allowedAgentTypes: plan.allowedAgentTypes } : {}),
    toolNames: plan.toolNames,
    ...(plan.isolated ? { isolation: { repoCwd: lead.cwd } } : {})
  })
}
