// What resuming an agent needs, gathered in one call: its saved state and its conversation rebuilt from
// the transcript (repaired for the API), plus which agents a restart should resume on its own. The
// transcript is the record: a state.json that is missing, does not parse or does not validate is rebuilt
// from it (and the caller is told), never a reason to resume with less history or not at all.
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import type { AgentEvent, ChatMessage } from '../../../shared/events'
import { continuesTask } from '../../../shared/run-opening'
import { listAgentStates, readAgentState, type AgentState } from './agent-state'
import { errorCode } from './atomic-file'
import { agentsDir, agentStatePath, transcriptPath } from './data-dir'
import { mapLimit } from './map-limit'
import { foldConversation, rebuildConversation, type RebuildOptions } from './rebuild-conversation'
import { isTerminalStatus } from './session-index'
import { stateFromTranscript } from './state-from-transcript'
import { readTranscript } from './transcript/reader'

export interface AgentResumeData {
  /** From state.json, or rebuilt from the transcript when that file is missing or broken (a note says so); null only for an empty transcript. */
  state: AgentState | null
  /** The agent's messages, ready to send with one more user turn (see appendUserText). */
  messages: ChatMessage[]
  /**
   * The tail of `messages` the transcript lacks: the answers to the calls a crash cut off, decided now. The
   * caller records them (as `message` events) before anything else is added, so each is decided once and a
   * later resume reads the same history, byte for byte, instead of deciding (and wording) them again.
   */
  decided: ChatMessage[]
  /**
   * Whether `messages` without `decided` is the transcript's conversation as recorded, so as the model was sent
   * it: no repair inside it (an older version's transcript can need one). Then the agent's next request must
   * extend it (SentHistory), across the restart as within a process.
   */
  asRecorded: boolean
  /** Every event of its transcript, in order (deliveries, tool runs: what the repair of a cut-off turn needs). */
  events: AgentEvent[]
  /** Corrupt lines skipped, repairs made, a state rebuilt: one sentence each. */
  notes: string[]
  transcriptFile: string
  /** The task the agent was started with (its first agent_start's description), for the runs that continue it. */
  description?: string
}

export interface LoadForResumeOptions {
  /** The session's folder (the checkout a worktree agent was made from, when its state must be rebuilt). */
  sessionCwd?: string
  /** How a tool call cut off mid-run is answered (see RebuildOptions.interruptedResult), given the agent's events. */
  interruptedResult?: (events: readonly AgentEvent[]) => RebuildOptions['interruptedResult']
}

export async function loadAgentForResume(dataDir: string, sessionId: string, agentId: string, opts: LoadForResumeOptions = {}): Promise<AgentResumeData> {
  const file = transcriptPath(dataDir, sessionId, agentId)
  const notes: string[] = []
  const [transcript, saved] = await Promise.all([
    // No transcript yet: a background agent launched and cut off before it started (its state says what it is).
    readTranscript(file).catch(async (err: Error) => {
      if (existsSync(file) || !(await readAgentState(dataDir, sessionId, agentId).catch(() => null))) throw err
      return { file, header: null, events: [], issues: [] }
    }),
    readAgentState(dataDir, sessionId, agentId).then(
      (s) => ({ state: s, broken: null as string | null }),
      (err: Error) => ({ state: null, broken: err.message })
    )
  ])
  notes.push(...transcript.issues.map((i) => i.message))
  const folded = foldConversation(transcript.events)
  const messages = rebuildConversation(transcript.events, {
    onRepair: (n) => notes.push(`${file}: ${n}`),
    ...(opts.interruptedResult ? { interruptedResult: opts.interruptedResult(transcript.events) } : {})
  })
  // Only answers added after everything recorded can be recorded as they are (appended); a repair inside the
  // history (an old transcript's) is made again the same way on every read.
  const appended = messages.length >= folded.length && folded.every((m, i) => messages[i] === m)
  const decided = appended ? messages.slice(folded.length) : []
  let state = saved.state
  // Written after the transcript, state.json can lag it by a crash: a run the transcript says ended, ended.
  const recorded = stateFromTranscript(transcript.events, { sessionId, agentId, sessionCwd: opts.sessionCwd ?? '' })
  if (state && recorded && isTerminalStatus(recorded.status) && !isTerminalStatus(state.status)) state = { ...state, status: recorded.status }
  if (!state) {
    state = stateFromTranscript(transcript.events, { sessionId, agentId, sessionCwd: opts.sessionCwd ?? '' })
    if (saved.broken)
      notes.push(`The saved state of agent ${agentId} could not be used (${saved.broken}); it was rebuilt from its transcript, whose history is complete.`)
    else if (state) notes.push(`agent ${agentId} has no saved state; it was rebuilt from its transcript`)
  }
  const first = transcript.events.find((e) => e.type === 'agent_start' && !continuesTask(e.prompt))
  const description = state?.description ?? (first?.type === 'agent_start' ? first.description : undefined)
  return { state, messages, decided, asRecorded: appended, events: transcript.events, notes, transcriptFile: file, ...(description ? { description } : {}) }
}

/**
 * Agents that were still going when the session stopped (crash, quit) and that the user did not stop:
 * the ones a restart resumes by itself. Stopped-by-user and finished agents are never in this list. An
 * agent whose state.json is missing or broken is judged by its transcript.
 */
export async function agentsToResume(
  dataDir: string,
  sessionId: string,
  opts: { sessionCwd?: string } = {}
): Promise<{ states: AgentState[]; problems: string[] }> {
  const listed = await listAgentStates(dataDir, sessionId)
  const problems = listed.problems
  // state.json is written after the transcript: one a crash caught in between says running for a run whose
  // transcript already ended. The transcript is the record: its last run's end wins.
  const states = await mapLimit(listed.states, 16, async (state) => {
    const t = await readTranscript(transcriptPath(dataDir, sessionId, state.agentId)).catch(() => null)
    const fromTranscript = t && stateFromTranscript(t.events, { sessionId, agentId: state.agentId, sessionCwd: opts.sessionCwd ?? '' })
    return fromTranscript && isTerminalStatus(fromTranscript.status) && !isTerminalStatus(state.status) ? { ...state, status: fromTranscript.status } : state
  })
  const known = new Set(states.map((s) => s.agentId))
  const rebuilt: AgentState[] = []
  const notes: string[] = []
  await mapLimit(await transcriptIds(dataDir, sessionId), 16, async (agentId) => {
    if (known.has(agentId)) return
    const t = await readTranscript(transcriptPath(dataDir, sessionId, agentId)).catch(() => null)
    const state = t && stateFromTranscript(t.events, { sessionId, agentId, sessionCwd: opts.sessionCwd ?? '' })
    if (!state) return
    rebuilt.push(state)
    // A broken state file is among `problems` already; one that was never written is said here.
    if (!state.stoppedByUser && !isTerminalStatus(state.status) && !existsSync(agentStatePath(dataDir, sessionId, agentId)))
      notes.push(`Agent ${agentId} had no saved state; it was judged by its transcript.`)
  })
  // A broken state file was reported by listAgentStates; its agent is in `rebuilt` now, so it is not lost.
  const all = [...states, ...rebuilt]
  return {
    states: all.filter((s) => !s.stoppedByUser && (s.status === 'interrupted' || !isTerminalStatus(s.status))),
    problems: [...problems.map((p) => `${p} (the agent was judged by its transcript instead)`), ...notes]
  }
}

async function transcriptIds(dataDir: string, sessionId: string): Promise<string[]> {
  try {
    return (await readdir(agentsDir(dataDir, sessionId))).filter((n) => n.endsWith('.jsonl')).map((n) => n.slice(0, -'.jsonl'.length))
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return []
    throw err
  }
}
