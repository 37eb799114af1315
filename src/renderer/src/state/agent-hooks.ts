// What a view of one agent reads, as selectors keyed by the agent (agent-subscriptions.ts): its state, the permission request it
// waits on, and why it needs the person. Tiles and panels read the same, the same way.
import type { AgentState, PermissionState } from '../../../shared/view/session-state'
import { attentionOf, type AttentionReason } from './attention'
import { useAgentApp } from './agent-subscriptions'

/** The agent's state (a new object at every event of it). */
export function useAgent(sessionId: string, agentId: string): AgentState | undefined {
  return useAgentApp(sessionId, agentId, (s) => s.events.sessions[sessionId]?.agents[agentId])
}

/** The oldest request of this agent still waiting for an answer. */
export function useWaitingRequest(sessionId: string, agentId: string): PermissionState | undefined {
  return useAgentApp(sessionId, agentId, (s) => {
    const sess = s.events.sessions[sessionId]
    const id = sess?.permissionQueue.find((r) => sess.permissions[r].requestingAgentId === agentId)
    return id ? sess.permissions[id] : undefined
  })
}

/** Why the agent needs the person now, or null (see attention.ts). */
export function useAttention(sessionId: string, agentId: string): AttentionReason | null {
  return useAgentApp(sessionId, agentId, (s) => {
    const sess = s.events.sessions[sessionId]
    const a = sess?.agents[agentId]
    return sess && a ? attentionOf(sess, a, s.acknowledged) : null
  })
}
