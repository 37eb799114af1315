// What resuming an agent needs, gathered in one call: its saved state and its conversation rebuilt from
// the transcript (repaired for the API), plus which agents a restart should resume on its own.
import type { ChatMessage } from '../../../shared/events'
import { continuesTask } from '../../../shared/run-opening'
import { listAgentStates, readAgentState, type AgentState } from './agent-state'
import { transcriptPath } from './data-dir'
import { rebuildConversation } from './rebuild-conversation'
import { isTerminalStatus } from './session-index'
import { readTranscript } from './transcript-reader'

export interface AgentResumeData {
  /** null when the agent never had a state.json written (then the caller decides from the transcript). */
  state: AgentState | null
  /** The agent's messages, ready to send with one more user turn (see appendUserText). */
  messages: ChatMessage[]
  /** Corrupt lines skipped, repairs made, a missing state: one sentence each. */
  notes: string[]
  transcriptFile: string
  /** The task the agent was started with (its first agent_start's description), for the runs that continue it. */
  description?: string
}

export async function loadAgentForResume(dataDir: string, sessionId: string, agentId: string): Promise<AgentResumeData> {
  const file = transcriptPath(dataDir, sessionId, agentId)
  const [transcript, state] = await Promise.all([readTranscript(file), readAgentState(dataDir, sessionId, agentId)])
  const notes = transcript.issues.map((i) => i.message)
  const messages = rebuildConversation(transcript.events, { onRepair: (n) => notes.push(`${file}: ${n}`) })
  if (!state) notes.push(`agent ${agentId} has no saved state; its definition and model must be chosen again`)
  const first = transcript.events.find((e) => e.type === 'agent_start' && !continuesTask(e.prompt))
  const description = state?.description ?? (first?.type === 'agent_start' ? first.description : undefined)
  return { state, messages, notes, transcriptFile: file, ...(description ? { description } : {}) }
}

/**
 * Agents that were still going when the session stopped (crash, quit) and that the user did not stop:
 * the ones a restart resumes by itself. Stopped-by-user and finished agents are never in this list.
 */
export async function agentsToResume(dataDir: string, sessionId: string): Promise<{ states: AgentState[]; problems: string[] }> {
  const { states, problems } = await listAgentStates(dataDir, sessionId)
  return { states: states.filter((s) => !s.stoppedByUser && (s.status === 'interrupted' || !isTerminalStatus(s.status))), problems }
}
