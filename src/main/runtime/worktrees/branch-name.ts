// The branch an agent's work lands on: `fanout/<agentId>`.
export const BRANCH_PREFIX = 'fanout/'

export function branchFor(agentId: string): string {
  return `${BRANCH_PREFIX}${agentId}`
}
