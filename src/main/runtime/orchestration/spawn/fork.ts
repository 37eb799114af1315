// Forked context: a subagent that starts from its parent's conversation instead of a blank page. It sees
// every message up to the assistant turn that spawned it; that turn's tool calls are answered (the API
// rejects an unanswered tool_use), and an entry message tells it where the parent's thread ends and what
// its own task is.
import { contentBlocks, type ChatMessage, type ContentBlock } from '../../../../shared/events'
import { repairConversation } from '../../store'
import type { Tool } from '../../tools/define-tool'
import type { AgentHandle } from '../runs/agent-registry'
import type { SessionContext } from '../types'

/** The reserved `subagent_type` that forks the calling agent itself. */
export const FORK_AGENT_TYPE = 'fork'

export const FORK_DESCRIPTION =
  'A copy of you, with your conversation so far, your tools and your model: use it to try a side task without filling your own context. It cannot start agents.'

const SPAWNING_CALL_RESULT = 'This call started you: you are the forked sub-agent. Your task follows below.'
const SIBLING_CALL_RESULT = 'Handled by the parent agent, not by you (another tool call of the same message).'

/**
 * The forked agent's starting conversation: the parent's messages up to and including the assistant turn
 * with the spawning call, then one user message that answers that turn's calls and carries the entry
 * message and the task.
 */
export function forkMessages(parent: readonly ChatMessage[], spawningToolUseId: string, prompt: string): { history: ChatMessage[]; prompt: ContentBlock[] } {
  let spawning = -1
  for (let i = parent.length - 1; i >= 0 && spawning < 0; i--) {
    const m = parent[i]
    if (m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_use' && b.id === spawningToolUseId)) spawning = i
  }
  // Earlier turns are already valid; repair anyway so a parent restored from a damaged transcript still forks.
  // The spawning turn itself is kept as is: its calls are answered below, by the entry message.
  const history = spawning >= 0 ? [...repairConversation(parent.slice(0, spawning)).messages, parent[spawning]] : repairConversation(parent).messages
  const last = history[history.length - 1]
  const calls =
    last?.role === 'assistant' && Array.isArray(last.content)
      ? last.content.filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use')
      : []
  const results: ContentBlock[] = calls.map((c) => ({
    type: 'tool_result',
    tool_use_id: c.id,
    content: c.id === spawningToolUseId ? SPAWNING_CALL_RESULT : SIBLING_CALL_RESULT
  }))
  // No spawning call in view (not expected): a trailing user message is merged into the entry message so
  // that roles keep alternating.
  let lead: ContentBlock[] = []
  if (!calls.length && last?.role === 'user') {
    history.pop()
    lead = contentBlocks(last)
  }
  const n = history.length
  const entry = `Context: The ${n} message${n === 1 ? '' : 's'} above ${n === 1 ? 'is' : 'are'} from the parent thread: the conversation of the agent that started you, up to the moment it handed this task to you. Use what they tell you; do not continue the parent's own work or repeat its tool calls.

Entered sub-agent context. From here on you are a separate agent working on one task; the parent receives only your final message, so end with a complete report of what you did and found.

Your task:
${prompt}`
  return { history, prompt: [...results, ...lead, { type: 'text', text: entry }] }
}

/**
 * A fork's tools: its parent's list, in its order and with its definitions, so that the fork's prompt begins
 * exactly as its parent's last request did and reads the parent's cached conversation instead of writing it
 * again. The tools the fork may not use keep their place and answer every call with a refusal.
 */
export function forkToolList(parentTools: readonly Tool[], own: readonly Tool[]): Tool[] {
  const mine = new Map(own.map((t) => [t.name, t]))
  return parentTools.map((t) => {
    const kept = mine.get(t.name)
    if (kept) return kept
    const withheld = `A forked agent cannot use ${t.name}: it is in your tool list only so that your prompt matches your parent's. Do this part of the work with your other tools, or report what is left to your parent.`
    // Refusing changes nothing, so no permission is asked for it.
    return { ...t, withheld, readOnly: true, concurrencySafe: true, execute: async () => ({ content: withheld, isError: true }) }
  })
}

/** The tools an agent's requests carry: its own, or for a fork its parent's list (see forkToolList). */
export function runTools(session: Pick<SessionContext, 'registry' | 'tools'>, handle: AgentHandle, toolNames: string[]): Tool[] {
  const own = session.tools.build(handle, toolNames)
  const parent = handle.fork && handle.parentId ? session.registry.get(handle.parentId) : undefined
  return parent ? forkToolList(session.tools.build(parent, parent.toolNames ?? []), own) : own
}
