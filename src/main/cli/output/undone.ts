// What a run's result says when the run did not do everything: work left undone though the main agent
// answered, a run that failed before any model call, and the one line stderr gives for either.
import type { AgentRunResult } from '../../runtime/loop/types'
import type { AgentHandle } from '../../runtime/orchestration'
import { emptyUsage } from '../../../shared/usage'
import { resultMessage, type ResultMessage } from './result-message'
import type { RunTally } from './run-tally'

/**
 * Work was left undone though the main agent answered: the result says so (never `success`), with the reason
 * in `result`, `error` and `errors`. The first reason found is the one given; later ones join `errors`.
 */
export function markUndone(summary: ResultMessage, terminal: string, reason: string): void {
  if (summary.is_error) {
    summary.errors = [...(summary.errors ?? []), reason]
    return
  }
  Object.assign(summary, {
    subtype: 'error_during_execution',
    terminal_reason: terminal,
    is_error: true,
    status: 'failed',
    result: summary.result ? `${summary.result}\n\n[${reason}]` : reason,
    error: reason,
    errors: [reason]
  })
}

/** The result of a run that failed before or without any model call: `reason` is its error and its result. */
export function failedResult(sessionId: string, tally: RunTally, reason: string): ResultMessage {
  const failed: AgentRunResult = {
    status: 'failed',
    result: '',
    error: reason,
    numTurns: 0,
    toolUses: 0,
    usage: emptyUsage(),
    durationMs: 0,
    messages: [],
    model: '',
    stopReason: null
  }
  return resultMessage({ sessionId, result: failed, tally, interrupted: false, overBudget: false })
}

export function failureLine(summary: ResultMessage): string {
  if (summary.status === 'failed') return `failed: ${summary.error}`
  if (summary.status === 'max_turns') return summary.error ? `stopped at the turn limit: ${summary.error}` : 'stopped at the turn limit'
  return summary.error ? `stopped: ${summary.error}` : 'stopped'
}

export function unfinishedMessage(left: AgentHandle[]): string {
  const list = left
    .slice(0, 8)
    .map((h) => `${h.id} (${h.agentType}, ${h.status})`)
    .join(', ')
  return `the run ended with ${left.length} agent${left.length === 1 ? '' : 's'} not finished: ${list}${left.length > 8 ? ', …' : ''}. Nothing is left that could make them progress; resume the session to try again.`
}
