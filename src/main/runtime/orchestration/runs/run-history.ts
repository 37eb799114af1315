// Records every subagent run of the session in the agent definitions' history (store/agent-history.ts):
// cost, tokens, turns, duration and how it ended, folded from the run's own events, so the record says what
// its transcript says. The main agent is not a definition's run; a fork is its parent, not a definition.
import type { AgentRunRecord, RunOutcome } from '../../../../shared/budget'
import type { AgentEndEvent, AgentEvent } from '../../../../shared/events'
import { errorMessage } from '../../../../shared/error-message'
import { appendAgentRun } from '../../store/agent-history'
import { FORK_AGENT_TYPE } from '../spawn/fork'
import type { AgentRegistry } from './agent-registry'

export function runOutcome(e: Pick<AgentEndEvent, 'status' | 'limit'>): RunOutcome {
  if (e.limit === 'budget') return 'budget'
  if (e.status === 'completed') return 'completed'
  if (e.status === 'max_turns') return 'max_turns'
  if (e.status === 'failed') return 'failed'
  return 'stopped'
}

export class RunHistoryRecorder {
  private readonly starts = new Map<string, { promptChars: number; model: string }>()
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly o: {
      dataDir: string
      sessionId: string
      mainAgentId: string
      registry: Pick<AgentRegistry, 'get'>
      onError(err: Error): void
    }
  ) {}

  note(e: AgentEvent): void {
    if (e.agentId === this.o.mainAgentId) return
    if (e.type === 'agent_start') {
      if (e.agentType !== FORK_AGENT_TYPE) this.starts.set(e.agentId, { promptChars: e.prompt.length, model: e.model })
      return
    }
    if (e.type !== 'agent_end') return
    const start = this.starts.get(e.agentId)
    if (!start) return
    this.starts.delete(e.agentId)
    const def = this.o.registry.get(e.agentId)?.definition
    const u = e.usage
    const record: AgentRunRecord = {
      ts: e.ts,
      sessionId: this.o.sessionId,
      agentId: e.agentId,
      agentType: def?.agentType ?? this.o.registry.get(e.agentId)?.agentType ?? 'agent',
      ...(def?.file ? { file: def.file } : {}),
      model: start.model,
      outcome: runOutcome(e),
      costUsd: u.costUsd,
      tokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens,
      turns: e.numTurns,
      durationMs: e.durationMs,
      promptChars: start.promptChars
    }
    // Appended at once: the store keeps the order and writes the runs that end together as one batch.
    const written = appendAgentRun(this.o.dataDir, record).catch((err: unknown) =>
      this.o.onError(new Error(`Recording the run of agent ${e.agentId} in the agents' history failed: ${errorMessage(err)}`))
    )
    this.writing = Promise.all([this.writing, written]).then(() => undefined)
  }

  /** Resolves once every run ended so far is in the store. */
  flush(): Promise<void> {
    return this.writing
  }
}
