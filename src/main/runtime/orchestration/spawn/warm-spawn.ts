// Subagents' shared prompt prefix, written to the cache while their Agent calls still stream. Siblings of
// one message share their prefix (tools, system prompt): the first request to carry it writes it, and the
// others read it only once that request's response has begun (model/cache-sharing.ts), so with the calls
// run when the message is complete every sibling but the first waits one time to first token. But a
// message that starts many agents streams for seconds (each call's prompt is hundreds of tokens), and the
// prefix is known as soon as a call's input is: when a third call of the same kind has streamed whole, the
// prefix is warmed (one `max_tokens: 0` request, ModelClient.warm), and by the time the message ends it is
// in the cache and no sibling waits. Nothing runs here: no agent, tool, hook or permission; a call that is
// then refused or never made costs only the warming, which the parent's usage shows (purpose cache_warm) and
// which counts towards budgets like any request.
// Left out, as their prefix is not known before they start: forks and forkContext agents (their prefix is
// the parent's conversation), worktree agents (their prompt names their worktree), named teammates, agents
// with MCP servers of their own, and prefixes under the model's cache minimum (a fan-out fills those with
// context from all the calls: model/cache-fill.ts).
import { minCacheableTokens } from '../../model/prompt-cache-rules'
import { prefixTokens } from '../../model/cache-fill'
import { effortRequest } from '../../model/effort'
import { fullModelId } from '../../model/aliases'
import type { ModelRequest, ToolUseReady } from '../../model/types'
import { toolSpecsOf } from '../../loop'
import type { AgentHandle } from '../runs/agent-registry'
import { agentToolInput, type AgentToolInput } from './agent-tool'
import { AGENT_TOOL_NAME } from './agent-tool-name'
import { runTools } from './fork'
import { childHandle, planSpawn, sameKind, type SpawnHost } from './spawn'

export type WarmHost = Pick<
  SpawnHost,
  'definitions' | 'aliases' | 'tools' | 'gate' | 'registry' | 'systemPrompt' | 'settings' | 'client' | 'emit' | 'sessionId'
>

/** Reads `call` as an Agent call of `parent` that streamed whole; warms its agent's prefix when a sibling of its kind came before. */
export function warmSpawn(session: WarmHost, parent: AgentHandle, call: ToolUseReady, sofar: readonly ToolUseReady[]): void {
  if (call.name !== AGENT_TOOL_NAME || !session.client.warm || parent.fork) return
  const parsed = agentToolInput().safeParse(call.input)
  if (!parsed.success) return
  const input = parsed.data as AgentToolInput
  // The third call of a kind. Two calls gain nothing: their message ends as the second arrives, so the
  // second would wait for the warming as it waits for the first's response, and pay one more request; from
  // the third on, the calls after it stream while the warming is under way. A fourth finds it on its way.
  if (sofar.filter((c) => c.name === AGENT_TOOL_NAME && sameKind(c.input, input)).length !== 3) return
  if (input.resume || input.name || input.isolation) return
  void warm(session, parent, input, call.id).catch(() => undefined)
}

async function warm(session: WarmHost, parent: AgentHandle, input: AgentToolInput, toolUseId: string): Promise<void> {
  const depth = parent.depth + 1
  const planned = planSpawn(session, parent, input, depth)
  if (typeof planned === 'string' || session.gate.refusal(depth)) return
  if (planned.fork || planned.forkContext || planned.isolated || !planned.def || planned.def.mcpServers) return
  // The handle the agent will have, registered nowhere: its prompt and tools are read as its run will read them.
  const child = childHandle(planned, parent, input, { id: `${parent.id}-warming`, depth, toolUseId })
  child.model = fullModelId(child.model, session.aliases)
  const system = await session.systemPrompt(planned.def, child)
  const { apiTools: tools, sharedTools } = toolSpecsOf(runTools(session, child, planned.toolNames))
  if (prefixTokens({ tools, system }) < minCacheableTokens(child.model)) return
  const { thinking, effort } = effortRequest(child.model, planned.effort, { thinking: session.settings.thinking })
  const request: ModelRequest = { model: child.model, system, tools, sharedTools, thinking, effort, messages: [{ role: 'user', content: 'warmup' }] }
  const usage = await session.client.warm!(request, parent.abort.signal)
  if (!usage) return
  session.emit({
    agentId: parent.id,
    parentAgentId: parent.parentId,
    parentToolUseId: parent.parentToolUseId,
    sessionId: session.sessionId,
    ts: Date.now(),
    type: 'usage',
    usage,
    model: child.model,
    purpose: 'cache_warm'
  })
}
