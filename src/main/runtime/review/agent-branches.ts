// Every agent branch (`fanout/<agentId>`) of a repository, with its worktree (when it still has one), what
// the worktree's metadata says about the agent, and whether the agent is still at work.
import { agentWorktreeEntries, BRANCH_PREFIX, ownerAlive, type RepoInfo, type WorktreeGitDirs, worktreeGitDirsOrNull } from '../worktrees'
import { isDirectory, runGit, tryGit } from '../worktrees/git'

export interface AgentBranch {
  agentId: string
  branch: string
  tip: string
  /** The worktree folder, when one is registered for the branch and exists. */
  worktreePath: string | null
  /** Its git folders as Fanout checked them (worktrees/git-dirs.ts); null when they do not check out. */
  worktreeDirs: WorktreeGitDirs | null
  /** Where the agent started: recorded with its worktree, else the fork point from the current commit. */
  baseCommit: string
  agentType?: string
  description?: string
  /** Running in this process (`isLive`) or in another Fanout process that has not finished it. */
  live: boolean
  /** When the agent was started (its worktree's creation), for ordering; 0 when unknown. */
  createdAt: number
}

export interface ListBranchesOptions {
  /** True for agents running now in this process. */
  isLive?: (agentId: string) => boolean
}

export async function listAgentBranches(repo: RepoInfo, options: ListBranchesOptions = {}): Promise<AgentBranch[]> {
  const refs = await runGit(repo.cwd, ['for-each-ref', '--format=%(refname)%00%(objectname)', `refs/heads/${BRANCH_PREFIX}`])
  const worktrees = await agentWorktreeEntries(repo)
  const out: AgentBranch[] = []
  for (const line of refs.split('\n')) {
    const [ref, tip] = line.split('\0')
    if (!ref || !tip) continue
    const branch = ref.slice('refs/heads/'.length)
    const agentId = branch.slice(BRANCH_PREFIX.length)
    const found = worktrees.find((w) => w.agentId === agentId)
    const entry = found?.entry
    const worktreePath = entry && (await isDirectory(entry.path)) ? entry.path : null
    const worktreeDirs = worktreePath ? await worktreeGitDirsOrNull(worktreePath, repo.commonDir) : null
    const meta = found?.meta ?? null
    const liveHere = options.isLive?.(agentId) ?? false
    const liveElsewhere = !!meta && !meta.finishedAt && ownerAlive(meta.owner)
    out.push({
      agentId,
      branch,
      tip,
      worktreePath,
      worktreeDirs,
      baseCommit: meta?.baseCommit ?? (await forkPoint(repo, tip)),
      ...(meta?.agentType ? { agentType: meta.agentType } : {}),
      ...(meta?.description ? { description: meta.description } : {}),
      live: liveHere || liveElsewhere,
      createdAt: meta ? Date.parse(meta.createdAt) || 0 : await firstCommitTime(repo, tip)
    })
  }
  // Their start order, so lists, the matrix and "merge all" read the way the agents were started.
  return out.sort((a, b) => a.createdAt - b.createdAt || a.agentId.localeCompare(b.agentId))
}

async function forkPoint(repo: RepoInfo, tip: string): Promise<string> {
  return (repo.head ? await tryGit(repo.cwd, ['merge-base', repo.head, tip]) : null) || tip
}

async function firstCommitTime(repo: RepoInfo, tip: string): Promise<number> {
  const t = await tryGit(repo.cwd, ['log', '-1', '--format=%ct', tip])
  return t ? Number(t) * 1000 : 0
}
