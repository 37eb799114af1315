// Merges one agent's branch into the checked-out branch, all or nothing. The merge is computed in memory
// first (`git merge-tree --write-tree`); only a clean result is committed (`git commit-tree`), then the
// checkout is moved to it the way git fast-forwards (`git read-tree -m -u`, which refuses rather than
// overwrite anything) and the branch is advanced with a compare-and-swap (`git update-ref`). So there is
// never a MERGE_HEAD, a conflict marker or a half-updated checkout: a refused merge leaves everything as it was.
import { join } from 'node:path'
import type { MergeStop, MergeStrategy, MergedAgent } from '../../../shared/review'
import { commitAll, commitMessage, removeCrashDebris, removeMergedWorktree, syncBranchToHead, type RepoInfo } from '../worktrees'
import { errorText, runGit, tryGit } from '../worktrees/git'
import { commitIdentityConfig } from '../worktrees/identity'
import type { AgentBranch } from './agent-branches'
import { placeholderAt } from '../security/placeholders'
import { worktreeChanges } from './changes'
import { checkoutRefusal, checkoutState } from './checkout'
import { mergeTrees } from './dry-run'

export type MergeOneResult = { ok: true; merged: MergedAgent } | { ok: false; stop: MergeStop }

const stop = (b: AgentBranch, reason: MergeStop['reason'], message: string, files: string[] = [], withAgents: string[] = []): MergeOneResult => ({
  ok: false,
  stop: { agentId: b.agentId, branch: b.branch, reason, message, files, with: withAgents }
})

export const agentLabel = (b: Pick<AgentBranch, 'agentType' | 'agentId' | 'branch'>) =>
  `${b.agentType ? `${b.agentType} agent` : 'agent'} ${b.agentId} (${b.branch})`

function messageFor(b: AgentBranch, strategy: MergeStrategy, subjects: string[]): string {
  const what = [b.agentType, b.description].filter(Boolean).join(': ') || `agent ${b.agentId}`
  if (strategy === 'merge')
    return `Merge ${b.branch} (${what})\n\nMerged with Fanout: ${subjects.length} commit${subjects.length === 1 ? '' : 's'} of agent ${b.agentId}.\n`
  const subject = subjects.length === 1 ? subjects[0] : what
  const body =
    subjects.length > 1 ? `\n\nSquashed from ${b.branch}:\n${subjects.map((s) => `- ${s}`).join('\n')}\n` : `\n\nSquashed from ${b.branch} with Fanout.\n`
  return subject + body
}

/** Paths git names in "would be overwritten" refusals: `'x' would be overwritten`, or a tab-indented list. */
export function overwrittenFiles(message: string): string[] {
  const quoted = [...message.matchAll(/file '([^']+)' would be overwritten/g)].map((m) => m[1])
  const listed = message
    .split('\n')
    .filter((l) => l.startsWith('\t'))
    .map((l) => l.trim())
  return [...new Set([...quoted, ...listed])]
}

/**
 * Merges `b` into the checkout of `repo` (whose operations the caller has queued, see repo-queue.ts).
 * `mergedBefore` maps agents merged earlier in the same run to their files, to name whom a conflict is with.
 */
export async function mergeOne(
  repo: RepoInfo,
  b: AgentBranch,
  strategy: MergeStrategy,
  mergedBefore: Map<string, string[]> = new Map()
): Promise<MergeOneResult> {
  const root = repo.repoRoot
  if (b.live) return stop(b, 'running', `The ${agentLabel(b)} is still working; merge it once it has finished.`)
  const checkout = await checkoutState(repo)
  const refusal = checkoutRefusal(checkout)
  if (refusal) return stop(b, refusal.reason, refusal.message, refusal.files)
  const head = await runGit(root, ['rev-parse', '--verify', 'HEAD^{commit}'])

  // Work a crash left uncommitted in the worktree belongs to the branch: commit it there first, as the agent would have.
  let tip = b.tip
  // Commits of the agent a crash kept from its branch are the branch's too (worktrees/agent-branch.ts).
  if (b.worktreeDirs) {
    try {
      // Temp files of writes the crash cut off are not the agent's work (worktrees/crash-debris.ts).
      await removeCrashDebris(b.worktreeDirs)
      tip = (await worktreeChanges(b.worktreeDirs)).length
        ? await commitAll(b.worktreeDirs, b.branch, commitMessage(b.agentType ?? b.agentId, `${b.description ?? 'work'} (saved from an interrupted run)`))
        : await syncBranchToHead(b.worktreeDirs, b.branch)
    } catch (err) {
      return stop(b, 'failed', `The uncommitted changes in ${b.worktreePath} could not be committed to ${b.branch}, so nothing was merged: ${errorText(err)}`)
    }
  }

  if ((await tryGit(root, ['merge-base', '--is-ancestor', tip, head])) !== null) {
    return { ok: true, merged: { agentId: b.agentId, branch: b.branch, commit: head, strategy, files: 0, cleanup: await cleanUp(repo, b, tip) } }
  }
  const dry = await mergeTrees(root, head, tip)
  if (!dry.clean) {
    const withAgents = [...mergedBefore].filter(([, files]) => files.some((f) => dry.conflicts.includes(f))).map(([id]) => id)
    const whom = withAgents.length ? `what was just merged from ${withAgents.map((id) => `agent ${id}`).join(', ')}` : `${checkout.branch}`
    return stop(
      b,
      'conflict',
      `The ${agentLabel(b)} conflicts with ${whom} in ${dry.conflicts.join(', ') || 'its files'}; nothing was merged and its branch is kept.`,
      dry.conflicts,
      withAgents
    )
  }

  // Everything it would bring is there already (squashed earlier, its cleanup refused): only tidy it away.
  if (dry.tree === (await runGit(root, ['rev-parse', `${head}^{tree}`]))) {
    return { ok: true, merged: { agentId: b.agentId, branch: b.branch, commit: head, strategy, files: 0, cleanup: await cleanUp(repo, b, tip) } }
  }
  const base = (await tryGit(root, ['merge-base', head, tip])) ?? b.baseCommit
  const subjects = (await runGit(root, ['log', '--reverse', '--format=%s', `${base}..${tip}`])).split('\n').filter(Boolean)
  const identity = await commitIdentityConfig(root)
  const parents = strategy === 'merge' ? ['-p', head, '-p', tip] : ['-p', head]
  const commit = await runGit(root, ['commit-tree', dry.tree, ...parents, '-m', messageFor(b, strategy, subjects)], { config: identity })
  const files = (await runGit(root, ['diff', '--name-only', head, commit])).split('\n').filter(Boolean).length

  // Refresh the index's file stamps, so read-tree judges files by their content, not by a stale stat.
  await tryGit(root, ['update-index', '-q', '--refresh'])
  try {
    await runGit(root, ['read-tree', '-m', '-u', head, commit])
  } catch (err) {
    const why = errorText(err)
    if (/would be overwritten|untracked working tree files?/i.test(why)) {
      const paths = overwrittenFiles(why)
      // The Bash sandbox's placeholders are no one's files: they go when the command that holds them ends.
      const held = paths.map((p) => placeholderAt(join(root, p))).find((info) => info !== null)
      if (held)
        return stop(
          b,
          'untracked',
          `${held.path} is held by ${held.holder} (an empty placeholder the Bash sandbox keeps there), and the ${agentLabel(b)} brings a file at that place; merge again when that command has ended. Nothing was merged.`,
          paths
        )
      return stop(
        b,
        'untracked',
        `Untracked files in ${root} would be overwritten by the ${agentLabel(b)} (${paths.join(', ') || why}); move or delete them first. Nothing was merged.`,
        paths
      )
    }
    return stop(b, 'failed', `git could not update ${root} to the merge (${why}); nothing was merged.`)
  }
  const reflog = `fanout: ${strategy === 'merge' ? 'merge' : 'squash'} ${b.branch}`
  try {
    await runGit(root, ['update-ref', '-m', reflog, 'HEAD', commit, head])
  } catch (err) {
    // Someone moved the branch meanwhile: put the files back as they were and change nothing.
    await tryGit(root, ['read-tree', '-m', '-u', commit, head])
    return stop(b, 'failed', `${checkout.branch} moved while merging (${errorText(err)}); nothing was merged, try again.`)
  }
  await tryGit(root, ['update-ref', 'ORIG_HEAD', head])
  return { ok: true, merged: { agentId: b.agentId, branch: b.branch, commit, strategy, files, cleanup: await cleanUp(repo, b, tip) } }
}

/** Its work is on the current branch now: its worktree and branch go (worktrees/agent-worktree-lifecycle.ts). */
function cleanUp(repo: RepoInfo, b: AgentBranch, tip: string): Promise<string | null> {
  return removeMergedWorktree(repo, { worktreePath: b.worktreePath, branch: b.branch, tip })
}
