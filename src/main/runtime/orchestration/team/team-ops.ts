// The operations a team's log records. Every change to a team — created, a member's status, a task created,
// claimed or updated, a request or its answer — is one of these, appended to the log in one write. The
// team's state is the fold of the log (team-fold.ts), so every reader, in this process or another, agrees
// on it, and an operation's outcome (e.g. which of two racing claims won) is decided by its place in the log.
import type { MemberStatus, TaskStatus, TeamMember, TeamRequestType } from '../../../../shared/team'

/** Who acts: `lead` (the agent that created the team) or a member's name. */
export const LEAD = 'lead'

interface OpBase {
  /** Unique per operation: how a writer finds its outcome after the fold. */
  opId: string
  actor: string
  ts: number
  /** The tool call that made it (TeamCreate, TeamDelete, TaskCreate, TaskClaim, TaskUpdate): a call a crash cut off is answered from its record. */
  toolUseId?: string
}

export type TeamOp = OpBase &
  (
    | {
        op: 'team_create'
        name: string
        description: string
        leadAgentId: string
        /** `prompt`: its task, so a member a crash caught before its launch was recorded can be started on resume. */
        members: Array<Omit<TeamMember, 'status'> & { prompt?: string }>
        /** The first tasks, created with the team in the same write (a crash cannot leave a team without them). */
        tasks?: Array<{ subject: string; description: string; blockedBy: string[] }>
      }
    | { op: 'team_delete' }
    | { op: 'member'; name: string; status: MemberStatus; branch?: string }
    | { op: 'task_create'; subject: string; description: string; blockedBy: string[] }
    /** Claims `taskId`, or with no id the first task anyone may take (lowest id, pending, unowned, unblocked). */
    | { op: 'task_claim'; taskId?: string }
    | {
        op: 'task_update'
        taskId: string
        status?: TaskStatus
        subject?: string
        description?: string
        owner?: string | null
        addBlockedBy?: string[]
        result?: string
      }
    | { op: 'request'; requestId: string; type: TeamRequestType; to: string; content: string }
    | { op: 'respond'; requestId: string; approve: boolean; response?: string }
  )

export type TeamOpInput = TeamOp extends infer O ? (O extends TeamOp ? Omit<O, 'opId' | 'ts'> : never) : never
