// The runtime host: what the UI adapters (Electron IPC, browser-mode WebSocket) drive. Its `handlers` table
// maps each contract call to the function serving it (call-handlers.ts), each receiving the already-validated
// request; beside it, push subscriptions. Types only: the runtime implements it (src/main/runtime/host),
// adapters consume it.
import type { AgentEditorCallName } from './agent-editor-contract'
import type { CallHandlers } from './call-handlers'
import type { AgentEvent } from './events'
import type { HostCallName, HostNotice } from './ipc-contract'
import type { ReviewCallName } from './review-contract'
import type { SearchReplayCallName } from './search-replay-contract'

/** Calls a host may lack (a benchmark's synthetic host): the dispatcher answers them `unsupported`. */
type OptionalCall = 'mcp.list' | 'trust.get' | 'trust.answer' | AgentEditorCallName | ReviewCallName | SearchReplayCallName

/**
 * The functions serving the contract's calls, by call name. A failure throws an error whose `code` is one of
 * the contract's (`not_found`, `conflict`...). The agent editor's, review, MCP, trust, search and replay calls
 * are optional: a host without them (a benchmark's synthetic host) answers them `unsupported`.
 * LocalRuntimeHost serves all of them.
 */
export type HostHandlers = CallHandlers<Exclude<HostCallName, OptionalCall>> & Partial<CallHandlers<OptionalCall>>

export interface RuntimeHost extends HostPushes {
  readonly handlers: HostHandlers
}

/** What a host pushes, and its end. */
export interface HostPushes {
  /** Subscribes to runtime events of every session. Returns the unsubscribe function. */
  onEvents(listener: (events: AgentEvent[]) => void): () => void
  onNotice(listener: (notice: HostNotice) => void): () => void
  /** Stops running agents and releases files; the adapters call it on quit. */
  close(): Promise<void>
}

/**
 * Errors a host throws may carry one of the contract's error codes (`not_found`, `conflict`, ...); the
 * dispatcher passes the code and message on. Anything else becomes `internal` with its message.
 */
export interface HostErrorLike {
  code?: string
  message: string
}
