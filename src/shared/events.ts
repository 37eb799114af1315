// The closed AgentEvent union: the one stream that transcripts, the UI and the CLI consume.
// Every event names the agent it belongs to, that agent's parent, and the parent's tool_use id that spawned it.
import type { CoordinatorPhase, TeamSnapshot } from './team'
import type { Usage } from './usage'
import type { AgentBudget, BudgetSource, FanoutEstimate, Spend } from './budget'
import type { PermissionChoice } from './permission-answer'

export type AgentStatus =
  | 'queued'
  | 'running'
  | 'waiting_permission'
  | 'completed'
  | 'failed'
  | 'stopped'
  | 'max_turns'
  /** Cut off mid-run when Fanout stopped (crash, kill, quit without a clean stop): final until resumed. */
  | 'interrupted'

/** Message content as sent to / received from the Messages API (a subset that we persist). */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string | Array<{ type: 'text'; text: string }>; is_error?: boolean }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }

export interface ChatMessage {
  role: 'user' | 'assistant'
  content: string | ContentBlock[]
}

/** A message's content as blocks: a plain-string content is one text block. */
export const contentBlocks = (message: ChatMessage): ContentBlock[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content

export interface EventBase {
  agentId: string
  parentAgentId: string | null
  parentToolUseId: string | null
  sessionId: string
  /** Milliseconds since the epoch. */
  ts: number
  /**
   * The event's place in its session's stream: strictly increasing, in microseconds since the epoch (or
   * one more than the last when events come faster), so a reopened session can tell which live events its
   * transcripts already hold. An event merged from several deltas carries the last one's. Every event
   * a transcript reader returns has one: lines written before it existed (format version 1) get it from
   * their time on read (store/transcript/migrations.ts).
   */
  seq?: number
  /**
   * On a transcript line that merged several deltas (store/transcript/format.ts): the seq of the first.
   * Between it and `seq` other agents' events happened while this line's text was only partly shown.
   */
  firstSeq?: number
}

export interface AgentStartEvent extends EventBase {
  type: 'agent_start'
  agentType: string
  /** Short task label (the Agent tool's `description`), or the prompt's first line for the main agent. */
  description: string
  prompt: string
  model: string
  cwd: string
  depth: number
  maxTurns?: number
  color?: string
  background?: boolean
  name?: string
  tools: string[]
  worktree?: { path: string; branch: string }
  /** What it and its subagents may spend, and from where (absent: no budget of its own). */
  budget?: AgentBudget & { from: BudgetSource }
  /** The model's context window and the size at which the conversation is compacted (tokens); absent in older transcripts. */
  context?: ContextLimits
}

export interface ContextLimits {
  /** The model's context window. */
  window: number
  /** Past this many tokens, the conversation is compacted before the next request (auto-compaction), if it is on. */
  threshold: number
  /** Whether the conversation is compacted automatically at the threshold. */
  autoCompact: boolean
}

/**
 * Which runaway guard ended a run: the turn ceiling (its own maxTurns or the setting every agent gets), the
 * same failing call repeated without progress, the session's budget (tokens or dollars), or a model call whose
 * retries took longer than allowed. The status says how it ended; `error` says why, in words.
 */
export type AgentLimit = 'max_turns' | 'no_progress' | 'budget' | 'retry_time' | 'spawn_limit'

export interface AgentEndEvent extends EventBase {
  type: 'agent_end'
  status: Exclude<AgentStatus, 'queued' | 'running' | 'waiting_permission'>
  /** The agent's final text (what the parent receives). */
  result: string
  /** Why it failed or stopped short (a limit's reason too), for people. */
  error?: string
  /** Set when a runaway guard ended the run (see AgentLimit). */
  limit?: AgentLimit
  /**
   * The report this run owes an agent that did not await it (a background run's <task-notification>),
   * recorded before it is handed over: after a crash, a report whose delivery id reached nobody is delivered
   * then, once (see DeliveryLedger).
   */
  report?: ReportIntent
  numTurns: number
  toolUses: number
  durationMs: number
  /** This agent's own usage (not including children). */
  usage: Usage
  worktree?: { path: string; branch: string; kept: boolean; commit?: string }
}

export interface ReportIntent {
  /** The agent it goes to (after forwarding to a running ancestor). */
  to: string
  deliveryId: string
  text: string
  summary: string
  /** Whether delivering it may start the recipient (not when the person stopped the run). */
  wake: boolean
}

export interface StatusEvent extends EventBase {
  type: 'status'
  status: AgentStatus
  detail?: string
}

export interface TurnStartEvent extends EventBase {
  type: 'turn_start'
  turn: number
}

export interface TurnEndEvent extends EventBase {
  type: 'turn_end'
  turn: number
  stopReason: string | null
}

/**
 * A request to the model went out (the turn's first attempt, or a retry after its wait). Until the reply's
 * first delta (or its end, or an error) the agent is waiting on the model: nothing streams, but it is not stuck.
 */
export interface ModelRequestEvent extends EventBase {
  type: 'model_request'
  model: string
  /** 1 for the first attempt; more for retries of the same call. */
  attempt: number
}

export interface TextDeltaEvent extends EventBase {
  type: 'text_delta'
  text: string
}

export interface ThinkingDeltaEvent extends EventBase {
  type: 'thinking_delta'
  text: string
}

/** A complete message appended to the agent's conversation (user prompt, assistant reply, tool results). */
export interface MessageEvent extends EventBase {
  type: 'message'
  message: ChatMessage
  /**
   * The deliveries (message_received deliveryIds) this user message hands the agent: once it is written
   * they are consumed, never delivered again; one received and not consumed is delivered after a restart.
   */
  deliveries?: string[]
}

/**
 * Blocks of the assistant's reply that streamed whole while the rest of it still streams, recorded before a
 * call among them starts (loop/early-calls.ts): each event adds the blocks after the previous one's. A crash
 * before the reply is complete resumes with this much of it, so a call that ran is in the conversation and
 * answered; the reply's `message` replaces them once it is complete.
 */
export interface ReplyBlocksEvent extends EventBase {
  type: 'reply_blocks'
  blocks: ContentBlock[]
}

export interface ToolStartEvent extends EventBase {
  type: 'tool_start'
  toolUseId: string
  name: string
}

export interface ToolInputDeltaEvent extends EventBase {
  type: 'tool_input_delta'
  toolUseId: string
  partialJson: string
}

/** The tool's input is complete and it begins to run. */
export interface ToolRunEvent extends EventBase {
  type: 'tool_run'
  toolUseId: string
  name: string
  input: unknown
}

export interface ToolUpdateEvent extends EventBase {
  type: 'tool_update'
  toolUseId: string
  details: unknown
}

export interface ToolEndEvent extends EventBase {
  type: 'tool_end'
  toolUseId: string
  name: string
  isError: boolean
  /** What the model receives (possibly truncated). */
  output: string
  /** Structured details for the UI (e.g. a spawned subagent's id). */
  details?: unknown
  /** From the call's hand-off to its result: hooks, rules, the sandbox's start and the person's answer included. */
  durationMs: number
  /** How long the tool itself ran, from the moment it was let run to its result; absent when it never ran
   *  (invalid input, denied). Absent in transcripts written before it was recorded. */
  runMs?: number
}

export interface UsageEvent extends EventBase {
  type: 'usage'
  /** Usage of the model call that just finished. */
  usage: Usage
  model: string
  /**
   * `compaction`: the call that summarised the conversation; `cache_warm`: a request that wrote the prompt
   * prefix of subagents this agent is starting to the cache ahead of them (orchestration/spawn/warm-spawn.ts).
   * Each is billed like any other, but its size says nothing about the conversation's, so it does not move the
   * context meter, and it is no answer to the agent's own call.
   */
  purpose?: 'compaction' | 'cache_warm'
}

/** Why a conversation was compacted. */
export type CompactionTrigger = 'auto' | 'overflow' | 'manual'

/** The conversation is being summarised (the agent waits until `compaction` arrives). */
export interface CompactionStartEvent extends EventBase {
  type: 'compaction_start'
  trigger: CompactionTrigger
  /** The conversation's size (tokens, estimated) when it began. */
  tokensBefore: number
}

/**
 * The end of a compaction. Done: from here on the agent's conversation is `messages` (a summary of what came
 * before, then its most recent turns as they were); everything before stays in the transcript. Failed:
 * `error` says why, and the conversation goes on unchanged.
 */
export interface CompactionEvent extends EventBase {
  type: 'compaction'
  trigger: CompactionTrigger
  tokensBefore: number
  /** The summary the model wrote of the compacted part. */
  summary?: string
  /** The whole conversation after the compaction. */
  messages?: ChatMessage[]
  /** Messages replaced by the summary; the rest of the conversation was kept as it was. */
  summarized?: number
  /** The conversation's size after it (tokens, estimated). */
  tokensAfter?: number
  /** Why it failed; the conversation was kept whole. */
  error?: string
  durationMs: number
}

export interface ErrorEvent extends EventBase {
  type: 'error'
  message: string
  /** True when the runtime will retry; false when the error ends the agent. */
  retrying: boolean
  /** On a retry: the attempt that failed (1-based), of `maxAttempts` in all, the next one in `delayMs`. */
  attempt?: number
  maxAttempts?: number
  delayMs?: number
  /** Something the person should know that stops nothing (e.g. the Bash sandbox is unavailable): said once. */
  notice?: boolean
  /** With notice: the model was overloaded and the fallback model answers from now on (--fallback-model). */
  modelFallback?: { from: string; to: string }
}

/**
 * One part of a compound Bash command (`du -sh . && node --version`) and what lets it run: read-only (runs
 * without asking), an allow rule already in force, the rule "Always allow" would add, or nothing (it is asked
 * about every time: a construct allow rules never cover).
 */
export interface CommandPart {
  command: string
  covered: 'read-only' | 'allowed' | 'rule' | 'asks'
  /** The allow rule in force ('allowed') or the one "Always" adds ('rule'). */
  rule?: string
}

export interface PermissionRequestEvent extends EventBase {
  type: 'permission_request'
  requestId: string
  toolName: string
  input: unknown
  reason: string
  /** The agent whose tool call needs approval (differs from agentId when the request bubbled up). */
  requestingAgentId: string
  /** The tool call awaiting approval, so the UI can show the request on that call's row. */
  toolUseId?: string
  /** The rules "Always allow" adds for the rest of the session, e.g. `Bash(npm test:*)`; none when a rule asks. */
  suggestedRules?: string[]
  /** A compound Bash command, part by part: which parts the suggested rules cover, and why the others may run. */
  commandParts?: CommandPart[]
  /** An overwriting Write: the file's text now, so the approval shows the diff it makes (absent for a new file, or one too large or not to be shown). */
  previousText?: string
}

export interface PermissionResponseEvent extends EventBase {
  type: 'permission_response'
  requestId: string
  decision: PermissionChoice
  reason?: string
  /** What the person said to the agent with the answer (its tool result carries it too). */
  feedback?: string
}

/** A message delivered to this agent (SendMessage, task notification). */
export interface MessageReceivedEvent extends EventBase {
  type: 'message_received'
  from: string
  text: string
  summary?: string
  /** Names the delivery: the same item received again (a retry, a restart) is recognised and not delivered twice. */
  deliveryId?: string
}

/** Coordinator mode: the coordinator entered a phase; agents it starts from now on belong to it. */
export interface PhaseEvent extends EventBase {
  type: 'phase'
  phase: CoordinatorPhase
  /** What the coordinator said this phase is for. */
  note?: string
}

/** An agent team changed (members, tasks, requests): the whole team as it now stands. */
export interface TeamEvent extends EventBase {
  type: 'team'
  team: TeamSnapshot
}

/**
 * A budget this agent carries (its own, or the session's on the main agent) crossed its warning share, or was
 * reached: then this agent and every agent under it stop at their next model call.
 */
export interface BudgetEvent extends EventBase {
  type: 'budget'
  level: 'warning' | 'reached'
  limit: AgentBudget
  from: BudgetSource
  /** What the agent and its subtree had spent (the whole session's, for the session's budget). */
  spent: Spend
}

/** What the Agent calls of one assistant message are expected to cost, before any of them starts. */
export interface EstimateEvent extends EventBase {
  type: 'estimate'
  estimate: FanoutEstimate
}

/**
 * A built-in command a person typed in the app's prompt box (`/cost`, `/context`, `/model`, `/help`, `/clear`),
 * answered where it was typed without a model call (orchestration/session/prompt-plan.ts, host/app-builtins.ts).
 * Never part of the conversation the model sees.
 */
export interface CommandOutputEvent extends EventBase {
  type: 'command_output'
  /** As typed: `/cost`. */
  command: string
  /** The answer, Markdown (Claude Code's words where it has them). */
  text: string
}

export type AgentEvent =
  | AgentStartEvent
  | AgentEndEvent
  | StatusEvent
  | TurnStartEvent
  | TurnEndEvent
  | ModelRequestEvent
  | TextDeltaEvent
  | ThinkingDeltaEvent
  | MessageEvent
  | ReplyBlocksEvent
  | ToolStartEvent
  | ToolInputDeltaEvent
  | ToolRunEvent
  | ToolUpdateEvent
  | ToolEndEvent
  | UsageEvent
  | ErrorEvent
  | PermissionRequestEvent
  | PermissionResponseEvent
  | MessageReceivedEvent
  | PhaseEvent
  | TeamEvent
  | CompactionStartEvent
  | CompactionEvent
  | BudgetEvent
  | EstimateEvent
  | CommandOutputEvent

export type AgentEventType = AgentEvent['type']

/** Distributes Omit over the union so callers can build an event without the base fields. */
export type EventPayload<E = AgentEvent> = E extends AgentEvent ? Omit<E, keyof EventBase> : never
