// A host's methods, derived from a table of calls (call name → method name, ipc-channels.ts): each method
// receives the request its contract entry validated and answers what the entry's response schema allows.
// Deriving them keeps the table the one list: a call added there is a method every host must have.
import type { CallName, CallResponse, ParsedRequest } from './ipc-contract'

/** The function serving call K. */
export type HostCall<K extends CallName> = (request: ParsedRequest<K>) => Promise<CallResponse<K>>

/** One method per call of `table`, named as the table says. */
export type HostMethods<T extends Partial<Record<CallName, string>>> = { [K in keyof T & CallName as T[K] & string]: HostCall<K> }
