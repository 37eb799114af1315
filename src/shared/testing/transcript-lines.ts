// An agent's transcript as short strings, for readable assertions in reducer tests.
import type { SessionState } from '../view/session-state'

export function transcriptLines(s: SessionState, agentId: string): string[] {
  return (s.items[agentId] ?? []).map((i) => {
    switch (i.kind) {
      case 'tool':
        return `tool:${s.tools[i.toolUseId].name}:${s.tools[i.toolUseId].status}`
      case 'error':
        return `error${i.retrying ? '(retrying)' : ''}:${i.message}`
      case 'text':
      case 'thinking':
        return `${i.kind}${i.streaming ? '~' : ''}:${i.text}`
      case 'inbox': {
        const m = i.message
        if (m.type === 'report') return `report:${m.name ?? m.agentType}:${m.status}:${m.text}`
        if (m.type === 'agent') return `message:${i.fromName ?? m.fromName}:${m.text}`
        return `${m.type}:${m.text}`
      }
      case 'compaction':
        return `compaction:${i.trigger}:${i.state}${i.error ? `:${i.error}` : ''}`
      default:
        return `${i.kind}:${i.text}`
    }
  })
}
