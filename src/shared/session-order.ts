// The order of the session list, the same in the host's answer and in the window's store.
import type { SessionSummary } from './ipc-contract'

/** Newest activity first; of two as recent, the one created later. */
export const newestFirst = (a: SessionSummary, b: SessionSummary): number => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt
