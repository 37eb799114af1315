// The Retry action on a failed agent: it runs again from its conversation as it stands, not afresh. A failed
// model call left the request that failed as the history's last message, so the retry sends it again; a
// subagent's new report reaches the agent that started it (or the main agent) like a background report.
import { listAgentStates } from '../../store'
import type { SessionContext } from '../types'
import type { AgentHandle } from './agent-registry'
import type { AgentRunResult } from '../../loop/types'
import { startSubagentRun, type SubagentRunHost } from './agent-run'
import type { MainAgent } from './main-agent'

/** What a retry needs: the subagent run path, the main agent, and finding an agent by id or name (also one loaded from disk). */
export type RetryHost = SubagentRunHost & { main: MainAgent; mainAgentId: string; findAgent(idOrName: string): Promise<AgentHandle | undefined> }

/** Said to an agent whose history ends with its own reply (nothing to send again): why it runs again. */
export const retryNote = (error: string | undefined): string =>
  `Your previous run failed${error ? `: ${error}` : ''}. It is being retried: go on with your task from where you were.`

/**
 * Starts a failed agent again. Resolves once it has started (the main agent's run is returned to await);
 * throws, with a sentence for the person, when the agent is unknown, running, or did not fail.
 */
export async function retryAgent(host: RetryHost, idOrName: string): Promise<{ agentId: string; run: Promise<AgentRunResult | unknown> }> {
  const handle = idOrName === 'main' ? host.main.getHandle() : await host.findAgent(idOrName)
  if (!handle) throw new RetryRefusedError('not_found', `There is no agent ${idOrName} in this session.`)
  if (handle.run) throw new RetryRefusedError('conflict', `Agent ${handle.id} is running; only a failed agent can be retried.`)
  if (handle.status !== 'failed')
    throw new RetryRefusedError('conflict', `Agent ${handle.id} has not failed (it is ${handle.status}); only a failed agent can be retried.`)
  const note = retryNote(handle.lastResult?.error)
  if (handle.id === host.mainAgentId) return { agentId: handle.id, run: host.main.retry(note) }
  // No history (it failed before its first turn was written): its task again. A history that ends with the
  // failed request: nothing new, the request is sent again. One that ends with its own reply: the note.
  const prompt = !handle.messages.length ? (handle.task ?? note) : handle.messages.at(-1)?.role === 'user' ? undefined : note
  const maxTurns = handle.definition?.maxTurns
  const run = startSubagentRun(host, handle, {
    ...(prompt !== undefined ? { prompt } : {}),
    reportTo: handle.parentId ?? host.mainAgentId,
    ...(maxTurns !== undefined ? { maxTurns } : {})
  })
  return { agentId: handle.id, run }
}

/**
 * The agents a retry that names none starts again (`fanout run --resume ID --retry`): the main agent when its
 * last run failed; else every failed subagent, running in this process or recorded on disk; else none.
 */
export async function failedAgents(host: RetryHost & Pick<SessionContext, 'dataDir' | 'sessionId' | 'registry'>): Promise<string[]> {
  const main = host.main.getHandle()
  if (main.status === 'failed' && !main.run) return [main.id]
  const failed = new Set(
    host.registry
      .all()
      .filter((h) => h.id !== host.mainAgentId && h.status === 'failed' && !h.run)
      .map((h) => h.id)
  )
  if (host.dataDir)
    for (const s of (await listAgentStates(host.dataDir, host.sessionId)).states)
      if (s.agentId !== host.mainAgentId && s.status === 'failed' && !host.registry.get(s.agentId)) failed.add(s.agentId)
  return [...failed]
}

/** Why a retry was refused, with the kind of refusal the host answers with. */
export class RetryRefusedError extends Error {
  constructor(
    readonly kind: 'not_found' | 'conflict',
    message: string
  ) {
    super(message)
    this.name = 'RetryRefusedError'
  }
}
