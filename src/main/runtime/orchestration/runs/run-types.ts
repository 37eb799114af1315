// What a run is asked to do and what it returns: read by runs, spawn and delivery alike, so kept apart from
// them (and from the session context in ../types.ts) to keep the import graph free of cycles.
import type { ChatMessage, ContentBlock, ReportIntent } from '../../../../shared/events'
import type { AgentRunResult } from '../../loop/types'

/** A subagent run's result, with what happened to its worktree. */
export interface ChildResult extends AgentRunResult {
  worktree?: { path: string; branch: string; kept: boolean; commit?: string; error?: string }
  /** The run ended before the agent started (stopped while queued, worktree could not be made). */
  notStarted?: boolean
  /** The report the run owes, as recorded in its agent_end (see ReportIntent): delivered once that is on disk. */
  report?: ReportIntent
}

export interface RunRequest {
  /** The new user message; absent: the messages waiting in the agent's inbox. */
  prompt?: string | ContentBlock[]
  /** The conversation before this run; absent: the agent's own as it stands when the run starts (repaired for the API). */
  history?: ChatMessage[]
  maxTurns?: number
  /** A foreground caller's signal: stopping the caller stops this run. */
  linkTo?: AbortSignal
  /** Emit the history as `message` events after agent_start, so the transcript holds it (forks). */
  recordHistory?: boolean
  /**
   * Nobody awaits this run: its final report goes to this agent as a <task-notification> (null: to nobody,
   * e.g. a person's message; the UI shows the run). Absent: a tool call awaits the result.
   */
  reportTo?: string | null
}
