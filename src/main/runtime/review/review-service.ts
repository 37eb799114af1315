// Reviewing and landing agents' work in one repository: list what each agent changed, show one file's two
// sides, preview conflicts, merge (one, several or all, in a conflict-avoiding order), discard. Used by the
// host (the app's Changes view), the CLI (`fanout worktrees diff|merge|discard|preview`) and the main
// agent's RequestMerge tool. Every call reads the repository afresh; merges and discards run one at a time
// per repository, across processes too (merge-lock.ts: a second one waits, then works on the new state).
import type { AgentChanges, DiscardOutcome, FileDiff, MergeOutcome, MergePreview, MergeStrategy, ReviewList } from '../../../shared/review'
import { resolveDataDir } from '../store/data-dir'
import { BRANCH_PREFIX, headCommit, readRepo, repairTornWorktrees, WorktreeError, type RepoInfo } from '../worktrees'
import { listAgentBranches, type AgentBranch } from './agent-branches'
import { agentChanges, mergeBase } from './changes'
import { checkoutState } from './checkout'
import { discardOne } from './discard'
import { requireWriteTree, GitTooOldError } from './dry-run'
import { blobSide, diskSide, fileDiff, safeRelativePath } from './file-diff'
import { readLanded, recordLanded } from './landed-log'
import { mergeOne } from './merge-one'
import { appendAgentRun } from '../store/agent-history'
import { withMergeLock } from './merge-lock'
import { planMerges, previewMerges, touched } from './preview'
import { ReviewError } from './review-error'

export interface AgentWorkReviewOptions {
  /** True for agents running now in this process (their branches cannot be merged or discarded yet). */
  isLive?: (agentId: string) => boolean
  /** Fanout's data folder, where the repository's merge lock lives (default: this process's, FANOUT_DATA_DIR or the platform's). */
  dataDir?: string
  /** Who merges, as another process waiting for it names it: `fanout worktrees merge`, `the Fanout app`. */
  app?: string
}

/** Told when another merge or discard in the repository is under way: this one waits for it, then runs. */
export interface LockWait {
  onWait?: (message: string) => void
}

export interface MergeRequest {
  /** Agents (ids, branches, unique id prefixes or agent types) to merge; with `all`, limits "all" to these. */
  agents?: string[]
  /** Every agent branch that is not running. */
  all?: boolean
  strategy: MergeStrategy
  onWait?: LockWait['onWait']
}

export class AgentWorkReview {
  constructor(private readonly o: AgentWorkReviewOptions = {}) {}

  // A worktree registration a kill left with an empty `commondir` stops git from listing worktrees, deleting a
  // branch or checking one out in the whole repository: removed first when its maker is gone (half-made.ts).
  private async repo(cwd: string): Promise<RepoInfo> {
    let repo: RepoInfo
    try {
      repo = await readRepo(cwd)
    } catch (err) {
      if (err instanceof WorktreeError)
        throw new ReviewError('invalid_request', err.message.replace(/^isolation: worktree needs/, 'Agents’ work lives in git branches; this needs'))
      throw err
    }
    await repairTornWorktrees(repo).catch((err: unknown) => {
      throw err instanceof WorktreeError ? new ReviewError('conflict', err.message.replace(/^isolation: /, '')) : err
    })
    return repo
  }

  private branches(repo: RepoInfo): Promise<AgentBranch[]> {
    return listAgentBranches(repo, { isLive: this.o.isLive })
  }

  /** What each agent changed (every agent branch of the repository, or the ones named), and the state of the checkout. */
  async list(cwd: string, agentIds?: string[]): Promise<ReviewList> {
    const repo = await this.repo(cwd)
    const checkout = await checkoutState(repo)
    const all = await this.branches(repo)
    const wanted = agentIds ? inOrder(all, agentIds) : all
    const agents: AgentChanges[] = []
    for (const b of wanted) agents.push(await agentChanges(repo.cwd, checkout.head, b))
    const missing = agentIds ? agentIds.filter((id) => !all.some((b) => b.agentId === id)) : []
    const landed = missing.length ? await readLanded(repo.commonDir) : new Map()
    return { checkout, agents, gone: missing.map((agentId) => ({ agentId, branch: `${BRANCH_PREFIX}${agentId}`, outcome: landed.get(agentId) ?? null })) }
  }

  /** Agent branches named by id, branch, unique id prefix (4 or more characters) or agent type (when only one agent of it has a branch). */
  async resolve(cwd: string, names: string[]): Promise<AgentBranch[]> {
    return resolveNames(await this.branches(await this.repo(cwd)), names)
  }

  /** One changed file: before (the merge base) and after (the branch tip, or the worktree for uncommitted changes). */
  async file(cwd: string, agentId: string, path: string, uncommitted = false): Promise<FileDiff> {
    if (!safeRelativePath(path)) throw new ReviewError('invalid_request', `${JSON.stringify(path)} is not a path inside the repository.`)
    const repo = await this.repo(cwd)
    const [b] = resolveNames(await this.branches(repo), [agentId])
    const changes = await agentChanges(repo.cwd, repo.head, b)
    const file = (uncommitted ? changes.uncommitted : changes.files).find((f) => f.path === path)
    if (!file) throw new ReviewError('not_found', `${path} is not among the ${uncommitted ? 'uncommitted changes' : 'changes'} of ${b.branch}.`)
    const oldPath = file.oldPath ?? file.path
    if (uncommitted) {
      // The worktree's HEAD read through Fanout's record of its git folders, the blob from the repository itself:
      // no git command follows the worktree's own `.git` file (worktrees/git-dirs.ts).
      const head = b.worktreeDirs ? await headCommit(b.worktreeDirs) : null
      if (!head || !b.worktreePath) throw new ReviewError('not_found', `${b.branch}'s worktree has no commit Fanout can read.`)
      return fileDiff(file, await blobSide(repo.cwd, head, oldPath), await diskSide(b.worktreePath, file.path))
    }
    const base = await mergeBase(repo.cwd, repo.head, b)
    return fileDiff(file, await blobSide(repo.cwd, base, oldPath), await blobSide(repo.cwd, b.tip, file.path))
  }

  async preview(cwd: string, agentIds?: string[]): Promise<MergePreview> {
    const repo = await this.repo(cwd)
    await this.requireGit(repo)
    const checkout = await checkoutState(repo)
    const all = await this.branches(repo)
    const wanted = agentIds ? inOrder(all, agentIds) : all
    const changes = new Map<string, AgentChanges>()
    for (const b of wanted) changes.set(b.agentId, await agentChanges(repo.cwd, checkout.head, b))
    return previewMerges(repo.cwd, checkout, wanted, changes)
  }

  /**
   * Merges into the checked-out branch, in an order that avoids conflicts where one exists, stopping at the
   * first agent that conflicts (or that the checkout's state refuses): its branch and the later ones are kept.
   */
  async merge(cwd: string, req: MergeRequest): Promise<MergeOutcome> {
    const repo = await this.repo(cwd)
    await this.requireGit(repo)
    return this.locked(repo, req, async () => {
      const fresh = await readRepo(repo.cwd)
      const all = await this.branches(fresh)
      // "All" of a session's agents: the ones whose branch is gone (merged, discarded) are simply not there any more.
      const named = req.all ? (req.agents?.length ? inOrder(all, req.agents) : all) : req.agents?.length ? resolveNames(all, req.agents) : all
      const skipped: string[] = []
      let chosen = named
      if (req.all) {
        chosen = named.filter((b) => !b.live)
        for (const b of named.filter((x) => x.live)) skipped.push(`${b.agentType ?? 'agent'} ${b.agentId} is still working`)
      } else if (!req.agents?.length) throw new ReviewError('invalid_request', 'Name the agents to merge, or ask for all of them.')
      const head = fresh.head
      const files = new Map<string, string[]>()
      for (const b of chosen) files.set(b.agentId, touched(await agentChanges(fresh.cwd, head, b)))
      const ready = chosen.filter((b) => !b.live)
      const plan = head
        ? await planMerges(fresh.cwd, head, ready, (id) => files.get(id) ?? [], fresh.branch)
        : { order: ready.map((b) => b.agentId), blocked: null }
      // The planned order first, then whatever the plan could not place (the blocked agent first: its merge says why).
      const sequence = [
        ...plan.order,
        ...(plan.blocked ? [plan.blocked.agentId] : []),
        ...chosen.map((b) => b.agentId).filter((id) => !plan.order.includes(id) && id !== plan.blocked?.agentId)
      ]
      const outcome: MergeOutcome = { merged: [], stopped: null, notMerged: [], into: fresh.branch, skipped }
      const mergedFiles = new Map<string, string[]>()
      for (let i = 0; i < sequence.length; i++) {
        const b = chosen.find((x) => x.agentId === sequence[i])!
        const r = await mergeOne(await readRepo(fresh.cwd), b, req.strategy, mergedFiles)
        if (!r.ok) {
          outcome.stopped = r.stop
          outcome.notMerged = sequence.slice(i)
          break
        }
        outcome.merged.push(r.merged)
        mergedFiles.set(b.agentId, files.get(b.agentId) ?? [])
        await recordLanded(fresh.commonDir, {
          agentId: b.agentId,
          branch: b.branch,
          action: req.strategy === 'merge' ? 'merged' : 'squashed',
          commit: r.merged.commit,
          ...(fresh.branch ? { into: fresh.branch } : {}),
          at: Date.now()
        })
        await this.verdict(b, 'merged')
      }
      return outcome
    })
  }

  /** Drops an agent's worktree and branch; `expectTip` is the tip the person was shown (refused if it moved). */
  async discard(cwd: string, agentId: string, expectTip?: string, wait: LockWait = {}): Promise<DiscardOutcome> {
    const repo = await this.repo(cwd)
    return this.locked(repo, wait, async () => {
      const fresh = await readRepo(repo.cwd)
      const [b] = resolveNames(await this.branches(fresh), [agentId])
      const changes = await agentChanges(fresh.cwd, fresh.head, b)
      const out = await discardOne(fresh, b, changes, expectTip)
      await recordLanded(fresh.commonDir, { agentId: b.agentId, branch: b.branch, action: 'discarded', commit: b.tip, at: Date.now() })
      await this.verdict(b, 'discarded')
      return out
    })
  }

  /**
   * The agent definition's history learns what became of the run's work (best effort: the merge stands either
   * way). Only with a data folder named: a review without one (a test's) writes nobody's history.
   */
  private async verdict(b: AgentBranch, outcome: 'merged' | 'discarded'): Promise<void> {
    if (!this.o.dataDir) return
    const record = {
      ts: Date.now(),
      sessionId: '',
      agentId: b.agentId,
      agentType: b.agentType ?? 'agent',
      outcome,
      costUsd: 0,
      tokens: 0,
      turns: 0,
      durationMs: 0,
      verdict: true as const
    }
    await appendAgentRun(this.o.dataDir, record).catch(() => undefined)
  }

  /** Runs `op` as the only change to the repository's checkout and refs, among every process's merges and discards. */
  private locked<T>(repo: RepoInfo, wait: LockWait, op: () => Promise<T>): Promise<T> {
    const opts = { dataDir: this.o.dataDir ?? resolveDataDir(), app: this.o.app ?? 'Fanout', ...(wait.onWait ? { onWait: wait.onWait } : {}) }
    return withMergeLock(repo.commonDir, opts, op)
  }

  private async requireGit(repo: RepoInfo): Promise<void> {
    try {
      await requireWriteTree(repo.cwd)
    } catch (err) {
      if (err instanceof GitTooOldError) throw new ReviewError('unsupported', err.message)
      throw err
    }
  }
}

/** The branches of `agentIds`, in that order (the session's start order, as the app lists its agents). */
function inOrder(branches: AgentBranch[], agentIds: string[]): AgentBranch[] {
  return agentIds.map((id) => branches.find((b) => b.agentId === id)).filter((b): b is AgentBranch => b !== undefined)
}

export function resolveNames(branches: AgentBranch[], names: string[]): AgentBranch[] {
  const out: AgentBranch[] = []
  for (const raw of names) {
    const name = raw.trim()
    const exact = branches.find((b) => b.agentId === name || b.branch === name || `refs/heads/${b.branch}` === name)
    let found = exact ? [exact] : []
    if (!found.length && name.length >= 4) found = branches.filter((b) => b.agentId.startsWith(name) || b.branch.startsWith(name))
    if (!found.length) found = branches.filter((b) => b.agentType === name)
    if (found.length > 1) {
      throw new ReviewError(
        'invalid_request',
        `"${name}" matches ${found.length} agent branches (${found.map((b) => b.branch).join(', ')}); use the branch name.`
      )
    }
    if (!found.length) {
      const known = branches.length ? ` Agent branches here: ${branches.map((b) => b.branch).join(', ')}.` : ' This repository has no agent branches.'
      throw new ReviewError('not_found', `No agent branch matches "${name}".${known}`)
    }
    if (!out.includes(found[0])) out.push(found[0])
  }
  return out
}
