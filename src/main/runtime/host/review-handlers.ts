// The host's review calls (the app's Changes view): agents' changes, one file's diff, the conflict preview,
// merge, discard, open the worktree folder. Agents running in this process's live sessions cannot be merged
// or discarded yet. After a merge or discard, open windows are told to read the folder's changes again.
// The review slice of the host's handler table: each entry is the call's whole handler.
import type { CallHandlers } from '../../../shared/call-handlers'
import type { ReviewCallName } from '../../../shared/review-contract'
import { AgentWorkReview, ReviewError } from '../review'
import { openInEditor, openInTerminal, openWithSystem, type OpenPath } from '../review/open-folder'
import type { HostListeners } from './host-listeners'
import type { LiveSessions } from './live-sessions'

export interface ReviewCallsOptions {
  live: LiveSessions
  listeners: HostListeners
  /** Fanout's data folder (where a repository's merge lock lives) and this program's name for whoever waits on it. */
  dataDir: string
  app: string
  /** Opens a folder for the person (Electron's shell.openPath); default: the platform's opener. */
  openPath?: OpenPath
}

export function reviewHandlers(o: ReviewCallsOptions): CallHandlers<ReviewCallName> {
  const review = new AgentWorkReview({ isLive: (id) => o.live.all().some((l) => l.session.registry.isLive(id)), dataDir: o.dataDir, app: o.app })
  return {
    'review.list': async ({ cwd, agentIds }) => ({ list: await review.list(cwd, agentIds) }),

    'review.file': async ({ cwd, agentId, path, uncommitted }) => ({ diff: await review.file(cwd, agentId, path, uncommitted) }),

    'review.preview': async ({ cwd, agentIds }) => ({ preview: await review.preview(cwd, agentIds) }),

    'review.merge': async ({ cwd, agentIds, all, strategy }) => {
      const outcome = await review.merge(cwd, { ...(agentIds ? { agents: agentIds } : {}), all: all === true, strategy })
      if (outcome.merged.length) o.listeners.notify({ type: 'review_changed', cwd })
      return { outcome }
    },

    'review.discard': async ({ cwd, agentId, expectTip }) => {
      const outcome = await review.discard(cwd, agentId, expectTip)
      o.listeners.notify({ type: 'review_changed', cwd })
      return { outcome }
    },

    'review.openFolder': async ({ cwd, agentId, with: using = 'files' }) => {
      // The path comes from git's own list of the agent's worktree (a fanout/<id> branch), never from the request.
      const [branch] = await review.resolve(cwd, [agentId])
      if (!branch.worktreePath) throw new ReviewError('not_found', `${branch.branch} has no worktree folder any more; its work is only on the branch.`)
      const open = using === 'editor' ? openInEditor : using === 'terminal' ? openInTerminal : (o.openPath ?? openWithSystem)
      const problem = await open(branch.worktreePath)
      return {
        path: branch.worktreePath,
        opened: problem === null,
        ...(problem ? { message: `The folder could not be opened: ${problem}. Its path is ${branch.worktreePath}.` } : {})
      }
    }
  }
}
