// The review methods on RuntimeHost, one per call of REVIEW_CALLS (host.ts extends this).
import type { REVIEW_CALLS } from './review-channels'
import type { CallResponse, ParsedRequest } from './ipc-contract'

type Call<K extends keyof typeof REVIEW_CALLS> = (request: ParsedRequest<K>) => Promise<CallResponse<K>>

export interface ReviewHost {
  listChanges: Call<'review.list'>
  changedFile: Call<'review.file'>
  previewMerges: Call<'review.preview'>
  mergeAgents: Call<'review.merge'>
  discardAgent: Call<'review.discard'>
  openAgentFolder: Call<'review.openFolder'>
}
