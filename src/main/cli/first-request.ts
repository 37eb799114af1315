// What `fanout run` does once, as its first model request is made: work it keeps off the start (stdout and
// stderr, redaction's index) or that only pays from there on (V8's eager feedback), each at the moment it
// costs least.
import { prepareRedaction } from '../../shared/redact'
import { feedbackFromFirstCall } from './feedback-tiering'
import { collectWhileIdle } from './idle-gc'

/** How long after the first model request is made the redaction's index is built: once that request is on its way. */
const PREPARE_AFTER_MS = 40

/**
 * How long after the first model request is made the answer's steps are rehearsed: after the redaction's index,
 * still well inside the model's first reply.
 */
const REHEARSE_AFTER_MS = 60

/** How long after the first model request is made collecting at idle moments begins: after the rehearsal's garbage is made. */
const COLLECT_AFTER_MS = 80

/**
 * A bus listener that acts the first time it sees a model request. `rehearse`: the steps that make the run's
 * answer, run while the model works, their result thrown away (it must print nothing and change nothing the
 * answer says): made only at the end, they ran cold (V8's first pass through code, every property access
 * learning the shapes it meets), and the answer waited for that. They run again at each later request of the
 * main agent (`mainAgentId`): rehearsed only as the run began, with one agent in its tally, the answer of a
 * fan-out still met sixteen agents' entries and their shapes for the first time (~0.2 ms of its last hand-off).
 */
export function firstRequestSteps(rehearse?: () => void, mainAgentId?: string): (e: { type: string; agentId?: string }) => void {
  let done = false
  const rehearseSoon = () =>
    setTimeout(() => {
      try {
        rehearse?.()
      } catch {}
    }, REHEARSE_AFTER_MS).unref()
  return (e) => {
    if (e.type !== 'model_request') return
    if (done) {
      // Each later request of the main agent (its summary once a fan-out's reports are in): the answer's steps run
      // again while the model works, on the run as it has become (every agent in its tally), not as it began.
      if (rehearse && mainAgentId !== undefined && e.agentId === mainAgentId) rehearseSoon()
      return
    }
    done = true
    // stdout and stderr are made while the first request waits on the model: made at the answer, they held it
    // back by half a millisecond; made before the first request, they cost start time (redacted-output.ts).
    setTimeout(() => void [process.stdout, process.stderr]).unref()
    // As the first request is built: from here on the steps the agents repeat learn from their first call.
    feedbackFromFirstCall()
    // While the model works on it, the redaction's index of the secrets' forms is built (shared/redact.ts): no
    // later step waits for it at the first text that needs it. After the request is on its way, not before.
    setTimeout(prepareRedaction, PREPARE_AFTER_MS).unref()
    // From then on the young generation is collected while every agent waits on the model (idle-gc.ts).
    setTimeout(collectWhileIdle, COLLECT_AFTER_MS).unref()
    if (rehearse) rehearseSoon()
  }
}
