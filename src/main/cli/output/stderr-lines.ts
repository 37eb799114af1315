// What `fanout run` says on stderr while it runs, in every output format (stdout stays the answer or the
// machine-readable stream): retries as they happen, other problems once each, and compactions.
import type { AgentEvent } from '../../../shared/events'
import type { AgentSession } from '../../runtime/orchestration'

/** Whose retry it is: nothing for the main agent, the type and id of a subagent. */
export function retryLabel(session: AgentSession, agentId: string): string {
  if (agentId === session.mainAgentId) return ''
  const agent = session.registry.get(agentId)
  return `${agent ? `${agent.agentType} ` : ''}${agentId}: `
}

/** A compaction's end, in one line for stderr. */
export function compactionLine(e: Extract<AgentEvent, { type: 'compaction' }>): string {
  if (e.error) return e.error
  const n = (x: number | undefined) => (x ?? 0).toLocaleString('en-US')
  const why = e.trigger === 'overflow' ? 'the API said the prompt is too long' : e.trigger === 'manual' ? 'as asked' : 'its context passed the threshold'
  return `compacted the conversation (${why}): ${n(e.tokensBefore)} → ${n(e.tokensAfter)} tokens`
}

/**
 * Error events on stderr: retries as they happen, other problems once each. The main agent's own fatal error
 * is held until its run ends, since the closing line says it again.
 */
export function problemPrinter(session: AgentSession): (e: AgentEvent) => void {
  let held: string | null = null
  const seen = new Set<string>()
  const say = (text: string) => {
    if (seen.has(text)) return
    seen.add(text)
    process.stderr.write(`fanout: ${text}\n`)
  }
  return (e) => {
    const isMain = e.agentId === session.mainAgentId
    if (isMain && held !== null && e.type !== 'error') {
      if (!(e.type === 'agent_end' && e.status === 'failed')) say(held)
      held = null
    }
    if (e.type !== 'error') return
    if (e.retrying) return void process.stderr.write(`fanout: ${retryLabel(session, e.agentId)}${e.message}\n`)
    const text = `${retryLabel(session, e.agentId)}${e.message}`
    if (isMain) {
      if (held !== null) say(held)
      held = text
    } else say(text)
  }
}
