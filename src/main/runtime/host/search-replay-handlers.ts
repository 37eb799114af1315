// Search and replay's slice of the host's handler table (search-replay-contract.ts), served by
// search-calls.ts and replay-calls.ts.
import type { CallHandlers } from '../../../shared/call-handlers'
import type { SearchReplayCallName } from '../../../shared/search-replay-contract'
import type { ReplayCalls } from './replay-calls'
import type { SearchCalls } from './search-calls'

export function searchReplayHandlers(search: SearchCalls, replay: ReplayCalls): CallHandlers<SearchReplayCallName> {
  return {
    'search.query': search.query,
    'replay.open': replay.open,
    'replay.frame': replay.frame,
    'replay.steps': replay.steps
  }
}
