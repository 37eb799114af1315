// The note about agent worktrees an earlier run left behind. Looking for them runs git, so it waits for a
// moment when nothing starts: after the first model response (when a fan-out's siblings start) and once no
// agent, tool or model request has started for QUIET_MS — agents are then waiting on the model — or, in a run
// too short for such a moment, at its end.
// A worktree a killed `git worktree add` left half made is removed then, not just listed: it never held work
// (cleanupOrphan proves that first, else it stays listed), and while it is registered its placeholder HEAD
// breaks `git log --all` in the person's repository (worktrees/half-made.ts).
import { QuietDeadline } from '../runtime/clock'
import type { AgentSession } from '../runtime/orchestration'
import type { OrphanWorktree } from '../runtime/worktrees'

const QUIET_MS = 300
const STARTS = new Set(['agent_start', 'tool_start', 'model_request', 'usage'])

export interface OrphanNote {
  /** Waits for the look (starting it now if its moment never came); nothing when no model response came. */
  settle(): Promise<void>
}

export function orphanNote(session: Pick<AgentSession, 'bus' | 'findOrphans' | 'cleanupOrphan'>, write: (line: string) => void): OrphanNote {
  let answered = false
  let look: Promise<void> | null = null
  // Pushed back by each start; its timer is not what keeps the process up.
  const quiet = new QuietDeadline(QUIET_MS, () => void start(), false)
  const note = async (): Promise<void> => {
    const left: OrphanWorktree[] = []
    let removed = 0
    for (const orphan of await session.findOrphans()) {
      if (orphan.halfMade && (await session.cleanupOrphan(orphan).catch(() => null))?.removed) removed++
      else left.push(orphan)
    }
    if (removed)
      write(
        `fanout: removed ${removed} half-made agent worktree${removed === 1 ? '' : 's'} left behind by an earlier run (killed while git was adding ${removed === 1 ? 'it' : 'them'}; nothing was in ${removed === 1 ? 'it' : 'them'}).\n`
      )
    if (left.length)
      write(
        `fanout: ${left.length} agent worktree${left.length === 1 ? ' was' : 's were'} left behind by an earlier run; see 'fanout worktrees list' and 'fanout worktrees clean'.\n`
      )
  }
  const start = (): Promise<void> => {
    look ??= note().catch(() => undefined)
    unsubscribe()
    return look
  }
  const unsubscribe = session.bus.subscribe((e) => {
    if (look || !STARTS.has(e.type)) return
    if (e.type === 'usage') answered = true
    if (!answered) return
    quiet.poke()
  })
  return {
    settle() {
      quiet.stop()
      unsubscribe()
      return answered ? start() : Promise.resolve()
    }
  }
}
