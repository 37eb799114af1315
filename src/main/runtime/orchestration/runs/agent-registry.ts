// Every agent of a session, by id: its place in the tree, its status, its conversation, and the handle
// that stops it. A handle outlives its runs: a finished agent can be resumed, messaged or inspected.
import type { AgentDefinition, PermissionMode } from '../../../../shared/agent-definition'
import type { AgentEvent, AgentStatus, ChatMessage } from '../../../../shared/events'
import { addUsage, emptyUsage, type Usage } from '../../../../shared/usage'
import type { AgentBudget, BudgetSource } from '../../../../shared/budget'
import type { AgentRunResult, InboxItem } from '../../loop/types'
import type { SentHistory } from '../../model/request-invariants'
import type { SlotLease } from './limits'
import type { NestedInstructions } from '../../context/nested-instructions'
import type { PermissionRule } from '../../permissions/rules'
import { monotonicMs } from '../../clock'

export interface AgentHandle {
  id: string
  parentId: string | null
  /** The parent's tool_use id that spawned this agent (or, after a resume, the call that resumed it). */
  parentToolUseId: string | null
  depth: number
  agentType: string
  definition: AgentDefinition | null
  name?: string
  /** The Agent tool's `description` (the main agent: its prompt's first line). */
  description?: string
  model: string
  cwd: string
  permissionMode: PermissionMode
  /** Agent types this agent may spawn (from `Agent(a, b)` in its tools); undefined = any. */
  allowedAgentTypes?: string[]
  /** Written only by `AgentRegistry.note`, from the agent's events. */
  status: AgentStatus
  /** Aborting it stops this agent's current run; a new run gets a new controller. */
  abort: AbortController
  stoppedByUser: boolean
  /** Deliveries waiting for the agent's next turn (consumed when the turn that carries them is written). */
  inbox: InboxItem[]
  /** Every delivery id this agent has received (from its transcript too): the same item arriving again is not delivered twice. */
  received: Set<string>
  /** Own usage (not including children). */
  usage: Usage
  startedAt: number
  /** The conversation as it stands (history plus what the current run appended); written only by `note`, from `message` events. */
  messages: ChatMessage[]
  /** The run in progress (queued or running); null when the agent is idle. Not used for the main agent. */
  run: Promise<AgentRunResult> | null
  /** The concurrency slot its run holds (see SlotLease); absent while queued or idle, and for the main agent. */
  slot?: SlotLease | null
  /** The last finished run. */
  lastResult?: AgentRunResult
  /** Its history as last sent to the model in this process (see SentHistory): never rewritten, until a compaction. */
  sentHistory?: SentHistory
  /** Turns over every run. */
  turnCount: number
  /**
   * When this agent last emitted an event (stall detection), on the monotonic clock: a laptop's sleep or a
   * clock set forward is not time the agent was quiet.
   */
  lastEventAt: number
  /** The tools it was resolved to, kept so a resume gets the same set. */
  toolNames?: string[]
  /** Its system prompt as last built (a fork of this agent inherits it). */
  systemPrompt?: string
  background?: boolean
  /** Agents one message started with the same type and model, itself included: they share a prompt prefix. */
  sharers?: number
  /** The start its prompt shares with those siblings' (spawn.ts briefOf): context for their shared prefix. */
  brief?: string
  /** `subagent_type: "fork"`: a copy of its parent; it cannot spawn agents. */
  fork?: boolean
  /** Runs in its own git worktree, created from this checkout (the parent's cwd). */
  isolation?: { repoCwd: string }
  /** Its worktree while one exists (kept between runs when it holds work); `hookBased`: a WorktreeCreate hook made it. */
  worktree?: { path: string; branch: string; hookBased?: boolean }
  /** Readable log of a background agent's output, returned to the parent as `outputFile`. */
  outputFile?: string
  /** Set by TaskStop: the parent stopped it itself and gets no notification. */
  quiet?: boolean
  /** How hard it thinks: the Agent call's `effort`, else its definition's (see model/effort.ts). */
  effort?: string | number
  /** A slash command's `allowed-tools` while the main agent runs its prompt (commands/): allowed without asking. */
  commandRules?: PermissionRule[]
  /**
   * After a restart, for an agent cut off before its first turn was written (so it has no conversation):
   * the task its run was started with, to start it again from (its agent_start, or its launch record).
   */
  task?: string
  /** A compaction the person asked for while the agent runs: taken before its next model request. */
  compactRequest?: { instructions?: string }
  /** A compaction of the idle agent in progress: a run that starts meanwhile waits for it. */
  compacting?: Promise<unknown>
  /** Its own memory folder (`memory:` in its definition), found when its prompt is built: writable in every mode. */
  memoryDir?: string
  /** Notes for its first turn, as system reminders (e.g. why it has no Agent tool). */
  startNotes?: string[]
  /** What it and every agent under it may spend (its Agent call's, its definition's, or the setting's); see runs/budget.ts. */
  budget?: AgentBudget & { from: BudgetSource }
  /** The last budget event it sent (`warning …`/`reached …` and the budget): each is said once per budget. */
  budgetNoted?: string
  /** Which subfolder CLAUDE.md files and path rules it was given (once each), made at its first run. */
  instructions?: NestedInstructions | null
}

/** The fields every new handle starts with: who the agent is comes from the caller, its run state from here. */
export type AgentIdentity = Omit<
  AgentHandle,
  'status' | 'abort' | 'stoppedByUser' | 'inbox' | 'received' | 'usage' | 'startedAt' | 'messages' | 'run' | 'turnCount' | 'lastEventAt'
> &
  Partial<Pick<AgentHandle, 'status' | 'messages'>>

export function newAgentHandle(identity: AgentIdentity): AgentHandle {
  const now = Date.now()
  return {
    status: 'queued',
    messages: [],
    ...identity,
    abort: new AbortController(),
    stoppedByUser: false,
    inbox: [],
    received: new Set(),
    usage: emptyUsage(),
    startedAt: now,
    run: null,
    turnCount: 0,
    lastEventAt: monotonicMs()
  }
}

export class AgentRegistry {
  private readonly agents = new Map<string, AgentHandle>()

  add(handle: AgentHandle): void {
    this.agents.set(handle.id, handle)
  }

  get(id: string): AgentHandle | undefined {
    return this.agents.get(id)
  }

  /** By id, or by the `name` given at spawn (the most recent agent with that name). */
  find(idOrName: string): AgentHandle | undefined {
    const byId = this.agents.get(idOrName)
    if (byId) return byId
    const named = [...this.agents.values()].filter((a) => a.name === idOrName)
    return named[named.length - 1]
  }

  /**
   * The fold of the session's events into its agents' handles, and the only writer of an agent's status and
   * conversation while it lives (a handle is only built with them, when it is created or reloaded from disk):
   * state written both directly and from events drifts apart.
   */
  note(event: AgentEvent): void {
    const handle = this.agents.get(event.agentId)
    if (!handle) return
    handle.lastEventAt = monotonicMs()
    if (event.type === 'usage') handle.usage = addUsage(handle.usage, event.usage)
    else if (event.type === 'agent_start') handle.status = 'running'
    else if (event.type === 'agent_end') handle.status = event.status
    else if (event.type === 'status') handle.status = event.status
    else if (event.type === 'turn_start') handle.turnCount++
    else if (event.type === 'message') handle.messages.push(event.message)
    else if (event.type === 'compaction' && event.messages) {
      handle.messages = [...event.messages]
      handle.sentHistory?.compacted()
    }
  }

  /** Whether the agent is at work in this process: a run in progress, or a status that is not final. */
  isLive(id: string): boolean {
    const h = this.agents.get(id)
    return !!h && (h.run !== null || !isFinished(h.status))
  }

  all(): AgentHandle[] {
    return [...this.agents.values()]
  }

  children(id: string): AgentHandle[] {
    return this.all().filter((a) => a.parentId === id)
  }

  /** Own usage of the agent plus all its descendants. */
  subtreeUsage(id: string): Usage {
    const self = this.agents.get(id)
    let total = self ? self.usage : emptyUsage()
    for (const child of this.children(id)) total = addUsage(total, this.subtreeUsage(child.id))
    return total
  }

  totalUsage(): Usage {
    return this.all().reduce((sum, a) => addUsage(sum, a.usage), emptyUsage())
  }

  /**
   * Stops an agent and every descendant, background ones included (they are not linked to the parent's
   * signal, since they outlive the call that started them). Returns false when it was not running.
   */
  stop(id: string, byUser: boolean): boolean {
    const handle = this.agents.get(id)
    if (!handle) return false
    const running = handle.run !== null || !isFinished(handle.status)
    const reason = new Error(byUser ? 'stopped by the user' : 'stopped')
    const visit = (h: AgentHandle, seen: Set<string>) => {
      if (seen.has(h.id)) return
      seen.add(h.id)
      // A run that has not started yet has no agent_start, so its status may still read as finished.
      if (h.run !== null || !isFinished(h.status)) {
        if (byUser) h.stoppedByUser = true
        h.abort.abort(reason)
      }
      for (const child of this.children(h.id)) visit(child, seen)
    }
    visit(handle, new Set())
    handle.abort.abort(reason)
    return running
  }
}

/**
 * The one writer of an agent's worktree once its handle exists (a reopened agent's handle is built with the
 * one its state saved, runs/resume.ts): `at` places it there, its cwd the folder it works in; undefined says
 * the worktree is gone (its cwd stays: an isolated agent's next run makes or reattaches one before it runs).
 */
export function setAgentWorktree(handle: AgentHandle, at: (NonNullable<AgentHandle['worktree']> & { cwd: string }) | undefined): void {
  if (!at) {
    handle.worktree = undefined
    return
  }
  const { cwd, ...worktree } = at
  handle.cwd = cwd
  handle.worktree = worktree
}

export function isFinished(status: AgentStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'stopped' || status === 'max_turns' || status === 'interrupted'
}
