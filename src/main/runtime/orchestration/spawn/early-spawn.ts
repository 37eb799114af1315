// Which Agent calls start while their reply still streams (AgentLoopOptions.startEarly, loop/early-calls.ts).
// Claude Code starts each subagent as its call arrives; a reply of sixteen calls streams for seconds, so
// starting them at its end puts sixteen agents' setup and first requests on the critical path at once.
// An Agent call waits for the reply's end only where what it needs is known only then:
// - the person approves fan-outs above an amount (Settings → Limits): they are asked once, for the whole reply;
// - a fork, or a forkContext agent: its conversation is its parent's, this reply included;
// - an agent whose prompt prefix is under its model's cache minimum: siblings fill it with context from all
//   their calls (model/cache-fill.ts), which needs every call of the reply.
// Any other call starts at once; the loop starts only calls that would share the reply's first batch anyway.
import { prefixTokens } from '../../model/cache-fill'
import { fullModelId } from '../../model/aliases'
import { minCacheableTokens } from '../../model/prompt-cache-rules'
import type { ToolUseReady } from '../../model/types'
import { toolSpecsOf } from '../../loop'
import type { AgentHandle } from '../runs/agent-registry'
import { agentToolInput, type AgentToolInput } from './agent-tool'
import { AGENT_TOOL_NAME } from './agent-tool-name'
import { FORK_AGENT_TYPE, runTools } from './fork'
import { childHandle, planSpawn, type SpawnHost } from './spawn'

export type EarlyHost = Pick<SpawnHost, 'definitions' | 'aliases' | 'tools' | 'gate' | 'registry'>

/** Per reply (the list of its calls the stream grows) and agent kind: whether such a call may start early. */
const decided = new WeakMap<readonly ToolUseReady[], Map<string, boolean>>()

export function startsEarly(session: EarlyHost, parent: AgentHandle, call: ToolUseReady, sofar: readonly ToolUseReady[]): boolean {
  if (call.name !== AGENT_TOOL_NAME) return true
  if (session.gate.limits.approveFanoutAboveUsd > 0) return false
  const parsed = agentToolInput().safeParse(call.input)
  // A call the tool will refuse, or one that continues an agent (its prompt is its own history), starts as it is.
  if (!parsed.success || parsed.data.resume || parent.fork) return true
  const input = parsed.data
  const kind = `${input.subagent_type ?? ''}\u0000${input.model ?? ''}\u0000${input.isolation ?? ''}`
  let byKind = decided.get(sofar)
  if (!byKind) decided.set(sofar, (byKind = new Map()))
  let early = byKind.get(kind)
  if (early === undefined) byKind.set(kind, (early = mayStartEarly(session, parent, input)))
  return early
}

function mayStartEarly(session: EarlyHost, parent: AgentHandle, input: AgentToolInput): boolean {
  if (input.subagent_type === FORK_AGENT_TYPE) return false
  const planned = planSpawn(session, parent, input, parent.depth + 1)
  // A refusal is said as soon as the call has arrived.
  if (typeof planned === 'string') return true
  if (planned.fork || planned.forkContext) return false
  // The prefix's floor: its tools and its definition's prompt (the system prompt adds the environment and
  // instructions). Over the minimum, it is cached as it is and no sibling needs the others' calls.
  // Its tools are read as its run will build them, for the agent it will be (registered nowhere).
  const child = childHandle(planned, parent, input, { id: `${parent.id}-early`, depth: parent.depth + 1, toolUseId: 'early' })
  const { apiTools } = toolSpecsOf(runTools(session, child, planned.toolNames))
  return prefixTokens({ tools: apiTools, system: planned.def?.systemPrompt ?? '' }) >= minCacheableTokens(fullModelId(planned.model, session.aliases))
}
