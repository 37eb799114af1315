// The review methods on RuntimeHost, one per call of REVIEW_CALLS, derived from that table.
import type { REVIEW_CALLS } from './review-channels'
import type { HostMethods } from './host-methods'

export type ReviewHost = HostMethods<typeof REVIEW_CALLS>
