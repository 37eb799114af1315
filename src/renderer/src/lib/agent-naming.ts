// How an agent is named wherever agents sit side by side: the task first (the part that differs between
// agents: four "general-purpose" read the same), the type, or a team member's name, second as a small badge.

interface Named {
  agentType: string
  name?: string | null
  description?: string | null
  parentId?: string | null
}

/** What this agent is doing: its task; its name or type when it was given none (the main agent). */
export function agentTask(agent: Named): string {
  return agent.description?.trim() || agent.name || agent.agentType
}

/** The badge next to the task: a team member's name, else its type; nothing when the task already is it. */
export function agentBadge(agent: Named): string | null {
  const badge = agent.name || agent.agentType
  return badge === agentTask(agent) ? null : badge
}

/** The whole name for a tooltip or a screen reader: "Map the parser (Explore)". */
export function agentFullName(agent: Named): string {
  const badge = agentBadge(agent)
  const kind = badge && agent.name && agent.name !== agent.agentType ? `${badge}, ${agent.agentType}` : badge
  return kind ? `${agentTask(agent)} (${kind})` : agentTask(agent)
}
