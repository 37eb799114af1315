// Agent teams: the durable team log, the manager that connects it to a session, and the tools each side gets.
import type { AgentDefinition } from '../../../../shared/agent-definition'
import type { TeamSnapshot, TeamTask } from '../../../../shared/team'
import type { Tool } from '../../tools/define-tool'
import type { AgentHandle } from '../runs/agent-registry'
import { MEMBER_TOOL_NAMES, TASK_CLAIM } from '../../tools/team-tool-names'
import { createTaskListTools } from './task-list-tools'
import type { TeamManager } from './team-manager'
import { LEAD } from './team-ops'
import { createLeadTools, createMemberTools, createRespondTool } from './team-tools'
import { memberDefinition } from './worker-prompt'

export { LEAD_TOOL_NAMES, MEMBER_TOOL_NAMES, TEAM_TOOL_NAMES } from '../../tools/team-tool-names'
export { TeamBoard } from './team-board'
export { TeamManager, type CreateTeamInput, type TeamHost } from './team-manager'
export { formatTaskList } from './task-format'

/**
 * The team tools an agent gets: the main agent gets the lead's tools it asked for (when teams are on); a
 * member of the active team gets the member tools whatever its definition lists; anyone else gets none.
 */
export function teamToolsFor(m: TeamManager, handle: AgentHandle, opts: { isMain: boolean; wanted: ReadonlySet<string> }): Tool[] {
  const hooks = m.hooks
  const beforeComplete = hooks?.has('TaskCompleted', handle)
    ? (task: TeamTask, team: TeamSnapshot, actor: string) =>
        hooks.taskCompleted(
          handle,
          { id: task.id, subject: task.subject, ...(task.description ? { description: task.description } : {}) },
          team.name,
          actor === LEAD ? undefined : actor
        )
    : undefined
  const taskTools = () => createTaskListTools({ manager: m, actor: () => m.actorOf(handle), ...(beforeComplete ? { beforeComplete } : {}) })
  if (opts.isMain) {
    const tools = [...createLeadTools(m, handle), ...taskTools().filter((t) => t.name !== TASK_CLAIM), createRespondTool(m, handle)]
    return tools.filter((t) => opts.wanted.has(t.name))
  }
  if (!m.memberOf(handle)) return []
  return [...taskTools(), ...createMemberTools(m, handle), createRespondTool(m, handle)]
}

/** Tool names a member of the active team always has (SendMessage included). */
export function memberToolNames(m: TeamManager, handle: AgentHandle): readonly string[] {
  return m.memberOf(handle) ? MEMBER_TOOL_NAMES : []
}

/** A member's definition with the team's instructions before its own body; anyone else's unchanged. */
export function memberDefinitionFor(m: TeamManager, handle: AgentHandle, def: AgentDefinition): AgentDefinition {
  const team = m.active()
  const member = m.memberOf(handle)
  if (!team || !member) return def
  return memberDefinition(def, {
    team: team.name,
    description: team.description,
    name: member.name,
    agentType: def.agentType,
    members: team.members.map((x) => x.name)
  })
}
