// The host's review calls (the app's Changes view): agents' changes, one file's diff, the conflict preview,
// merge, discard, open the worktree folder. Agents running in this process's live sessions cannot be merged
// or discarded yet. After a merge or discard, open windows are told to read the folder's changes again.
import type { ReviewHost } from '../../../shared/review-host'
import { AgentWorkReview, ReviewError } from '../review'
import { openWithSystem, type OpenPath } from '../review/open-folder'
import type { HostListeners } from './host-listeners'
import type { LiveSessions } from './live-sessions'

export interface ReviewCallsOptions {
  live: LiveSessions
  listeners: HostListeners
  /** Opens a folder for the person (Electron's shell.openPath); default: the platform's opener. */
  openPath?: OpenPath
}

export class ReviewCalls implements ReviewHost {
  private readonly review: AgentWorkReview

  constructor(private readonly o: ReviewCallsOptions) {
    this.review = new AgentWorkReview({ isLive: (id) => o.live.all().some((l) => l.session.registry.isLive(id)) })
  }

  listChanges: ReviewHost['listChanges'] = async ({ cwd, agentIds }) => ({ list: await this.review.list(cwd, agentIds) })

  changedFile: ReviewHost['changedFile'] = async ({ cwd, agentId, path, uncommitted }) => ({ diff: await this.review.file(cwd, agentId, path, uncommitted) })

  previewMerges: ReviewHost['previewMerges'] = async ({ cwd, agentIds }) => ({ preview: await this.review.preview(cwd, agentIds) })

  mergeAgents: ReviewHost['mergeAgents'] = async ({ cwd, agentIds, all, strategy }) => {
    const outcome = await this.review.merge(cwd, { ...(agentIds ? { agents: agentIds } : {}), all: all === true, strategy })
    if (outcome.merged.length) this.o.listeners.notify({ type: 'review_changed', cwd })
    return { outcome }
  }

  discardAgent: ReviewHost['discardAgent'] = async ({ cwd, agentId, expectTip }) => {
    const outcome = await this.review.discard(cwd, agentId, expectTip)
    this.o.listeners.notify({ type: 'review_changed', cwd })
    return { outcome }
  }

  openAgentFolder: ReviewHost['openAgentFolder'] = async ({ cwd, agentId }) => {
    // The path comes from git's own list of the agent's worktree, never from the request.
    const [branch] = await this.review.resolve(cwd, [agentId])
    if (!branch.worktreePath) throw new ReviewError('not_found', `${branch.branch} has no worktree folder any more; its work is only on the branch.`)
    const problem = await (this.o.openPath ?? openWithSystem)(branch.worktreePath)
    return { path: branch.worktreePath, opened: problem === null, ...(problem ? { message: `The folder could not be opened: ${problem}. Its path is ${branch.worktreePath}.` } : {}) }
  }
}
