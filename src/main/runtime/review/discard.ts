// Drops an agent's work after the person confirmed it: its worktree folder (uncommitted files included) and
// its branch. The confirmation named a tip; if the branch moved since, nothing is dropped (the person did not
// see the newer work).
import type { AgentChanges, DiscardOutcome } from '../../../shared/review'
import { discardAgentWorktree, type RepoInfo } from '../worktrees'
import type { AgentBranch } from './agent-branches'
import { ReviewError } from './review-error'

export async function discardOne(repo: RepoInfo, b: AgentBranch, changes: AgentChanges, expectTip?: string): Promise<DiscardOutcome> {
  if (b.live) throw new ReviewError('conflict', `The ${b.agentType ?? 'agent'} ${b.agentId} is still working; stop it before discarding its work.`)
  if (expectTip && expectTip !== b.tip) {
    throw new ReviewError('conflict', `${b.branch} changed since its changes were shown (now at ${b.tip.slice(0, 12)}); look at them again before discarding.`)
  }
  const dropped = await discardAgentWorktree(repo, b)
  if ('error' in dropped) throw new ReviewError('internal', dropped.error)
  const { removedWorktree, deletedBranch: deleted } = dropped
  return {
    agentId: b.agentId,
    branch: b.branch,
    removedWorktree,
    deletedBranch: deleted,
    lostCommits: changes.commits.length,
    lostFiles: new Set([...changes.files, ...changes.uncommitted].map((f) => f.path)).size
  }
}

/** The confirmation's sentence: exactly what discarding drops. */
export function discardWarning(c: AgentChanges): string {
  const parts: string[] = []
  if (c.commits.length)
    parts.push(
      `${c.commits.length} commit${c.commits.length === 1 ? '' : 's'} on ${c.branch} (${c.files.length} file${c.files.length === 1 ? '' : 's'}, +${c.additions} −${c.deletions})`
    )
  if (c.uncommitted.length) parts.push(`${c.uncommitted.length} uncommitted file${c.uncommitted.length === 1 ? '' : 's'} in ${c.worktreePath}`)
  if (!parts.length)
    return c.state === 'merged'
      ? `Nothing is lost: everything on ${c.branch} is already on the current branch. The branch${c.worktreePath ? ' and its worktree' : ''} will be removed.`
      : `${c.branch} holds no changes; it${c.worktreePath ? ' and its worktree' : ''} will be removed.`
  return `Discarding deletes ${parts.join(' and ')}. This cannot be undone${c.worktreePath ? `; the folder ${c.worktreePath} is removed` : ''}.`
}
