// The review calls of the recording host (for transport and contract tests): each records its request and
// answers as a repository with no agent branches would.
import type { CallHandlers } from '../call-handlers'
import type { ReviewCallName } from '../review-contract'

const checkout = (cwd: string) => ({ root: cwd, branch: 'main', head: '0'.repeat(40), dirtyFiles: [], operation: null })

export function recordingReview(record: (call: string, request: unknown) => void): CallHandlers<ReviewCallName> {
  return {
    async 'review.list'(req) {
      record('review.list', req)
      return { list: { checkout: checkout(req.cwd), agents: [], gone: [] } }
    },
    async 'review.file'(req) {
      record('review.file', req)
      return { diff: { path: req.path, oldText: 'old\n', newText: 'new\n', binary: false, tooLarge: false, oldSize: 4, newSize: 4 } }
    },
    async 'review.preview'(req) {
      record('review.preview', req)
      return { preview: { checkout: checkout(req.cwd), agents: [], pairs: [], order: [], blocked: null } }
    },
    async 'review.merge'(req) {
      record('review.merge', req)
      return { outcome: { merged: [], stopped: null, notMerged: [], into: 'main', skipped: [] } }
    },
    async 'review.discard'(req) {
      record('review.discard', req)
      return { outcome: { agentId: req.agentId, branch: `fanout/${req.agentId}`, removedWorktree: true, deletedBranch: true, lostCommits: 0, lostFiles: 0 } }
    },
    async 'review.openFolder'(req) {
      record('review.openFolder', req)
      return { path: `/tmp/${req.agentId}`, opened: true }
    }
  }
}
