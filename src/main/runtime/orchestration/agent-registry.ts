// Every agent of a session, by id: its place in the tree, its status, and the handle that stops it.
import type { AgentDefinition, PermissionMode } from '../../../shared/agent-definition'
import type { AgentStatus } from '../../../shared/events'
import { addUsage, emptyUsage, type Usage } from '../../../shared/usage'

export interface AgentHandle {
  id: string
  parentId: string | null
  /** The parent's tool_use id that spawned this agent. */
  parentToolUseId: string | null
  depth: number
  agentType: string
  definition: AgentDefinition | null
  name?: string
  model: string
  cwd: string
  permissionMode: PermissionMode
  /** Agent types this agent may spawn (from `Agent(a, b)` in its tools); undefined = any. */
  allowedAgentTypes?: string[]
  status: AgentStatus
  /** Aborting it stops this agent and, through linked signals, every descendant. */
  abort: AbortController
  stoppedByUser: boolean
  /** Messages waiting for the agent's next turn. */
  inbox: string[]
  /** Own usage (not including children). */
  usage: Usage
  startedAt: number
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

  /** Stops an agent and its descendants. Returns false when it is not running. */
  stop(id: string, byUser: boolean): boolean {
    const handle = this.agents.get(id)
    if (!handle) return false
    const running = !isFinished(handle.status)
    const mark = (h: AgentHandle) => {
      if (byUser && !isFinished(h.status)) h.stoppedByUser = true
      for (const child of this.children(h.id)) mark(child)
    }
    mark(handle)
    handle.abort.abort(new Error(byUser ? 'stopped by the user' : 'stopped'))
    return running
  }
}

export function isFinished(status: AgentStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'stopped' || status === 'max_turns'
}
