// V8 gives a function its feedback vector (where its inline caches learn the object shapes they meet, and
// what its later compilation to faster code feeds on) only once it has run a while (--lazy-feedback-allocation):
// that saves memory and start time where most functions run once. A fan-out is the other case: the same
// steps (build a request, read a reply, run a tool) run again for every agent, and the last agent's hops are
// only as quick as those steps have become by then.
//
// So `fanout run` keeps V8's default while it starts, where eager feedback cost ~17 ms (start calls thousands
// of functions once), and turns it on as its first model request is made: that request's steps and all that
// come after get their feedback from their first call. Measured in interleaved pairs at 16 agents (bench:
// `fanout run` as a fresh process): the fan-out's overhead 16.1 → 13.9 ms (a worker's tool reply → its next
// request 4.8 → 3.1 ms), for about 1 ms more before the first request (three runs of 14-20 pairs: +1.4, −1.2,
// +2.8 ms), the first request's own steps getting their feedback at once. Turned on once that request was sent,
// it gained nothing: those steps had run once already.
//
// The flag is part of what a V8 code cache is made under: a cache made with it changed is refused by a start
// without it. So the launcher puts it back before it saves the caches (launch.ts). A person who set it on
// Node's command line keeps their choice.
import { setFlagsFromString } from 'node:v8'
import { chosenOnCommandLine } from './node-flags'

const FLAG = 'lazy-feedback-allocation'

/** From now on, a function gets its feedback vector at its first call. False when the person chose the flag. */
export function feedbackFromFirstCall(execArgv: readonly string[] = process.execArgv): boolean {
  if (chosenOnCommandLine(FLAG, execArgv)) return false
  setFlagsFromString(`--no-${FLAG}`)
  return true
}

/** V8's default back, as the process started with it: before a code cache is made, so that the next start takes it. */
export function feedbackAsAtStart(execArgv: readonly string[] = process.execArgv): boolean {
  if (chosenOnCommandLine(FLAG, execArgv)) return false
  setFlagsFromString(`--${FLAG}`)
  return true
}
