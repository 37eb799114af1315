// The error hosts throw to answer a contract call with a given code. A module of its own, apart from the
// contract (ipc-contract.ts builds every call's zod schemas when loaded): the runtime throws it too, and
// `fanout run` should not build the whole IPC contract before its first model request.
import type { FieldErrors, IpcErrorCode } from './ipc-contract'

/** An error with a contract error code, for hosts and shell handlers to throw; `fields`: see IpcError. */
export class HostCallError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
    readonly fields?: FieldErrors
  ) {
    super(message)
    this.name = 'HostCallError'
  }
}
