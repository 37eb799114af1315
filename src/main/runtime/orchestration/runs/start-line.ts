// Siblings that start together (one message's Agent calls) set up one behind the first. Set up interleaved,
// sixteen agents' setup steps (prompt, tools, hooks, mailbox) take turns on the main thread, and the first
// agent's request leaves only once all sixteen are nearly ready; with cache sharing (`first`) the other
// fifteen then wait for that request's response to begin, so every sibling's setup sat on the critical path.
// Here the first run of a parent's burst goes to its first model request alone, and the others set up
// while it is in flight. The wait is short and bounded: the leader's first request, its end, or `maxWaitMs`
// (a slow SubagentStart hook or MCP server of the leader never holds its siblings back for long).

/** How long a sibling waits at most for the leader's first request. */
export const START_LINE_MAX_WAIT_MS = 100

interface Leader {
  released: Promise<void>
  release: () => void
}

export interface StartTurn {
  /** This run is the leader: call when its first request leaves (or it ends); later calls do nothing. */
  release(): void
}

const lines = new WeakMap<object, Map<string | null, Leader>>()

const NOTHING: StartTurn = { release() {} }

/**
 * Waits, when a sibling (same session and parent) is setting up ahead of this run, until its first request
 * is on its way; else this run leads, and the StartTurn releases the ones that arrive behind it.
 */
export async function takeStartTurn(session: object, parentId: string | null, signal: AbortSignal, maxWaitMs = START_LINE_MAX_WAIT_MS): Promise<StartTurn> {
  let byParent = lines.get(session)
  if (!byParent) lines.set(session, (byParent = new Map()))
  const ahead = byParent.get(parentId)
  if (ahead) {
    await bounded(ahead.released, signal, maxWaitMs)
    return NOTHING
  }
  let release!: () => void
  const leader: Leader = { released: new Promise<void>((r) => (release = r)), release: () => release() }
  byParent.set(parentId, leader)
  let done = false
  return {
    release() {
      if (done) return
      done = true
      if (byParent.get(parentId) === leader) byParent.delete(parentId)
      // The siblings go on in the next macrotask: the leader's request is written to its socket first.
      setImmediate(leader.release)
    }
  }
}

async function bounded(released: Promise<void>, signal: AbortSignal, maxWaitMs: number): Promise<void> {
  if (signal.aborted) return
  let timer: ReturnType<typeof setTimeout> | undefined
  let onAbort: (() => void) | undefined
  try {
    await Promise.race([
      released,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxWaitMs)
        onAbort = resolve
        signal.addEventListener('abort', onAbort, { once: true })
      })
    ])
  } finally {
    clearTimeout(timer)
    if (onAbort) signal.removeEventListener('abort', onAbort)
  }
}
