// "Try it": runs the definition being edited — the editor's text, saved or not — on one prompt, as the main
// agent of a new session, in its own git worktree when the folder is a repository (so a try never touches
// the person's checkout). The draft reaches the session as a command-line agent (`--agents` JSON), the
// source that outranks every file, so the run uses exactly what is on screen.
import { randomBytes } from 'node:crypto'
import type { AgentSource, PermissionMode } from '../../../shared/agent-definition'
import { parseAgentMarkdown, type ParseAgentOptions } from '../definitions/parse'
import { createAgentWorktree, finishAgentWorktree, type AgentWorktree, type FinishedWorktree } from '../worktrees'
import { probeGit } from '../worktrees/probe'
import { AgentFileError } from './file-store'
import { errorMessage } from '../../../shared/error-message'

export interface TryPlan {
  agentType: string
  /** The definition as `--agents` JSON, for the session's agent sources. */
  cliAgentsJson: string
  /** Where the session works: the worktree's folder, or the workspace itself. */
  cwd: string
  worktree?: AgentWorktree
  /** Why the run is not isolated although the folder is a repository. */
  note?: string
  /** The definition's own model, mode and turn limit, which the try must honour. */
  model?: string
  permissionMode?: PermissionMode
  maxTurns?: number
}

/** Keys a plugin agent may not set (the loader ignores them there); they stay ignored in a try. */
const PLUGIN_FORBIDDEN = new Set(['permissionMode', 'hooks', 'mcpServers'])

export async function planTryRun(opts: { cwd: string; text: string; file: string; source: AgentSource; parse: ParseAgentOptions }): Promise<TryPlan> {
  const parsed = parseAgentMarkdown(opts.text, opts.file, opts.source, opts.parse)
  const def = parsed.definition
  if (!def) {
    const first = parsed.diagnostics.find((d) => d.severity === 'error')
    throw new AgentFileError(
      'invalid_request',
      `This agent does not load, so it cannot run: ${first ? `line ${first.line}: ${first.message}` : 'see its problems'}.`
    )
  }
  // `--agents` names cannot hold ":" (plugin agents are `plugin:name`).
  const agentType = def.agentType.replace(/:/g, '-')
  const spec: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(def.frontmatter ?? {})) {
    if (key === 'name' || key === 'description' || key === 'prompt') continue
    if (opts.source === 'plugin' && PLUGIN_FORBIDDEN.has(key)) continue
    spec[key] = value
  }
  spec.description = def.whenToUse
  spec.prompt = def.systemPrompt || `You are ${agentType}.`
  const plan: TryPlan = {
    agentType,
    cliAgentsJson: JSON.stringify({ [agentType]: spec }),
    cwd: opts.cwd,
    ...(def.permissionMode && !(opts.source === 'plugin') ? { permissionMode: def.permissionMode } : {}),
    ...(def.maxTurns ? { maxTurns: def.maxTurns } : {}),
    // `inherit` means the caller's model: for a try, the person's default model.
    ...(def.model && def.model !== 'inherit' ? { model: def.model } : {})
  }
  if (!(await probeGit(opts.cwd)).isGitRepo) return plan
  const slug =
    agentType
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'agent'
  try {
    const worktree = await createAgentWorktree({
      repoCwd: opts.cwd,
      agentId: `try-${slug}-${randomBytes(3).toString('hex')}`,
      agentType,
      description: 'Try it from the agent editor'
    })
    return { ...plan, cwd: worktree.cwd, worktree }
  } catch (err) {
    return { ...plan, note: `It runs in the folder itself: its own worktree could not be made (${errorMessage(err)}).` }
  }
}

/** After the run: the worktree's changes become a commit on its branch; an unchanged worktree is removed. */
export async function finishTryRun(plan: TryPlan, prompt: string): Promise<FinishedWorktree | undefined> {
  if (!plan.worktree) return undefined
  const { path, branch, baseCommit, repoRoot } = plan.worktree
  return finishAgentWorktree({ worktree: { path, branch, baseCommit, repoRoot }, agentType: plan.agentType, description: `Try it: ${prompt}` })
}
