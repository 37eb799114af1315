// `--input-format stream-json`: the user messages on stdin are turns of one conversation (Claude Code's
// multi-turn -p). The first turn goes alone as it arrives; the messages that arrive while a turn runs are sent
// together as the next turn once it ends, as Claude Code sends its queued messages.

/**
 * The turns to run, in order: each batch is taken when the caller asks for the next one (after the turn before
 * it ended), holding every message that arrived meanwhile. A failure reading stdin is thrown from the iteration.
 */
export async function* turnBatches(turns: AsyncIterable<string>): AsyncGenerator<string[]> {
  const queue: string[] = []
  let ended = false
  let failure: unknown
  const waiting: { wake: (() => void) | null } = { wake: null }
  void (async () => {
    try {
      for await (const text of turns) {
        queue.push(text)
        waiting.wake?.()
      }
    } catch (err) {
      failure = err
    } finally {
      ended = true
      waiting.wake?.()
    }
  })()
  let first = true
  for (;;) {
    while (!queue.length && !ended && failure === undefined) await new Promise<void>((r) => (waiting.wake = r))
    waiting.wake = null
    if (failure !== undefined) throw failure
    if (!queue.length) return
    yield queue.splice(0, first ? 1 : queue.length)
    first = false
  }
}
