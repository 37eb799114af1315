// The IPC layer's channels, without zod or call names, so the sandboxed preload can import them without
// bundling the schemas. Which calls exist, and what they take, is the contract's alone (ipc-contract.ts).

/**
 * The one Electron IPC channel every call travels on, as (call name, request). The preload passes both on
 * untouched; main refuses any sender but our window and any name the contract lacks, and validates the request.
 */
export const CALL_CHANNEL = 'fanout:call'

/** Main → renderer pushes. `events` carries AgentEvent[] batches; `notice` carries one HostNotice. */
export const PUSH_CHANNELS = {
  events: 'fanout:push:events',
  notice: 'fanout:push:notice'
} as const

/** WebSocket subprotocol of browser mode; the per-launch token travels as a second subprotocol. */
export const WS_PROTOCOL = 'fanout.v1'
export const WS_TOKEN_PREFIX = 'fanout.token.'
export const WS_PATH = '/ws'
