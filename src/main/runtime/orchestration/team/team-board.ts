// A team's durable state: the op log on disk and its fold in memory. `run` appends an operation, reads the
// log up to and past it, and returns what the fold decided for it — so two agents (or processes) claiming
// the same task both write their claim, and both learn from the one file order which of them got it.
import { cleanUuid } from '../../random-hex'
import type { TeamSnapshot } from '../../../../shared/team'
import { OpLog } from './op-log'
import { applyOp, emptyTeamState, type OpOutcome, type CallRecord, type TeamState } from './team-fold'
import type { TeamOp, TeamOpInput } from './team-ops'
import { errorMessage } from '../../../../shared/error-message'

export interface TeamBoardOptions {
  /** Called after a read that changed the team, with the state as it now stands (do not keep it: copy). */
  onChange?: (state: Readonly<TeamState>) => void
  /** A line of the log that is not an operation (reported, skipped). */
  onProblem?: (message: string) => void
}

export class TeamBoard {
  private readonly log: OpLog<TeamOp>
  private readonly state = emptyTeamState()
  /** Outcomes of this board's own operations, until `run` collects them. */
  private readonly outcomes = new Map<string, OpOutcome | null>()
  private reading: Promise<void> = Promise.resolve()

  constructor(
    readonly file: string,
    private readonly opts: TeamBoardOptions = {}
  ) {
    this.log = new OpLog<TeamOp>(file, opts.onProblem)
  }

  /** Records one operation and returns whether it took effect, and if not, why. */
  async run(input: TeamOpInput): Promise<OpOutcome> {
    const op = { ...input, opId: cleanUuid(), ts: Date.now() } as TeamOp
    this.outcomes.set(op.opId, null)
    try {
      await this.log.append(op)
      await this.refresh()
      const out = this.outcomes.get(op.opId)
      if (!out) throw new Error(`the team log ${this.file} did not show the operation just written to it`)
      return out
    } finally {
      this.outcomes.delete(op.opId)
    }
  }

  /** Reads what others appended since the last read. Reads are queued, so the fold sees the log in order. */
  refresh(): Promise<void> {
    const next = this.reading.then(async () => {
      const ops = await this.log.readNew()
      let changed = false
      for (const op of ops) {
        const out = this.apply(op)
        if (this.outcomes.has(op.opId)) this.outcomes.set(op.opId, out)
        if (out.ok) changed = true
      }
      if (changed) this.opts.onChange?.(this.state)
    })
    this.reading = next.catch(() => undefined)
    return next
  }

  private apply(op: TeamOp): OpOutcome {
    if (!op || typeof op !== 'object' || typeof op.op !== 'string' || typeof op.opId !== 'string' || typeof op.actor !== 'string') {
      this.opts.onProblem?.(`${this.file}: skipped a record that is not a team operation: ${JSON.stringify(op).slice(0, 80)}`)
      return { ok: false, error: 'not a team operation' }
    }
    try {
      return applyOp(this.state, op)
    } catch (err) {
      // A record edited by hand into a shape the fold cannot read: skipped the same way by every reader.
      this.opts.onProblem?.(`${this.file}: skipped a malformed ${op.op} operation: ${errorMessage(err)}`)
      return { ok: false, error: `malformed ${op.op} operation` }
    }
  }

  /** How the active team's member `agentId` was launched (its task and the call that started the team), when the log says. */
  launchOf(agentId: string): { prompt: string; toolUseId?: string } | undefined {
    return this.state.launches[agentId]
  }

  /**
   * What the team tool's call `toolUseId` came to, as last read: its record, `null` when the log surely holds none
   * (every tool's operation in it carries its call's id), undefined when it cannot tell (an older log).
   */
  callOf(toolUseId: string): CallRecord | null | undefined {
    return this.state.calls[toolUseId] ?? (this.state.untracked ? undefined : null)
  }

  /** The team as last read (a copy), or null when none was created. */
  snapshot(): TeamSnapshot | null {
    return this.state.team ? structuredClone(this.state.team) : null
  }
}
