// A reopened session reaches the page in parts. The host folds the transcripts into the session state
// and sends first its head: every agent, total, permission and the team as they are, but each
// transcript cut to its newest items, with the tools those items show (and every tool still running,
// which a live event may update). The older items and their tools follow a page at a time, newest
// first, each prepended where it belongs. The head is what is on screen, so it paints at once however
// long the session is; joined, the parts are exactly the state the host folded.
import type { SessionState, ToolCall, TranscriptItem } from './session-state'

/** Older items of some agents (each a run that goes right before what the page has) and their tools. */
export interface OlderPage {
  items: Record<string, TranscriptItem[]>
  tools: Record<string, ToolCall>
}

export interface SplitSession {
  head: SessionState
  /** Per agent, how many of its items are not in the head. */
  olderItems: Record<string, number>
  /** Newest first: apply in this order. */
  pages: OlderPage[]
}

export interface SplitOptions {
  /** Newest items of each transcript in the head. */
  headItems?: number
  /** Items per older page, about. */
  pageItems?: number
}

const UNFINISHED: ReadonlySet<ToolCall['status']> = new Set(['streaming', 'pending', 'running'])

export function splitSession(state: SessionState, { headItems = 200, pageItems = 1500 }: SplitOptions = {}): SplitSession {
  const head: SessionState = { ...state, agents: { ...state.agents }, items: {}, tools: {} }
  const olderItems: Record<string, number> = {}
  const sent = new Set<string>()
  const send = (tools: Record<string, ToolCall>, id: string) => {
    if (sent.has(id) || !state.tools[id]) return
    tools[id] = state.tools[id]
    sent.add(id)
  }

  for (const [agentId, items] of Object.entries(state.items)) {
    const agent = state.agents[agentId]
    // A reply still streaming stays whole in the head: the reducer edits it from `streamFrom` on.
    let cut = Math.max(0, items.length - headItems)
    if (agent?.streamFrom != null) cut = Math.min(cut, agent.streamFrom)
    head.items[agentId] = cut ? items.slice(cut) : items
    if (cut) olderItems[agentId] = cut
    if (cut && agent?.streamFrom != null) head.agents[agentId] = { ...agent, streamFrom: agent.streamFrom - cut }
    for (const item of head.items[agentId]) if (item.kind === 'tool') send(head.tools, item.toolUseId)
  }
  for (const tool of Object.values(state.tools)) if (UNFINISHED.has(tool.status) || tool.permissionRequestId) send(head.tools, tool.id)
  for (const agent of Object.values(state.agents)) if (agent.currentToolId) send(head.tools, agent.currentToolId)
  for (const p of Object.values(state.permissions)) if (p.toolUseId) send(head.tools, p.toolUseId)

  const pages: OlderPage[] = []
  let page: OlderPage = { items: {}, tools: {} }
  let size = 0
  const order = state.rootAgentId ? [state.rootAgentId, ...state.agentOrder.filter((id) => id !== state.rootAgentId)] : state.agentOrder
  for (const agentId of [...order, ...Object.keys(olderItems).filter((id) => !state.agents[id])]) {
    let end = olderItems[agentId] ?? 0
    while (end > 0) {
      const start = Math.max(0, end - (pageItems - size))
      const slice = state.items[agentId].slice(start, end)
      page.items[agentId] = slice
      for (const item of slice) if (item.kind === 'tool') send(page.tools, item.toolUseId)
      size += slice.length
      end = start
      if (size >= pageItems) {
        pages.push(page)
        page = { items: {}, tools: {} }
        size = 0
      }
    }
  }
  // Tools no item shows go with the last page: nothing the host folded is left out.
  for (const id of Object.keys(state.tools)) send(page.tools, id)
  if (size || Object.keys(page.tools).length) pages.push(page)
  return { head, olderItems, pages }
}

/** The state with an older page joined: its items before the agents' own, its tools where missing. */
export function mergeOlderPage(state: SessionState, page: OlderPage): SessionState {
  const items = { ...state.items }
  const agents = { ...state.agents }
  for (const [agentId, older] of Object.entries(page.items)) {
    items[agentId] = [...older, ...(items[agentId] ?? [])]
    const agent = agents[agentId]
    if (agent?.streamFrom != null) agents[agentId] = { ...agent, streamFrom: agent.streamFrom + older.length }
  }
  // A tool already here is newer than the page's copy (a live event updated it): it stays.
  const tools = { ...page.tools, ...state.tools }
  return { ...state, items, agents, tools }
}
