// The no-progress guard: an agent that makes the same failing calls turn after turn (a tool that does not
// exist, a command that fails the same way) is not going to get anywhere, and each turn costs a model call
// over an ever longer conversation. A turn "fails the same way" when every call in it failed and the calls
// (tool, input and error) are the ones the previous turn made. A call to a tool the agent does not have is
// the same call whatever its input: guessing at a missing tool's arguments makes no more progress than
// repeating them. Different calls that fail alike (trying one command after another) are not a loop.
import type { CallOutcome, StopCondition } from './stop-condition'

export const DEFAULT_MAX_REPEATED_FAILURES = 5

export type { CallOutcome }

export class FailureStreak {
  private last: string | null = null
  private count = 0

  constructor(private readonly limit: number) {}

  /** Records one turn's tool calls; returns the sentence ending the run when the streak reached the limit. */
  record(outcomes: readonly CallOutcome[]): string | null {
    if (!outcomes.length || outcomes.some((o) => !o.isError)) {
      this.last = null
      this.count = 0
      return null
    }
    const signature = outcomes
      .map((o) => `${o.name}\u0000${o.input === undefined ? '' : JSON.stringify(o.input)}\u0000${o.content}`)
      .sort()
      .join('\u0001')
    this.count = signature === this.last ? this.count + 1 : 1
    this.last = signature
    if (this.limit <= 0 || this.count < this.limit) return null
    const first = outcomes[0]
    const what = outcomes.length === 1 ? `the same failing ${first.name} call` : `the same ${outcomes.length} failing calls`
    return `Stopped for making no progress: ${what} ${this.count} turns in a row (${first.name}: ${oneLine(first.content)}).`
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 160 ? `${line.slice(0, 159)}…` : line
}

/** The guard as a stop condition: one streak per run, fed each turn's tool calls. */
export function noProgress(maxRepeatedFailures = DEFAULT_MAX_REPEATED_FAILURES): StopCondition {
  const streak = new FailureStreak(maxRepeatedFailures)
  return {
    name: 'no_progress',
    at: 'tools',
    check: ({ outcomes }) => {
      const stuck = outcomes ? streak.record(outcomes) : null
      return stuck ? { limit: 'no_progress', message: stuck } : null
    }
  }
}
