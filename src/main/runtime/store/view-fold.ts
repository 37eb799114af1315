// A session's view kept folded while it is recorded, so that closing the session writes its view
// checkpoint from state already held instead of reading and folding every transcript again (which held
// a finished `fanout run` open for as long as the replay took, after its output was printed).
//
// It folds exactly what a replay of the transcripts folds (replaySession, session-fold.ts), so the
// checkpoint is the same whichever wrote it: each agent's lines as its writer writes them (consecutive
// deltas merged into one line), less the deltas that a later assistant message repeats or a retry voids
// (readTranscript's skipSettledDeltas), every agent's events in the order of their place. A delta's fate
// is known only when its stream ends, so events are folded in place order up to the first delta of any
// agent still undecided; the rest wait for the next fold.
import type { RecordedEvent } from './transcript/migrations'
import { applyEvents } from '../../../shared/view/reducer'
import { emptySession, type SessionState } from '../../../shared/view/session-state'
import { eventPlace } from './session-fold'
import { streamEnd } from './transcript/format'

const DELTA_TYPES: ReadonlySet<string> = new Set(['text_delta', 'thinking_delta', 'tool_input_delta'])

interface Line {
  e: RecordedEvent
  /** The agent's place in the replay's list of transcripts: breaks ties of place, as its stable sort does. */
  agent: number
  /** Arrival: keeps an agent's lines in file order where their places tie. */
  n: number
}

interface AgentLines {
  ordinal: number
  /** Deltas since the agent's last stream end: kept or dropped when the next one comes. */
  held: Line[]
  /** Whether the agent's last run has begun and not ended (a replay would close it as interrupted). */
  run: 'none' | 'open' | 'ended'
}

/** Lines waiting before a fold is worth trying without waiting for the next index write. */
export const FOLD_BACKLOG = 2048

const byPlace = (a: Line, b: Line): number => eventPlace(a.e) - eventPlace(b.e) || a.agent - b.agent || a.n - b.n

export class ViewFold {
  private state: SessionState
  private readonly agents = new Map<string, AgentLines>()
  private ready: Line[] = []
  private lines = 0
  /** How many lines may wait before the next backlog fold (see foldBacklog). */
  private backlogAt = FOLD_BACKLOG
  /** Folds tried, for tests: each sorts every line waiting. */
  attempts = 0

  constructor(private readonly sessionId: string) {
    this.state = emptySession(sessionId)
  }

  /** Lines known but not folded yet. */
  get pending(): number {
    return this.ready.length
  }

  /** Some agent's last run has no agent_end: a replay would end it as `interrupted` (interruption.ts). */
  get runsOpen(): boolean {
    for (const a of this.agents.values()) if (a.run === 'open') return true
    return false
  }

  /**
   * The next line of an agent's transcript. `merged`: the writer folded it into that agent's previous,
   * still unwritten line (consecutive deltas of one stream), so it replaces that line.
   */
  line(e: RecordedEvent, merged = false): void {
    const a = this.agentLines(e.agentId)
    if (e.type === 'agent_start') a.run = 'open'
    else if (e.type === 'agent_end') a.run = 'ended'
    else if (a.run === 'none') a.run = 'open' // a transcript without its agent_start counts as one run
    if (DELTA_TYPES.has(e.type)) {
      const last = a.held[a.held.length - 1]
      if (merged && last) last.e = e
      else a.held.push({ e, agent: a.ordinal, n: this.lines++ })
      return
    }
    const end = streamEnd(e)
    if (end) {
      if (end === 'kept') for (const l of a.held) this.ready.push(l)
      a.held = []
    }
    this.ready.push({ e, agent: a.ordinal, n: this.lines++ })
  }

  /**
   * Folds when FOLD_BACKLOG more lines wait than the last fold left. A stream still open holds back every line
   * after its first delta, so the lines behind it cannot fold however many there are: trying again at every line
   * once FOLD_BACKLOG waited sorted all of them each time.
   */
  foldBacklog(): void {
    if (this.ready.length >= this.backlogAt) this.fold()
  }

  /** Folds the lines whose place is settled: those before the first delta still undecided. */
  fold(): void {
    this.foldSettled()
    this.backlogAt = this.ready.length + FOLD_BACKLOG
  }

  private foldSettled(): void {
    if (!this.ready.length) return
    this.attempts++
    let barrier = Infinity
    for (const a of this.agents.values()) if (a.held.length) barrier = Math.min(barrier, eventPlace(a.held[0].e))
    this.ready.sort(byPlace)
    let n = 0
    while (n < this.ready.length && eventPlace(this.ready[n].e) < barrier) n++
    if (!n) return
    const batch = this.ready.slice(0, n).map((l) => l.e)
    this.ready = this.ready.slice(n)
    this.state = applyEvents({ sessions: { [this.sessionId]: this.state } }, batch).sessions[this.sessionId] ?? this.state
  }

  /**
   * The state a replay of the transcripts as they now end folds: deltas still undecided are kept, as a
   * reader keeps those at the end of a file. For a recorder that is done: a later line would be folded
   * as if these deltas had been kept.
   */
  finish(): SessionState {
    for (const a of this.agents.values()) {
      for (const l of a.held) this.ready.push(l)
      a.held = []
    }
    this.fold()
    return this.state
  }

  private agentLines(agentId: string): AgentLines {
    let a = this.agents.get(agentId)
    if (!a) {
      a = { ordinal: this.agents.size, held: [], run: 'none' }
      this.agents.set(agentId, a)
    }
    return a
  }
}
