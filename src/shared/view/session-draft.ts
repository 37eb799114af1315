// Copy-on-write access to one SessionState for the length of one batch: each agent, tool, permission
// and transcript list is copied at most once per batch, however many events touch it, and the input
// state is never mutated. This keeps applyEvents pure and cheap when a frame carries many deltas.
import { addUsage, emptyUsage, type Usage } from '../usage'
import type { AgentState, PermissionState, SessionState, ToolCall, TranscriptItem } from './session-state'

export class SessionDraft {
  private s: SessionState
  private agentsCopied = false
  private itemsCopied = false
  private toolsCopied = false
  private permissionsCopied = false
  private queueCopied = false
  private orderCopied = false
  private readonly agentCopies = new Set<string>()
  private readonly itemCopies = new Set<string>()
  private readonly toolCopies = new Set<string>()
  private readonly permissionCopies = new Set<string>()

  constructor(base: SessionState) {
    this.s = { ...base }
  }

  get state(): Readonly<SessionState> {
    return this.s
  }

  set<K extends 'rootAgentId' | 'startedAt' | 'lastEventTs' | 'eventCount' | 'usage' | 'phases' | 'team' | 'teamMessages'>(key: K, value: SessionState[K]): void {
    this.s[key] = value
  }

  addUsage(delta: Usage): void {
    this.s.usage = addUsage(this.s.usage, delta)
  }

  hasAgent(id: string): boolean {
    return id in this.s.agents
  }

  /** The agent as it is now, not to be changed (it may be shared with the previous state). */
  peekAgent(id: string): Readonly<AgentState> {
    return this.s.agents[id]
  }

  /** A mutable copy of the agent for this batch. */
  agent(id: string): AgentState {
    if (!this.agentsCopied) {
      this.s.agents = { ...this.s.agents }
      this.agentsCopied = true
    }
    if (!this.agentCopies.has(id)) {
      const a = this.s.agents[id]
      // Arrays are copied with the agent so the reducer may push to them within the batch.
      this.s.agents[id] = { ...a, usage: a.usage ?? emptyUsage(), toolIds: [...a.toolIds], children: [...a.children], waits: [...a.waits] }
      this.agentCopies.add(id)
    }
    return this.s.agents[id]
  }

  /** Adds a new agent (caller ensures it does not exist). */
  putAgent(agent: AgentState): void {
    if (!this.agentsCopied) {
      this.s.agents = { ...this.s.agents }
      this.agentsCopied = true
    }
    this.s.agents[agent.id] = agent
    this.agentCopies.add(agent.id)
    if (!this.orderCopied) {
      this.s.agentOrder = [...this.s.agentOrder]
      this.orderCopied = true
    }
    this.s.agentOrder.push(agent.id)
  }

  /** The agent's mutable transcript for this batch. */
  items(agentId: string): TranscriptItem[] {
    if (!this.itemsCopied) {
      this.s.items = { ...this.s.items }
      this.itemsCopied = true
    }
    if (!this.itemCopies.has(agentId)) {
      this.s.items[agentId] = [...(this.s.items[agentId] ?? [])]
      this.itemCopies.add(agentId)
    }
    return this.s.items[agentId]
  }

  /** Replaces an item with an edited copy (items themselves are shared with the previous state). */
  replaceItem(agentId: string, index: number, item: TranscriptItem): void {
    this.items(agentId)[index] = item
  }

  peekItems(agentId: string): readonly TranscriptItem[] {
    return this.s.items[agentId] ?? []
  }

  hasTool(id: string): boolean {
    return id in this.s.tools
  }

  tool(id: string): ToolCall {
    if (!this.toolsCopied) {
      this.s.tools = { ...this.s.tools }
      this.toolsCopied = true
    }
    if (!this.toolCopies.has(id)) {
      this.s.tools[id] = { ...this.s.tools[id] }
      this.toolCopies.add(id)
    }
    return this.s.tools[id]
  }

  putTool(tool: ToolCall): void {
    if (!this.toolsCopied) {
      this.s.tools = { ...this.s.tools }
      this.toolsCopied = true
    }
    if (!(tool.id in this.s.tools)) this.s.toolCount++
    this.s.tools[tool.id] = tool
    this.toolCopies.add(tool.id)
  }

  deleteTool(id: string): void {
    if (!this.toolsCopied) {
      this.s.tools = { ...this.s.tools }
      this.toolsCopied = true
    }
    if (id in this.s.tools) this.s.toolCount--
    delete this.s.tools[id]
  }

  peekTool(id: string): ToolCall | undefined {
    return this.s.tools[id]
  }

  permission(id: string): PermissionState | undefined {
    if (!(id in this.s.permissions)) return undefined
    if (!this.permissionsCopied) {
      this.s.permissions = { ...this.s.permissions }
      this.permissionsCopied = true
    }
    if (!this.permissionCopies.has(id)) {
      this.s.permissions[id] = { ...this.s.permissions[id] }
      this.permissionCopies.add(id)
    }
    return this.s.permissions[id]
  }

  putPermission(p: PermissionState): void {
    if (!this.permissionsCopied) {
      this.s.permissions = { ...this.s.permissions }
      this.permissionsCopied = true
    }
    this.s.permissions[p.requestId] = p
    this.permissionCopies.add(p.requestId)
  }

  queue(): string[] {
    if (!this.queueCopied) {
      this.s.permissionQueue = [...this.s.permissionQueue]
      this.queueCopied = true
    }
    return this.s.permissionQueue
  }

  finish(): SessionState {
    return this.s
  }
}
