// A run whose agents all wait on each other: Node would exit 0 with no output. It answers instead.
import type { AgentSession } from '../runtime/orchestration'
import { unfinishedMessage } from './output/undone'

/**
 * Node exits when nothing is left to wait for, even with promises pending: a run whose agents all wait on
 * each other would end with status 0 and no output. This says so instead and makes the exit status 1.
 */
export function watchForStuckRun(session: AgentSession, answer: (reason: string) => void): { dispose(): void } {
  let said = false
  const onBeforeExit = () => {
    if (said) return
    said = true
    const reason = `the run cannot make progress: ${unfinishedMessage(session.unfinished())}`
    answer(reason)
    process.exitCode = 1
    void session.close().catch(() => undefined)
  }
  process.on('beforeExit', onBeforeExit)
  return { dispose: () => process.off('beforeExit', onBeforeExit) }
}
