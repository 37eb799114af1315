// An agent's system prompt: its definition's body, then CLAUDE.md, its own memory, its skills and the
// environment. CLAUDE.md, memory and skills come from the session's folder (the original checkout) even for
// an agent in a worktree: CLAUDE.local.md is usually git-ignored and so missing there, and memory must land
// in the user's project, not on the agent's branch.
import type { AgentDefinition } from '../../../../shared/agent-definition'
import { buildSystemPrompt, loadAgentMemory, loadSkills, type ClaudeMdEntry } from '../../context'
import type { SkillEntry } from '../../context/skill-index'
import type { GitProbe } from '../../worktrees'
import type { AgentHandle } from '../runs/agent-registry'
import { errorMessage } from '../../../../shared/error-message'

export interface PromptSources {
  /** The session's folder: the original checkout. */
  cwd: string
  home: string
  claudeMd: ClaudeMdEntry[]
  /** The session's skills (skill-index.ts). */
  skills?: readonly SkillEntry[]
  git(cwd: string): Promise<GitProbe>
  /** Told what the agent runs without (a `skills:` name that answers to nothing), as a sentence. */
  warn?: (message: string) => void
}

export async function agentSystemPrompt(
  src: PromptSources,
  def: AgentDefinition,
  handle: AgentHandle,
  worktree?: { path: string; branch: string; baseCommit?: string }
): Promise<string> {
  const [git, memory, skills] = await Promise.all([
    src.git(handle.cwd),
    // A memory that cannot be used (a pipe, a link out of the project) is said, and the agent runs without it.
    def.memory
      ? loadAgentMemory({ agentType: def.agentType, scope: def.memory, cwd: src.cwd, home: src.home }).catch((err: unknown) => {
          src.warn?.(`${errorMessage(err)}; the agent runs without its memory.`)
          return undefined
        })
      : undefined,
    def.skills?.length
      ? loadSkills({
          names: def.skills,
          cwd: src.cwd,
          home: src.home,
          ...(src.skills ? { index: src.skills } : {}),
          ...(def.file ? { definitionFile: def.file } : {})
        })
      : undefined
  ])
  handle.memoryDir = memory?.dir
  for (const d of skills?.diagnostics ?? []) src.warn?.(`${d.file}: ${d.message}`)
  return buildSystemPrompt({
    body: def.systemPrompt,
    environment: {
      cwd: handle.cwd,
      isGitRepo: git.isGitRepo,
      branch: git.branch,
      platform: process.platform,
      date: new Date(),
      model: handle.model,
      ...(worktree ? { worktree } : {})
    },
    claudeMd: src.claudeMd,
    omitClaudeMd: def.omitClaudeMd === true,
    ...(memory ? { agentMemory: memory } : {}),
    ...(skills ? { skills: skills.skills } : {})
  })
}
