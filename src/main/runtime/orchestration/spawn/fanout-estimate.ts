// What a turn's Agent calls will cost, said before any of them starts: an `estimate` event (the approval
// surface, the CLI's json and stream-json outputs show it) from each definition's recorded runs and the
// prompts' sizes, with a range. Above the amount Settings → Limits names, the person is asked first, once for
// the whole fan-out; refused (or with nobody to ask), the calls are answered without starting anything.
import { estimateCall, estimateText, historyKey, historyRuns, sumEstimates, type AgentRunRecord, type FanoutEstimate } from '../../../../shared/budget'
import { readAgentHistory } from '../../store/agent-history'
import type { AgentHandle } from '../runs/agent-registry'
import type { SessionContext } from '../types'
import { AGENT_TOOL_NAME, DEFAULT_SUBAGENT_TYPE } from './agent-tool-name'
import { FORK_AGENT_TYPE } from './fork'
import { personSaid } from '../../tool-call'
import type { BeforeToolsAnswer } from '../../loop'

export type EstimateHost = Pick<SessionContext, 'dataDir' | 'definitions' | 'gate' | 'emit' | 'sessionId' | 'permissions'>

interface AgentCall {
  id: string
  agentType: string
  prompt: string
  description: string
}

function agentCalls(calls: ReadonlyArray<{ id: string; name: string; input: unknown }>): AgentCall[] {
  const out: AgentCall[] = []
  for (const c of calls) {
    if (c.name !== AGENT_TOOL_NAME || typeof c.input !== 'object' || c.input === null) continue
    const input = c.input as Record<string, unknown>
    // Resuming continues a known agent; its cost is its own history's, not a new run's.
    if (typeof input.prompt !== 'string' || input.resume !== undefined) continue
    const agentType = typeof input.subagent_type === 'string' && input.subagent_type.trim() ? input.subagent_type.trim() : DEFAULT_SUBAGENT_TYPE
    out.push({ id: c.id, agentType, prompt: input.prompt, description: typeof input.description === 'string' ? input.description : '' })
  }
  return out
}

/**
 * The history read while a reply's Agent calls stream (readHistoryAhead), for the estimate its end makes: read
 * there, it was four thread-pool round trips (open, stat, read, close) between the reply's last call and that
 * call's agent starting, on the critical path of every fan-out. Older than this, it is read again.
 */
const ahead = new Map<string, { at: number; records: Promise<AgentRunRecord[]> }>()
const AHEAD_MS = 30_000

/** Begins reading `dataDir`'s history for the estimate at the end of the reply whose Agent calls are streaming (once). */
export function readHistoryAhead(dataDir: string | undefined): Promise<AgentRunRecord[]> | undefined {
  if (!dataDir) return undefined
  const begun = ahead.get(dataDir)
  if (begun && Date.now() - begun.at < AHEAD_MS) return begun.records
  const records = readAgentHistory(dataDir).catch(() => [])
  ahead.set(dataDir, { at: Date.now(), records })
  return records
}

/** The history for an estimate: the read begun ahead (taken, so the next reply reads afresh), else a read now. */
function historyFor(dataDir: string): Promise<AgentRunRecord[]> {
  const begun = ahead.get(dataDir)
  ahead.delete(dataDir)
  return begun && Date.now() - begun.at < AHEAD_MS ? begun.records : readAgentHistory(dataDir).catch(() => [])
}

/** The estimate of `calls`' new subagents from the recorded history; null when they start none. */
export async function estimateFanout(host: EstimateHost, calls: ReadonlyArray<{ id: string; name: string; input: unknown }>): Promise<FanoutEstimate | null> {
  const agents = agentCalls(calls)
  if (!agents.length) return null
  const runs = historyRuns(host.dataDir ? await historyFor(host.dataDir) : [])
  const defs = host.definitions.agents()
  const approveAbove = host.gate.limits.approveFanoutAboveUsd
  return sumEstimates(
    agents.map((a) => {
      const file = a.agentType === FORK_AGENT_TYPE ? undefined : defs.get(a.agentType)?.definition.file
      return estimateCall(
        { toolUseId: a.id, agentType: a.agentType, promptChars: a.prompt.length },
        runs.get(historyKey({ agentType: a.agentType, file })) ?? []
      )
    }),
    approveAbove > 0 ? approveAbove : undefined
  )
}

/**
 * AgentLoopOptions.beforeTools for an agent that may spawn: says the estimate, and asks above the setting.
 * `started`: the calls that began while the reply streamed (spawn/early-spawn.ts). When every new agent of the
 * turn is among them, the estimate can hold back nothing (a call that started is never refused, and none
 * starts early where approval is asked): it is said a moment later, once the started agents' requests are
 * out. Made at the reply's end, it stood between the last call's agent and its first request (0.3-0.7 ms of a
 * 16-way fan-out's critical path).
 */
export async function checkFanout(
  host: EstimateHost,
  handle: AgentHandle,
  calls: ReadonlyArray<{ id: string; name: string; input: unknown }>,
  started: ReadonlySet<string> = new Set()
): Promise<BeforeToolsAnswer | null> {
  const agents = agentCalls(calls)
  if (agents.length && agents.every((a) => started.has(a.id))) {
    setImmediate(() => void sayEstimate(host, handle, calls).catch(() => undefined))
    return null
  }
  return sayEstimate(host, handle, calls)
}

async function sayEstimate(
  host: EstimateHost,
  handle: AgentHandle,
  calls: ReadonlyArray<{ id: string; name: string; input: unknown }>
): Promise<BeforeToolsAnswer | null> {
  const estimate = await estimateFanout(host, calls)
  if (!estimate) return null
  host.emit({
    agentId: handle.id,
    parentAgentId: handle.parentId,
    parentToolUseId: handle.parentToolUseId,
    sessionId: host.sessionId,
    ts: Date.now(),
    type: 'estimate',
    estimate
  })
  if (!estimate.approveAbove || estimate.high <= estimate.approveAbove) return null
  const text = estimateText(estimate)
  const first = estimate.agents[0].toolUseId
  const answer = await host.permissions.askConsent(
    handle,
    AGENT_TOOL_NAME,
    { estimate, agents: agentCalls(calls).map((a) => ({ subagent_type: a.agentType, description: a.description })) },
    first,
    `Start ${text}? Its high end is above the $${estimate.approveAbove.toFixed(2)} that needs your approval (Settings → Limits).`
  )
  if (answer.decision === 'allow') return answer.feedback?.trim() ? { note: `The user approved this fan-out and said: ${answer.feedback.trim()}` } : null
  const why =
    answer.decision === 'nobody'
      ? `nobody is here to approve it (a fan-out estimated above $${estimate.approveAbove.toFixed(2)} needs the person's approval)`
      : 'the person did not approve it'
  const refusal = `Subagent not started: this turn's ${text}, and ${why}. Do the work with fewer or cheaper agents, or yourself.${personSaid(answer.feedback)}`
  return { refused: new Map(estimate.agents.map((a) => [a.toolUseId, refusal])) }
}
