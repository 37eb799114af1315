// Shapes of coordinator mode and agent teams that travel in events and reach the UI: the coordinator's
// phases, and a team's snapshot (members, the shared task list, open requests). Pure types and constants.

/** The four phases a coordinator works in, in order. */
export const COORDINATOR_PHASES = ['research', 'synthesis', 'implementation', 'verification'] as const
export type CoordinatorPhase = (typeof COORDINATOR_PHASES)[number]

export const TASK_STATUSES = ['pending', 'in_progress', 'completed'] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]

/** One entry of a team's shared task list. Ids are short numbers ("1", "2", …) so models can say them. */
export interface TeamTask {
  id: string
  subject: string
  description: string
  status: TaskStatus
  /** The member name that claimed it; absent while nobody has. */
  owner?: string
  /** Ids of tasks that must be completed before this one can be claimed. */
  blockedBy: string[]
  /** Member name (or `lead`) that created it. */
  createdBy: string
  createdAt: number
  updatedAt: number
  /** What the owner reported when completing it. */
  result?: string
}

export type MemberStatus = 'starting' | 'working' | 'idle' | 'shutdown' | 'failed'

export interface TeamMember {
  name: string
  agentId: string
  agentType: string
  status: MemberStatus
  model?: string
  color?: string
  /** Its worktree branch when it works isolated. */
  branch?: string
}

export type TeamRequestType = 'shutdown' | 'plan_approval'

/** A shutdown or plan-approval request: sent as a message, answered by one. */
export interface TeamRequest {
  id: string
  type: TeamRequestType
  /** Member name or `lead`. */
  from: string
  to: string
  content: string
  status: 'pending' | 'approved' | 'rejected'
  response?: string
  ts: number
  respondedAt?: number
}

export interface TeamSnapshot {
  name: string
  description: string
  /** The agent that created the team and leads it. */
  leadAgentId: string
  members: TeamMember[]
  tasks: TeamTask[]
  requests: TeamRequest[]
  status: 'active' | 'deleted'
  createdAt: number
}
