// The agent loop's options and result. The orchestration layer (Agent tool, background tasks, resume,
// fork) builds these; the loop knows nothing about subagents beyond the ids it stamps on events.
import type { AgentEndEvent, AgentEvent, AgentLimit, ChatMessage, ContentBlock } from '../../../shared/events'
import type { Usage } from '../../../shared/usage'
import type { ContextOptions } from '../compaction/context-control'
import type { SentHistory } from '../model/request-invariants'
import type { Effort, ModelClient, SystemBlock, ThinkingConfig, ToolUseReady } from '../model/types'
import type { Tool } from '../tools/define-tool'
import type { AfterToolCall, BeforeToolCall } from '../tool-call/verdict'
import type { StopCondition } from './stop/stop-condition'

export interface AgentIds {
  agentId: string
  parentAgentId: string | null
  /** The parent's tool_use id that spawned this agent (null for the main agent). */
  parentToolUseId: string | null
  sessionId: string
}

/** A delivery waiting for the agent's next turn; its id is recorded as consumed with the message that carries it. */
export interface InboxItem {
  text: string
  deliveryId?: string
}

export interface AgentLoopOptions extends AgentIds {
  client: ModelClient
  /** A resolved model id (see resolveModel). */
  model: string
  systemPrompt: string | SystemBlock[]
  /** The conversation so far, for resume and fork. Not re-emitted. */
  messages?: ChatMessage[]
  /** The new user message. Content blocks allow a fork's tool_result placeholders. */
  prompt?: string | ContentBlock[]
  /** The only tools this agent may call; a call to any other is refused. */
  tools: Tool[]
  cwd: string
  /** Model calls allowed; the run ends with status max_turns when it needs more. */
  maxTurns?: number
  /** Where maxTurns comes from when it is not the agent's own (e.g. the setting every agent gets), said when it ends the run. */
  maxTurnsFrom?: string
  /**
   * More stop conditions for this run (its subtree budget, runs/budget.ts), asked with the loop's own in one
   * list (loop/stop/): before each model call for `request` ones.
   */
  stopWhen?: StopCondition[]
  /**
   * Turns in a row whose calls all failed the same way (the same tools, the same errors) before the run
   * ends as failed for making no progress. Default 5; 0 turns the guard off.
   */
  maxRepeatedFailures?: number
  signal?: AbortSignal
  /** Re-injected as a <system-reminder> into the user message that opens every turn. */
  criticalSystemReminder?: string
  /** Steps 2-6 of every tool call (hooks, rules, mode, ask, sandbox: tool-call/); absent means every call is allowed. */
  beforeToolCall?: BeforeToolCall
  /** Step 8 of every tool call (PostToolUse hooks); absent: the tool's result as it is. */
  afterToolCall?: AfterToolCall
  /** Messages to deliver (SendMessage, notifications); drained at the start of every turn, and before the agent would finish. */
  drainInbox?: () => Array<string | InboxItem>
  /** The deliveries the prompt is made of (a run opened by its inbox): recorded as consumed with the message that carries them. */
  promptDeliveries?: string[]
  /**
   * Awaited before a tool that changes anything runs (after its permission): everything the agent has
   * recorded so far is on disk first, so a crash mid-tool leaves a record that the call started. Told which
   * tool: not every one that changes something changes files (ToolMeta.changesFiles: the Agent tool starts an agent).
   */
  writeAhead?: (call: { changesFiles: boolean }) => Promise<void>
  /**
   * Resolves once everything the agent has recorded so far is on disk; awaited before each model request. What
   * the model is sent is then in the transcript, so a resume after a crash (kill -9 while the recorder still
   * held the lines) rebuilds the very history the model saw and extends it, never rewrites it (SentHistory).
   */
  recorded?: () => Promise<void>
  /**
   * The agent's history as it last sent it, across its runs: each request is checked to extend it before it
   * is sent (a rewrite fails the run instead), and a compaction starts it over.
   */
  sentHistory?: SentHistory
  /**
   * Asked after a turn's tool calls ran: texts to add after their results as reminders (the instruction
   * files of the folders and paths they touched, context/nested-instructions.ts).
   */
  afterTools?: (calls: Array<{ name: string; input: unknown; isError: boolean }>) => Promise<string[]>
  /**
   * Asked before a turn's tool calls run, with all of them (a fan-out's estimate and its approval): the calls
   * it answers (by id) are not run, their answer is the result the model gets; its note (the person's words
   * with an approval) goes with the turn's results. A throw refuses nothing. `started` are the calls that
   * started while the reply streamed (startEarly): they cannot be refused.
   */
  beforeTools?: (calls: ReadonlyArray<{ id: string; name: string; input: unknown }>, started: ReadonlySet<string>) => Promise<BeforeToolsAnswer | null>
  /**
   * Asked when the agent would finish (a reply without tool calls, an empty inbox): text it returns becomes the
   * agent's next user message and the run goes on (a SubagentStop hook that blocks). Not asked when the run
   * stops, fails or reaches maxTurns.
   */
  beforeFinish?: (finalText: string) => Promise<string | null | undefined>
  /**
   * Asked after each turn's tool calls and as the agent finishes: a hook said `"continue": false` (its event and
   * stopReason). The run ends there, completed, without another model call (Claude Code's hook_stopped).
   */
  halted?: () => { event: string; reason: string } | null
  thinking?: ThinkingConfig
  effort?: Effort
  maxTokens?: number
  /** Default true. */
  promptCaching?: boolean
  /**
   * A tool call of the reply streamed whole while the reply goes on (StreamHandlers.onToolUse), with the calls
   * before it: for readying what the call will need (a subagent's prompt prefix warmed in the cache). Nothing
   * runs here: the call itself runs with the turn's others once the reply is complete (or started: startEarly).
   */
  toolUseStreamed?: (call: ToolUseReady, sofar: readonly ToolUseReady[]) => void
  /**
   * Whether a call whose input streamed whole may start before the reply ends (loop/early-calls.ts), `sofar` being
   * the reply's calls so far, this one last. Asked only of a call that would run in the reply's first batch
   * (concurrency-safe, as is every call before it). Absent: every call waits for the reply's end. A call it holds
   * back runs with the others then, and is offered to toolUseStreamed instead.
   */
  startEarly?: (call: ToolUseReady, sofar: readonly ToolUseReady[]) => boolean
  /** Context the client may add to the prefix to make it cacheable (ModelRequest.cacheFill). */
  cacheFill?: { text: string; sharers: number }
  /** Cap on concurrency-safe tool calls running at once within one assistant message. Default: no cap. */
  maxToolConcurrency?: number
  /** Context management: compaction at the threshold and on overflow, clearing of old tool results. Absent: none. */
  context?: ContextOptions
  /** Where a tool output larger than its cap is saved whole (the model gets its head and the path). Absent: it is cut. */
  toolOutputDir?: string
}

export type AgentRunStatus = AgentEndEvent['status']

export interface AgentRunResult {
  status: AgentRunStatus
  /** What the parent receives: the final text (with an explanation when the turn limit cut it short). */
  result: string
  /** Why the agent failed (status failed), or why a limit ended it. */
  error?: string
  /** The runaway guard that ended the run, if one did. */
  limit?: AgentLimit
  /**
   * A model call that failed for good ended the run: the HTTP status (null when the API never answered: a
   * dropped or broken stream, no connection) and what the API said, for Claude Code's `API Error: …` result.
   */
  apiError?: { status: number | null; type?: string; message: string }
  /** Model calls made. */
  numTurns: number
  /** Tool calls the model asked for (refused ones included). */
  toolUses: number
  usage: Usage
  durationMs: number
  /** The whole conversation: history, the prompt, and everything this run appended. */
  messages: ChatMessage[]
  model: string
  /** The last model call's stop reason. */
  stopReason: string | null
  /** A hook ended the run (`continue: false`): after a tool call (hook_stopped) or as it finished (stop_hook_prevented); its stopReason. */
  hookStop?: { terminal: 'hook_stopped' | 'stop_hook_prevented'; reason: string }
  /** A UserPromptSubmit hook kept the prompt from the model: blocked it (exit 2, `decision: "block"`) or stopped the run (`continue: false`), with its reason. */
  promptRefused?: { kind: 'blocked_by_hook' | 'stopped_by_hook'; reason: string }
}

export type EmitFn = (event: AgentEvent) => void

/** What `beforeTools` says of a turn's calls: those it refuses (id → the result the model gets), and a note for the model. */
export interface BeforeToolsAnswer {
  refused?: ReadonlyMap<string, string>
  note?: string
}
