// The normalized UI state of sessions, built from AgentEvents by reducer.ts. Agents, tools and
// permission requests are maps by id; each agent's transcript is a list of small items that refer to
// tools by id, so a streaming delta touches one agent's last item and nothing else.
import type { PermissionChoice } from '../permission-answer'
import type { AgentLimit, AgentStatus, CommandPart, CompactionTrigger } from '../events'
import type { CoordinatorPhase, TeamSnapshot } from '../team'
import { emptyUsage, type Usage } from '../usage'
import type { AgentBudget, BudgetSource, FanoutEstimate } from '../budget'
import type { InboxMessage } from './inbox-message'

export type TranscriptItem =
  | { kind: 'user'; key: string; text: string; ts: number }
  | { kind: 'text'; key: string; text: string; ts: number; streaming: boolean }
  | { kind: 'thinking'; key: string; text: string; ts: number; streaming: boolean }
  | { kind: 'tool'; key: string; toolUseId: string; ts: number }
  | { kind: 'error'; key: string; message: string; retrying: boolean; ts: number }
  | { kind: 'notice'; key: string; text: string; ts: number }
  /** A built-in command answered in the app (`/cost`…): what was typed and its answer, apart from the conversation. */
  | { kind: 'command'; key: string; command: string; text: string; ts: number }
  | CompactionItem
  | InboxItem

/**
 * Where a conversation was compacted (everything above it stays in the transcript): while it runs, then with
 * its summary, or with why it failed.
 */
export interface CompactionItem {
  kind: 'compaction'
  key: string
  ts: number
  trigger: CompactionTrigger
  state: 'running' | 'done' | 'failed'
  tokensBefore: number
  tokensAfter?: number
  summary?: string
  error?: string
}

/** An agent's context window as its events report it: the meter on its panel, card and header. */
export interface AgentContext {
  /** The conversation's size in tokens as of its latest model call (or compaction); null before the first. */
  tokens: number | null
  window: number
  /** Auto-compaction happens past this. */
  threshold: number
  autoCompact: boolean
  /** A compaction is under way. */
  compacting: boolean
  /** Compactions done so far. */
  compactions: number
  /** When each compaction happened (the timeline's marks). */
  compactedAt: number[]
}

/** A message delivered to the agent (inbox-reducer.ts). `from`: the sender's agent id, `user` or `fanout`. */
export interface InboxItem {
  kind: 'inbox'
  key: string
  ts: number
  from: string
  /** The sending agent's name or type, when it is an agent of the session. */
  fromName?: string
  message: InboxMessage
}

export type ToolStatus = 'streaming' | 'pending' | 'running' | 'done' | 'error' | 'cancelled'

export interface ToolCall {
  id: string
  agentId: string
  name: string
  status: ToolStatus
  /** The input JSON as it streams in (partial until the call runs). */
  inputJson: string
  input: unknown
  output?: string
  details?: unknown
  /** The latest tool_update details (progress). */
  progress?: unknown
  startedAt: number
  runStartedAt?: number
  endedAt?: number
  durationMs?: number
  /** The tool's own run, without what came before it (hooks, the sandbox's start, the person's answer). */
  runMs?: number
  /** For Agent/Task calls: the subagent it started. */
  childAgentId?: string
  /** A permission request waiting on this call. */
  permissionRequestId?: string
}

/** Queued for a slot, waiting on a permission answer, or waiting on the model (a request out, nothing streamed yet). */
export type WaitKind = 'queued' | 'permission' | 'model'
export interface WaitSpan {
  kind: WaitKind
  start: number
  end: number | null
}

export interface AgentState {
  id: string
  sessionId: string
  parentId: string | null
  parentToolUseId: string | null
  agentType: string
  name?: string
  description: string
  prompt: string
  /** As configured (alias or id). */
  model: string
  /** As reported by the API for the latest call. */
  resolvedModel?: string
  cwd: string
  depth: number
  maxTurns?: number
  color?: string
  background: boolean
  tools: string[]
  worktree?: { path: string; branch: string; kept?: boolean; commit?: string }
  status: AgentStatus
  statusDetail?: string
  startedAt: number
  endedAt: number | null
  /** When the latest run began (a resume, a follow-up, a delivery). */
  runStartedAt?: number
  /** Time spent in the runs before the latest: elapsed time is work time, not the hours between a crash and its resume. */
  priorRunsMs?: number
  /** Turns used in the current run. */
  turn: number
  toolUses: number
  /** This agent's own usage (children excluded). */
  usage: Usage
  /**
   * Tokens of the conversation as of the latest model call (its prompt, cached or not, plus its reply):
   * what the next request sends, against the model's context window (see view/context-use.ts).
   */
  contextTokens?: number
  result?: string
  /** Why the agent failed, in words. */
  error?: string
  /** The runaway guard that ended its last run, if one did (shown instead of the bare status). */
  limit?: AgentLimit
  /** The latest error, retrying or not. */
  lastError?: { message: string; retrying: boolean; ts: number }
  children: string[]
  /** Every tool call, in start order (the timeline's marks). */
  toolIds: string[]
  currentToolId: string | null
  /** Spans spent waiting, oldest first; only the last may be open (end null): what the agent waits on now. */
  waits: WaitSpan[]
  /** 1, plus one per resume (follow-up prompt). */
  runs: number
  /** Placeholder for an agent seen only through other events (a truncated transcript). */
  unknown?: boolean
  /** Coordinator mode: the phase in force when this agent last started (its group in the panels). */
  phase?: CoordinatorPhase
  /** Its context window and how full it is; absent in transcripts from before it was recorded. */
  context?: AgentContext
  /** What it and its subagents may spend, and from where (see view/budget-use.ts for how far in they are). */
  budget?: AgentBudget & { from: BudgetSource }
  /** The last budget event: past its warning share, or reached (its subtree stopped). */
  budgetLevel?: 'warning' | 'reached'
  /** @internal counter for item keys. */
  itemSeq: number
  /** @internal the key of the "Retrying…" item of a model call not yet over (see resolveRetry). */
  retryKey?: string
  /** @internal index in this agent's items where the assistant message being streamed begins. */
  streamFrom: number | null
  /** @internal own usage when the current run began (agent_end reports the run's usage). */
  usageAtRunStart: Usage
  /** @internal texts delivered and shown, not yet read by the model (the user message that carries one is not shown again). */
  unread?: string[]
  /** @internal deliveries that arrived while a reply streamed: shown when it ends. */
  held?: Array<Omit<InboxItem, 'key'>>
}

export interface PermissionState {
  requestId: string
  sessionId: string
  /** The agent whose queue the request reached (differs from requestingAgentId when bubbled). */
  agentId: string
  requestingAgentId: string
  toolName: string
  toolUseId?: string
  input: unknown
  reason: string
  /** What "Always allow" adds (see PermissionRequestEvent). */
  suggestedRules: string[]
  /** A compound command part by part: which parts the rules cover (see PermissionRequestEvent). */
  commandParts?: CommandPart[]
  /** An overwriting Write: the file's text when it asked (see PermissionRequestEvent). */
  previousText?: string
  ts: number
  decision?: PermissionChoice | 'expired'
  /** What the person said with the answer. */
  feedback?: string
  respondedAt?: number
}

export interface SessionState {
  id: string
  rootAgentId: string | null
  agents: Record<string, AgentState>
  /** Agent ids in start order. */
  agentOrder: string[]
  items: Record<string, TranscriptItem[]>
  tools: Record<string, ToolCall>
  /** How many tools there are: a session's tools may arrive a page at a time (see session-pages.ts). */
  toolCount: number
  permissions: Record<string, PermissionState>
  /** Pending request ids, oldest first. */
  permissionQueue: string[]
  /** Every agent's usage added up. */
  usage: Usage
  startedAt: number | null
  lastEventTs: number
  eventCount: number
  /** Coordinator mode: the phases entered so far, in order (the last is the current one). */
  phases: PhaseEntry[]
  /** The session's agent team as last reported, and the messages among its members. */
  team: TeamSnapshot | null
  teamMessages: TeamMessage[]
  /** The latest fan-out estimate of each agent that started subagents, by agent id (absent in older views). */
  estimates?: Record<string, FanoutEstimate>
}

export interface PhaseEntry {
  phase: CoordinatorPhase
  note?: string
  ts: number
}

/** A message between team members (or the lead), as the team board lists it. */
export interface TeamMessage {
  key: string
  ts: number
  /** Member names, or `lead`. */
  from: string
  to: string
  summary?: string
  /** The message without its envelope, shortened. */
  text: string
}

export interface EventsState {
  sessions: Record<string, SessionState>
}

export const emptyEventsState = (): EventsState => ({ sessions: {} })

export function emptySession(id: string): SessionState {
  return {
    id,
    rootAgentId: null,
    agents: {},
    agentOrder: [],
    items: {},
    tools: {},
    toolCount: 0,
    permissions: {},
    permissionQueue: [],
    usage: emptyUsage(),
    startedAt: null,
    lastEventTs: 0,
    eventCount: 0,
    phases: [],
    team: null,
    teamMessages: []
  }
}

export const ACTIVE_STATUSES: ReadonlySet<AgentStatus> = new Set<AgentStatus>(['queued', 'running', 'waiting_permission'])
export const isActive = (status: AgentStatus): boolean => ACTIVE_STATUSES.has(status)

/** Tools that start a subagent. */
export const AGENT_TOOL_NAMES: ReadonlySet<string> = new Set(['Agent', 'Task'])
