// Notification hooks for what a person watching agents would want to hear about, with Claude Code's
// notification types (what `matcher` matches):
//   permission_prompt    the main agent waits for approval: "Claude needs your permission to use Bash"
//   agent_needs_input    a subagent waits for approval: "<agent> needs your input: allow or deny Bash"
//   agent_completed      a subagent finished or failed: "<agent> finished" / "<agent> failed" (not when stopped)
// They are fire-and-forget: what the hook prints is not read, and a failing hook is reported like any other.
import type { AgentEvent } from '../../../shared/events'
import type { HookAgent, HookRunner } from './runner'

export interface NotifiedAgent extends HookAgent {
  name?: string
  description?: string
}

export interface Notice {
  type: 'permission_prompt' | 'agent_needs_input' | 'agent_completed'
  message: string
  /** The agent whose hooks run (and whose id the payload carries). */
  agentId: string
}

const label = (a: NotifiedAgent) =>
  a.name ? `${a.name} (${a.agentType})` : a.description ? `${a.agentType} agent "${a.description}"` : `${a.agentType} agent ${a.id}`

/** The notification an event calls for, if any. */
export function noticeFor(event: AgentEvent, mainAgentId: string, find: (id: string) => NotifiedAgent | undefined): Notice | null {
  if (event.type === 'permission_request') {
    const who = event.requestingAgentId
    if (who === mainAgentId) return { type: 'permission_prompt', message: `Claude needs your permission to use ${event.toolName}`, agentId: who }
    const agent = find(who)
    return { type: 'agent_needs_input', message: `${agent ? label(agent) : who} needs your input: allow or deny ${event.toolName}`, agentId: who }
  }
  if (event.type === 'agent_end' && event.agentId !== mainAgentId && (event.status === 'completed' || event.status === 'failed')) {
    const agent = find(event.agentId)
    return {
      type: 'agent_completed',
      message: `${agent ? label(agent) : event.agentId} ${event.status === 'failed' ? 'failed' : 'finished'}`,
      agentId: event.agentId
    }
  }
  return null
}

/** Runs the Notification hooks an event calls for (in the background; errors are reported by the runner). */
export function notifyHooks(
  runner: HookRunner,
  event: AgentEvent,
  mainAgentId: string,
  find: (id: string) => NotifiedAgent | undefined,
  track: (p: Promise<unknown>) => void
): void {
  if (event.type !== 'permission_request' && event.type !== 'agent_end') return
  const notice = noticeFor(event, mainAgentId, find)
  const agent = notice && find(notice.agentId)
  if (!notice || !agent || !runner.has('Notification', agent)) return
  track(runner.notification(agent, notice.type, notice.message).catch(() => undefined))
}
