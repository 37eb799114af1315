// Errors of the review calls, with a contract error code (see IPC_ERROR_CODES) the dispatcher passes on,
// so the app can tell "no such agent" from "changed since you looked" from "this git is too old".
export type ReviewErrorCode = 'invalid_request' | 'not_found' | 'conflict' | 'unsupported' | 'internal'

export class ReviewError extends Error {
  override name = 'ReviewError'
  constructor(
    readonly code: ReviewErrorCode,
    message: string
  ) {
    super(message)
  }
}
