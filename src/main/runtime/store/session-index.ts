// The session index (`session.json`): the agent tree, each agent's status and usage, and session totals.
// Built by folding AgentEvents, the same way live (the recorder) and after a restart (replaying
// transcripts), so the two can never disagree about what an event means.
import { redactText } from '../../../shared/redact'
import { z } from 'zod'
import { lazy } from '../../../shared/lazy'
import { continuesTask } from '../../../shared/run-opening'
import { endsOnQuestion } from '../../../shared/view/question'
import type { AgentEvent, AgentStatus } from '../../../shared/events'
import { addUsage, emptyUsage, type Usage } from '../../../shared/usage'

export const SESSION_INDEX_VERSION = 1

/** A session whose agents were still running when its writer went away (crash, quit) is `interrupted`. */
export type SessionStatus = AgentStatus

export interface AgentRecord {
  agentId: string
  parentAgentId: string | null
  parentToolUseId: string | null
  agentType: string
  description: string
  status: AgentStatus
  model: string
  startedAt: number
  endedAt?: number
  /** This agent's own usage (children excluded; see subtreeUsage). */
  usage: Usage
  worktree?: { path: string; branch: string; kept?: boolean; commit?: string }
  name?: string
  depth: number
  cwd?: string
  background?: boolean
  /** Turns started, over every run (resumes included). */
  turnCount: number
  toolUses: number
  /** Times the agent was started: 1, plus one per resume. */
  runs: number
  error?: string
  /** Its last run completed on a question to the person (endsOnQuestion of its result): a session row says "Asks you" after a restart too. */
  asksYou?: boolean
}

export interface SessionIndex {
  version: number
  sessionId: string
  createdAt: number
  updatedAt: number
  cwd: string
  /** The first line of the main agent's first prompt. */
  title: string
  status: SessionStatus
  agents: Record<string, AgentRecord>
  /** Sum over all agents. */
  usage: Usage
  costUsd: number
  /** The process recording this session right now; null once it closed. Used to spot interrupted sessions. */
  /** The process recording the session (processStart tells it from a later process given the same pid). */
  writer: { pid: number; hostname: string; processStart?: string | null } | null
}

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'stopped', 'max_turns', 'interrupted'])
export const isTerminalStatus = (status: string): boolean => TERMINAL.has(status)

const TITLE_MAX = 120

export function titleFromPrompt(prompt: string): string {
  // Written to session.json and shown in every list: a credential pasted into the prompt stays out of it.
  const line =
    redactText(prompt)
      .split('\n')
      .find((l) => l.trim()) ?? ''
  const t = line.trim()
  return t.length > TITLE_MAX ? t.slice(0, TITLE_MAX - 1) + '…' : t
}

export function emptyIndex(sessionId: string, cwd: string, now: number): SessionIndex {
  return {
    version: SESSION_INDEX_VERSION,
    sessionId,
    createdAt: now,
    updatedAt: now,
    cwd,
    title: '',
    status: 'queued',
    agents: {},
    usage: emptyUsage(),
    costUsd: 0,
    writer: null
  }
}

/** Folds events into an index. Mutates the index it holds, for speed on the hot path; `snapshot()` copies. */
export class SessionIndexBuilder {
  /** Usage counted from `usage` events since each agent's latest agent_start (see agent_end). */
  private readonly runUsage = new Map<string, Usage>()

  constructor(readonly index: SessionIndex) {}

  apply(e: AgentEvent): void {
    const idx = this.index
    if (e.ts > idx.updatedAt) idx.updatedAt = e.ts
    const a = idx.agents[e.agentId] ?? this.create(e)
    switch (e.type) {
      case 'agent_start':
        if (a.runs > 0) a.runs++
        else {
          a.runs = 1
          a.startedAt = e.ts
        }
        a.agentType = e.agentType
        // A run a message opened (a delivery, the note after a restart) keeps the agent's task.
        if (!(a.runs > 1 && a.description && continuesTask(e.prompt))) a.description = e.description
        a.model = e.model
        a.depth = e.depth
        a.cwd = e.cwd
        a.status = 'running'
        a.parentToolUseId = e.parentToolUseId
        delete a.endedAt
        delete a.error
        delete a.asksYou
        if (e.name) a.name = e.name
        if (e.background) a.background = true
        if (e.worktree) a.worktree = { ...e.worktree }
        this.runUsage.set(e.agentId, emptyUsage())
        if (e.parentAgentId === null) {
          if (!idx.title) idx.title = titleFromPrompt(e.prompt || e.description)
          if (!idx.cwd) idx.cwd = e.cwd
        }
        break
      case 'status':
        a.status = e.status
        break
      case 'turn_start':
        a.turnCount++
        break
      case 'tool_run':
        a.toolUses++
        break
      case 'usage': {
        a.usage = addUsage(a.usage, e.usage)
        const run = this.runUsage.get(e.agentId)
        if (run) this.runUsage.set(e.agentId, addUsage(run, e.usage))
        break
      }
      case 'agent_end': {
        a.status = e.status
        a.endedAt = e.ts
        if (e.error) a.error = e.error
        if (e.status === 'completed' && endsOnQuestion(e.result)) a.asksYou = true
        if (e.worktree) a.worktree = { ...e.worktree }
        // Usage events are the count. A loop that emitted none for this run still reports the run's
        // usage on agent_end; only then is it added (adding both would count every token twice).
        const counted = this.runUsage.get(e.agentId)
        if (e.usage && counted && sameUsage(counted, emptyUsage())) a.usage = addUsage(a.usage, e.usage)
        this.runUsage.delete(e.agentId)
        break
      }
    }
  }

  /** A finished copy: totals, session status and title derived from the agents. */
  snapshot(): SessionIndex {
    return structuredClone(this.finished())
  }

  /**
   * The index itself, finished as snapshot() finishes it, with no copy: only to be serialized at once (the
   * session.json write, which the session's end waits for), before any event changes it.
   */
  finished(): Readonly<SessionIndex> {
    finalizeIndex(this.index)
    return this.index
  }

  private create(e: AgentEvent): AgentRecord {
    const rec: AgentRecord = {
      agentId: e.agentId,
      parentAgentId: e.parentAgentId,
      parentToolUseId: e.parentToolUseId,
      agentType: 'unknown',
      description: '',
      status: 'running',
      model: '',
      startedAt: e.ts,
      usage: emptyUsage(),
      depth: 0,
      turnCount: 0,
      toolUses: 0,
      runs: 0
    }
    this.index.agents[e.agentId] = rec
    return rec
  }
}

/**
 * Recomputes totals and the session status: that of the most recently started main agent, or
 * `interrupted` when it had finished its turn but agents still at work after that were cut off.
 */
export function finalizeIndex(idx: SessionIndex): void {
  let usage = emptyUsage()
  let root: AgentRecord | undefined
  let lastInterrupted = -1
  for (const a of Object.values(idx.agents)) {
    usage = addUsage(usage, a.usage)
    if (a.parentAgentId === null && (!root || a.startedAt >= root.startedAt)) root = a
    if (a.status === 'interrupted') lastInterrupted = Math.max(lastInterrupted, a.endedAt ?? 0)
  }
  idx.usage = usage
  idx.costUsd = usage.costUsd
  if (!root) return
  idx.status = isTerminalStatus(root.status) && lastInterrupted > (root.endedAt ?? -1) ? 'interrupted' : root.status
}

/** An agent's usage plus all its descendants'. */
export function subtreeUsage(idx: SessionIndex, agentId: string): Usage {
  const children = new Map<string, string[]>()
  for (const a of Object.values(idx.agents)) {
    if (a.parentAgentId === null) continue
    const list = children.get(a.parentAgentId) ?? []
    list.push(a.agentId)
    children.set(a.parentAgentId, list)
  }
  let total = emptyUsage()
  const seen = new Set<string>()
  const stack = [agentId]
  while (stack.length) {
    const id = stack.pop() as string
    if (seen.has(id)) continue // a malformed file could hold a cycle
    seen.add(id)
    const a = idx.agents[id]
    if (a) total = addUsage(total, a.usage)
    stack.push(...(children.get(id) ?? []))
  }
  return total
}

function sameUsage(a: Usage, b: Usage): boolean {
  return (
    a.inputTokens === b.inputTokens &&
    a.outputTokens === b.outputTokens &&
    a.cacheReadTokens === b.cacheReadTokens &&
    a.cacheWriteTokens === b.cacheWriteTokens &&
    Math.abs(a.costUsd - b.costUsd) < 1e-9
  )
}

// Built at first use: a new session has no index to read before its first model request.
const usageSchema = lazy(() =>
  z.object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheReadTokens: z.number(),
    cacheWriteTokens: z.number(),
    costUsd: z.number()
  })
)

const agentRecordSchema = lazy(() =>
  z.looseObject({
    agentId: z.string(),
    parentAgentId: z.string().nullable(),
    parentToolUseId: z.string().nullable(),
    agentType: z.string(),
    description: z.string(),
    status: z.string(),
    model: z.string(),
    startedAt: z.number(),
    usage: usageSchema(),
    depth: z.number().default(0),
    turnCount: z.number().default(0),
    toolUses: z.number().default(0),
    runs: z.number().default(1)
  })
)

const sessionIndexSchema = lazy(() =>
  z.looseObject({
    version: z.number(),
    sessionId: z.string(),
    createdAt: z.number(),
    updatedAt: z.number(),
    cwd: z.string(),
    title: z.string(),
    status: z.string(),
    agents: z.record(z.string(), agentRecordSchema()),
    usage: usageSchema(),
    costUsd: z.number(),
    writer: z.object({ pid: z.number(), hostname: z.string(), processStart: z.string().nullable().optional() }).nullable().default(null)
  })
)

/** Validates a parsed session.json; throws an error naming the file and the first bad field. */
export function parseSessionIndex(value: unknown, file: string): SessionIndex {
  const r = sessionIndexSchema().safeParse(value)
  if (!r.success) {
    const issue = r.error.issues[0]
    throw new Error(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`)
  }
  if (r.data.version > SESSION_INDEX_VERSION) {
    throw new Error(`${file}: session index version ${r.data.version} is newer than this Fanout understands (${SESSION_INDEX_VERSION})`)
  }
  return r.data as unknown as SessionIndex
}
