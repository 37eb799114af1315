// Adding an item to an agent's transcript: each gets a key unique within its agent, stable for its life
// (the lists are virtualized by key).
import type { SessionDraft } from './session-draft'
import type { AgentState, TranscriptItem } from './session-state'

export type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never
export type NewItem = DistributiveOmit<TranscriptItem, 'key'>

export function pushItem(d: SessionDraft, a: AgentState, item: NewItem): void {
  a.itemSeq += 1
  d.items(a.id).push({ ...item, key: `${a.id}:${a.itemSeq}` } as TranscriptItem)
}
