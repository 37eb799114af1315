// Test fixture: agents that worked in real worktrees of a temporary repository, made through the same calls
// the runtime makes (createAgentWorktree, then finishAgentWorktree commits the work and keeps the worktree).
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createAgentWorktree, finishAgentWorktree, type AgentWorktree } from '../../worktrees'
import type { TempRepo } from '../../worktrees/testing/temp-repo'

export interface AgentEdit {
  /** Files to write (relative path → content); null deletes the file. */
  files: Record<string, string | null>
  agentType?: string
  description?: string
  /** Leave the changes uncommitted in the worktree, as a crash mid-run would. */
  unfinished?: boolean
}

export async function agentWorked(repo: TempRepo, agentId: string, edit: AgentEdit): Promise<AgentWorktree> {
  const agentType = edit.agentType ?? 'coder'
  const description = edit.description ?? `work of ${agentId}`
  const wt = await createAgentWorktree({ repoCwd: repo.root, agentId, agentType, description })
  for (const [rel, content] of Object.entries(edit.files)) {
    const file = join(wt.path, rel)
    if (content === null) unlinkSync(file)
    else {
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
    }
  }
  if (!edit.unfinished) await finishAgentWorktree({ worktree: wt, agentType, description })
  return wt
}
