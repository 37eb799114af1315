// Copy-on-write access to one SessionState for the length of one batch: each agent, tool, permission
// and transcript list is copied at most once per batch, however many events touch it, and the input
// state is never mutated. This keeps applyEvents pure and cheap when a frame carries many deltas.
import { addUsage, emptyUsage, type Usage } from '../usage'
import type { AgentState, PermissionState, SessionState, ToolCall, TranscriptItem } from './session-state'

type EntryKey = 'agents' | 'items' | 'tools' | 'permissions'
type OwnedKey = EntryKey | 'permissionQueue' | 'agentOrder'

export class SessionDraft {
  private s: SessionState
  /** The records and lists of the state copied in this batch. */
  private readonly copied = new Set<OwnedKey>()
  /** The entries of each record copied in this batch. */
  private readonly entryCopies: Record<EntryKey, Set<string>> = { agents: new Set(), items: new Set(), tools: new Set(), permissions: new Set() }

  constructor(base: SessionState) {
    this.s = { ...base }
  }

  /** The state's record or list `key`, copied once in this batch so it may be changed. */
  private own<K extends OwnedKey>(key: K): SessionState[K] {
    if (!this.copied.has(key)) {
      const v = this.s[key]
      this.s[key] = (Array.isArray(v) ? [...v] : { ...v }) as SessionState[K]
      this.copied.add(key)
    }
    return this.s[key]
  }

  /** Entry `id` of record `key`, copied (by `copy`) once in this batch so it may be changed. */
  private ownEntry<K extends EntryKey>(key: K, id: string, copy: (entry: SessionState[K][string]) => SessionState[K][string]): SessionState[K][string] {
    const record = this.own(key) as Record<string, SessionState[K][string]>
    if (!this.entryCopies[key].has(id)) {
      record[id] = copy(record[id])
      this.entryCopies[key].add(id)
    }
    return record[id]
  }

  /** Puts a new entry into record `key` for this batch. */
  private putEntry<K extends EntryKey>(key: K, id: string, entry: SessionState[K][string]): void {
    ;(this.own(key) as Record<string, SessionState[K][string]>)[id] = entry
    this.entryCopies[key].add(id)
  }

  get state(): Readonly<SessionState> {
    return this.s
  }

  set<K extends 'rootAgentId' | 'startedAt' | 'lastEventTs' | 'eventCount' | 'usage' | 'phases' | 'team' | 'teamMessages' | 'estimates'>(
    key: K,
    value: SessionState[K]
  ): void {
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
    // Arrays are copied with the agent so the reducer may push to them within the batch.
    return this.ownEntry('agents', id, (a) => ({
      ...a,
      usage: a.usage ?? emptyUsage(),
      toolIds: [...a.toolIds],
      children: [...a.children],
      waits: [...a.waits]
    }))
  }

  /** Adds a new agent (caller ensures it does not exist). */
  putAgent(agent: AgentState): void {
    this.putEntry('agents', agent.id, agent)
    this.own('agentOrder').push(agent.id)
  }

  /** The agent's mutable transcript for this batch. */
  items(agentId: string): TranscriptItem[] {
    return this.ownEntry('items', agentId, (list) => [...(list ?? [])])
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
    return this.ownEntry('tools', id, (t) => ({ ...t }))
  }

  putTool(tool: ToolCall): void {
    if (!(tool.id in this.s.tools)) this.s.toolCount++
    this.putEntry('tools', tool.id, tool)
  }

  deleteTool(id: string): void {
    const tools = this.own('tools')
    if (id in tools) this.s.toolCount--
    delete tools[id]
  }

  peekTool(id: string): ToolCall | undefined {
    return this.s.tools[id]
  }

  permission(id: string): PermissionState | undefined {
    if (!(id in this.s.permissions)) return undefined
    return this.ownEntry('permissions', id, (p) => ({ ...p }))
  }

  putPermission(p: PermissionState): void {
    this.putEntry('permissions', p.requestId, p)
  }

  queue(): string[] {
    return this.own('permissionQueue')
  }

  finish(): SessionState {
    return this.s
  }
}
