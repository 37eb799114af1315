// The review calls of the recording host (for transport and contract tests): each records its request and
// answers as a repository with no agent branches would.
import type { ReviewHost } from '../review-host'

const checkout = (cwd: string) => ({ root: cwd, branch: 'main', head: '0'.repeat(40), dirtyFiles: [], operation: null })

export function recordingReview(record: (method: string, request: unknown) => void): ReviewHost {
  return {
    async listChanges(req) {
      record('listChanges', req)
      return { list: { checkout: checkout(req.cwd), agents: [], gone: [] } }
    },
    async changedFile(req) {
      record('changedFile', req)
      return { diff: { path: req.path, oldText: 'old\n', newText: 'new\n', binary: false, tooLarge: false, oldSize: 4, newSize: 4 } }
    },
    async previewMerges(req) {
      record('previewMerges', req)
      return { preview: { checkout: checkout(req.cwd), agents: [], pairs: [], order: [], blocked: null } }
    },
    async mergeAgents(req) {
      record('mergeAgents', req)
      return { outcome: { merged: [], stopped: null, notMerged: [], into: 'main', skipped: [] } }
    },
    async discardAgent(req) {
      record('discardAgent', req)
      return { outcome: { agentId: req.agentId, branch: `fanout/${req.agentId}`, removedWorktree: true, deletedBranch: true, lostCommits: 0, lostFiles: 0 } }
    },
    async openAgentFolder(req) {
      record('openAgentFolder', req)
      return { path: `/tmp/${req.agentId}`, opened: true }
    }
  }
}
