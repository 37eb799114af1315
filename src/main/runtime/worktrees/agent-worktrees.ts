// The repository's agent worktrees, told by Fanout's own record (the metadata in each admin folder, which a
// sandboxed agent cannot write), not by the branch git shows checked out there: an agent worktree is on a
// detached HEAD (agent-branch.ts). Worktrees of older builds, on their `fanout/<id>` branch, still count.
import { BRANCH_PREFIX } from './branch-name'
import { readMetadata, type WorktreeMetadata } from './metadata'
import { listWorktrees, type RepoInfo, type WorktreeEntry } from './repo'

export interface AgentWorktreeEntry {
  agentId: string
  entry: WorktreeEntry
  meta: WorktreeMetadata | null
}

export async function agentWorktreeEntries(repo: Pick<RepoInfo, 'cwd' | 'commonDir'>): Promise<AgentWorktreeEntry[]> {
  const out: AgentWorktreeEntry[] = []
  for (const entry of await listWorktrees(repo.cwd)) {
    if (entry.bare) continue
    const meta = await readMetadata(entry.path, repo.commonDir)
    const agentId = meta?.agentId ?? (entry.branch?.startsWith(BRANCH_PREFIX) ? entry.branch.slice(BRANCH_PREFIX.length) : null)
    if (agentId) out.push({ agentId, entry, meta })
  }
  return out
}
