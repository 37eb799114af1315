// The note about agent worktrees an earlier run left behind. Looking for them runs git, so it waits for a
// moment when nothing starts: after the first model response (when a fan-out's siblings start) and once no
// agent, tool or model request has started for QUIET_MS — agents are then waiting on the model — or, in a run
// too short for such a moment, at its end.
import type { AgentSession } from '../runtime/orchestration'

const QUIET_MS = 300
const STARTS = new Set(['agent_start', 'tool_start', 'model_request', 'usage'])

export interface OrphanNote {
  /** Waits for the look (starting it now if its moment never came); nothing when no model response came. */
  settle(): Promise<void>
}

export function orphanNote(session: Pick<AgentSession, 'bus' | 'findOrphans'>, write: (line: string) => void): OrphanNote {
  let answered = false
  let look: Promise<void> | null = null
  let timer: NodeJS.Timeout | undefined
  const start = (): Promise<void> => {
    look ??= session.findOrphans().then(
      (orphans) => {
        if (orphans.length)
          write(
            `fanout: ${orphans.length} agent worktree${orphans.length === 1 ? ' was' : 's were'} left behind by an earlier run; see 'fanout worktrees list' and 'fanout worktrees clean'.\n`
          )
      },
      () => undefined
    )
    unsubscribe()
    return look
  }
  const unsubscribe = session.bus.subscribe((e) => {
    if (look || !STARTS.has(e.type)) return
    if (e.type === 'usage') answered = true
    if (!answered) return
    clearTimeout(timer)
    timer = setTimeout(start, QUIET_MS)
    timer.unref()
  })
  return {
    settle() {
      clearTimeout(timer)
      unsubscribe()
      return answered ? start() : Promise.resolve()
    }
  }
}
