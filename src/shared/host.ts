// The runtime host: what the UI adapters (Electron IPC, browser-mode WebSocket) drive. One method per
// contract call, derived from CALLS, each receiving the already-validated request, plus push subscriptions.
// Types only: the runtime implements it (src/main/runtime/host), adapters consume it.
import type { AgentEditorHost } from './agent-editor-host'
import type { ReviewHost } from './review-host'
import type { AgentEvent } from './events'
import type { CORE_CALLS, HostNotice, ShellCallName } from './ipc-contract'
import type { HostMethods } from './host-methods'
import type { SEARCH_REPLAY_CALLS } from './search-replay-channels'

/** Calls a host may lack (a benchmark's synthetic host): the dispatcher answers them `unsupported`. */
type OptionalCoreCall = 'mcp.list' | 'trust.get' | 'trust.answer'
type RequiredCalls = { [K in keyof typeof CORE_CALLS as K extends OptionalCoreCall | ShellCallName ? never : K]: (typeof CORE_CALLS)[K] }
type OptionalCalls = Pick<typeof CORE_CALLS, OptionalCoreCall>

/**
 * The host's methods come from CALLS (ipc-channels.ts), the one table from a call to its handler: a call added
 * there is a method LocalRuntimeHost must have. Each receives the request its contract entry validated; a
 * failure throws an error whose `code` is one of the contract's (`not_found`, `conflict`...). The agent
 * editor's, review, MCP, trust, search and replay calls are optional: a host without them (a benchmark's
 * synthetic host) answers them `unsupported`. LocalRuntimeHost implements all of them.
 */
export type RuntimeHost = HostMethods<RequiredCalls> &
  Partial<HostMethods<OptionalCalls>> &
  Partial<HostMethods<typeof SEARCH_REPLAY_CALLS>> &
  Partial<AgentEditorHost> &
  Partial<ReviewHost> &
  HostPushes

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
