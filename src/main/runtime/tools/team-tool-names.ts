// Team tool names (Claude Code's where it has them: TeamCreate, TeamDelete, TaskCreate, TaskList, TaskGet,
// TaskUpdate), and which of them the lead and the members get. Kept below orchestration (which builds the
// tools) so that permissions and the coordinator's tool list read the same names.
export const TEAM_CREATE = 'TeamCreate'
export const TEAM_DELETE = 'TeamDelete'
export const TASK_CREATE = 'TaskCreate'
export const TASK_LIST = 'TaskList'
export const TASK_GET = 'TaskGet'
export const TASK_UPDATE = 'TaskUpdate'
export const TASK_CLAIM = 'TaskClaim'
export const REQUEST_SHUTDOWN = 'RequestShutdown'
export const REQUEST_PLAN_APPROVAL = 'RequestPlanApproval'
export const RESPOND_TO_REQUEST = 'RespondToRequest'

/** The lead's team tools (the main agent, when teams are on). */
export const LEAD_TOOL_NAMES: readonly string[] = [
  TEAM_CREATE,
  TEAM_DELETE,
  TASK_CREATE,
  TASK_LIST,
  TASK_GET,
  TASK_UPDATE,
  REQUEST_SHUTDOWN,
  RESPOND_TO_REQUEST
]

/** What every member gets on top of its definition's tools (SendMessage is the session's own tool). */
export const MEMBER_TOOL_NAMES: readonly string[] = [
  'SendMessage',
  TASK_LIST,
  TASK_GET,
  TASK_CREATE,
  TASK_CLAIM,
  TASK_UPDATE,
  REQUEST_PLAN_APPROVAL,
  RESPOND_TO_REQUEST
]

/** Every team tool name, for tool resolution (a definition may list them). */
export const TEAM_TOOL_NAMES: readonly string[] = [...new Set([...LEAD_TOOL_NAMES, ...MEMBER_TOOL_NAMES.filter((t) => t !== 'SendMessage')])]

/** Tools only a lead may have: a member never creates, deletes or shuts down a team (no nested teams). */
export const LEAD_ONLY: ReadonlySet<string> = new Set([TEAM_CREATE, TEAM_DELETE, REQUEST_SHUTDOWN])
