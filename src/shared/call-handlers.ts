// The table from a contract call to the function serving it. Each concept's handlers are one slice of it
// (src/main/runtime/host/*-handlers.ts, beside the concept's *-contract.ts); a host's `handlers` is their
// union, and the dispatcher (ipc-dispatch.ts) looks a validated call up there. Typed from the contract, so a
// slice that lacks a call of its concept, or answers it wrongly, fails to compile.
import type { CallName, CallResponse, ParsedRequest } from './ipc-contract'

/** The function serving call K: it receives the request its contract entry validated. */
export type CallHandler<K extends CallName> = (request: ParsedRequest<K>) => Promise<CallResponse<K>>

/** One handler for each call of K, keyed by the call's name. */
export type CallHandlers<K extends CallName> = { [P in K]: CallHandler<P> }
