// Per-agent `state.json`: what resuming an agent needs besides its conversation (which comes from the
// transcript): its definition, model, turn count, status, worktree and whether the user stopped it.
import { readdir } from 'node:fs/promises'
import { z } from 'zod'
import { AGENT_SOURCES } from '../../../shared/agent-definition'
import { lazy } from '../../../shared/lazy'
import { errorCode, readJsonFile, writeJsonAtomic, type MadeAhead } from './atomic-file'
import { agentsDir, agentStatePath } from './data-dir'
import { mapLimit } from './map-limit'

export const AGENT_STATE_VERSION = 1

// Built at first use: a run reads or writes no agent state before its first model request.
const agentStateSchema = lazy(() =>
  z.object({
    version: z.literal(AGENT_STATE_VERSION).default(AGENT_STATE_VERSION),
    agentId: z.string().min(1),
    sessionId: z.string().min(1),
    agentType: z.string(),
    /** Where the definition came from, so a resume finds the same one (or says it changed). */
    definition: z.object({ name: z.string(), source: z.enum(AGENT_SOURCES), file: z.string().optional() }),
    model: z.string(),
    turnCount: z.number().int().nonnegative(),
    status: z.enum(['queued', 'running', 'waiting_permission', 'completed', 'failed', 'stopped', 'max_turns', 'interrupted']),
    /** The user stopped it: never resumed automatically after a restart. */
    stoppedByUser: z.boolean(),
    /**
     * It works in a worktree of its own (`isolation: worktree`), recorded when it is launched, before it waits for
     * a slot: a restart makes or reattaches that worktree before it runs, and never runs it in the checkout (`cwd`).
     */
    isolation: z.literal('worktree').optional(),
    worktree: z.object({ path: z.string(), branch: z.string(), hookBased: z.boolean().optional() }).optional(),
    /** Where it works; for an isolated agent, the checkout its worktree is made from. */
    cwd: z.string(),
    parentAgentId: z.string().nullable(),
    parentToolUseId: z.string().nullable().optional(),
    name: z.string().optional(),
    /** The task it was started with (the Agent tool's description): a resumed run keeps it. */
    description: z.string().optional(),
    background: z.boolean().optional(),
    /**
     * The task of a background agent that was launched and has not started yet (waiting for a slot): what a
     * restart starts it with. Gone once it runs (its transcript holds its conversation then).
     */
    prompt: z.string().optional(),
    /** How hard it thinks (the session's for the main agent; an Agent call's `effort` for a subagent). */
    effort: z.union([z.string(), z.number()]).optional(),
    /** Its budget (runs/budget.ts): a resumed subtree stops where it would have. */
    budget: z
      .object({ usd: z.number().positive().optional(), tokens: z.number().positive().optional(), from: z.enum(['session', 'call', 'definition', 'setting']) })
      .optional(),
    updatedAt: z.number()
  })
)

export type AgentState = z.infer<ReturnType<typeof agentStateSchema>>
/** What callers pass: version and updatedAt are filled in. */
export type AgentStateInput = Omit<AgentState, 'version' | 'updatedAt'> & { updatedAt?: number }

/**
 * Writes the state whole (never half-written). `durable: false` skips the fsync: the state an agent starts with
 * says only that it runs, which its transcript (itself never fsynced) says too, and sixteen agents starting at
 * once would otherwise queue sixteen fsyncs ahead of their file reads on libuv's four threads. The state a run
 * ends with is fsynced a moment later, with others (runs/persistence.ts, END_SYNC_MS).
 */
export async function writeAgentState(
  dataDir: string,
  state: AgentStateInput,
  opts: { durable?: boolean; ahead?: MadeAhead; refill?: boolean } = {}
): Promise<AgentState> {
  const file = agentStatePath(dataDir, state.sessionId, state.agentId)
  const r = agentStateSchema().safeParse({ ...state, version: AGENT_STATE_VERSION, updatedAt: state.updatedAt ?? Date.now() })
  if (!r.success) throw new Error(`Refusing to write an invalid agent state to ${file}: ${describe(r.error)}`)
  await writeJsonAtomic(file, r.data, { fsync: opts.durable !== false, ...(opts.ahead ? { ahead: opts.ahead } : {}), refill: opts.refill })
  return r.data
}

/** The agent's state; null when none was written; a clear error when the file is broken. */
export async function readAgentState(dataDir: string, sessionId: string, agentId: string): Promise<AgentState | null> {
  const file = agentStatePath(dataDir, sessionId, agentId)
  const raw = await readJsonFile(file)
  if (raw === null) return null
  const r = agentStateSchema().safeParse(raw)
  if (!r.success) throw new Error(`${file}: ${describe(r.error)}`)
  return r.data
}

export interface AgentStateList {
  states: AgentState[]
  /** Files that could not be read, one sentence each. */
  problems: string[]
}

/** Every agent state of a session (e.g. to find agents to resume after a restart). */
export async function listAgentStates(dataDir: string, sessionId: string): Promise<AgentStateList> {
  const dir = agentsDir(dataDir, sessionId)
  let names: string[]
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.state.json'))
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return { states: [], problems: [] }
    throw err
  }
  const problems: string[] = []
  const states = await mapLimit(names, 16, (n) =>
    readAgentState(dataDir, sessionId, n.slice(0, -'.state.json'.length)).catch((err: Error) => {
      problems.push(err.message)
      return null
    })
  )
  return { states: states.filter((s): s is AgentState => s !== null), problems }
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
}
