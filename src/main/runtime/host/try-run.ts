// "Try it" in the host: a new session over the editor's plan (its draft as an `--agents` definition, its
// worktree as the folder), the main agent run as that definition, and — once everything in the session
// has finished — the worktree committed or removed, with a notice saying which.
import type { TryAgentResult } from '../../../shared/agent-editor'
import type { PermissionMode } from '../../../shared/agent-definition'
import type { HostNotice } from '../../../shared/ipc-contract'
import type { TryPlan } from '../agent-editor'
import type { AgentSession, AgentSessionOptions } from '../orchestration'
import { titleFromPrompt } from '../store'
import { errorMessage } from '../../../shared/error-message'
import type { FinishedWorktree } from '../worktrees'

export interface TryRunDeps {
  create(opts: Partial<AgentSessionOptions> & { cwd: string }): Promise<AgentSession>
  /** Makes the session one of the host's live sessions (events, notices, stop, permissions). */
  adopt(session: AgentSession, title: string): AgentSession
  agentSources?: AgentSessionOptions['agentSources']
  defaultMode: PermissionMode
  finish(plan: TryPlan, prompt: string): Promise<FinishedWorktree | undefined>
  notify(notice: HostNotice): void
  onError(sessionId: string, agentId: string, message: string): void
}

export async function startTryRun(plan: TryPlan, prompt: string, deps: TryRunDeps): Promise<TryAgentResult> {
  const title = `Try ${plan.agentType}: ${titleFromPrompt(prompt)}`
  const session = deps.create({
    cwd: plan.cwd,
    title,
    agentSources: { ...deps.agentSources, cliAgentsJson: plan.cliAgentsJson },
    // The definition's own model and mode are what is being tried; without them, the person's defaults apply.
    permissionMode: plan.permissionMode ?? deps.defaultMode,
    ...(plan.model ? { model: plan.model } : {})
  })
  const live = deps.adopt(await session, title)
  const { sessionId, mainAgentId } = live
  void live
    .run(prompt, { agentType: plan.agentType, ...(plan.maxTurns !== undefined ? { maxTurns: plan.maxTurns } : {}) })
    .catch((err) => deps.onError(sessionId, mainAgentId, errorMessage(err)))
    .then(() => live.idle())
    .then(() => deps.finish(plan, prompt))
    .then(
      (wt) =>
        deps.notify({
          type: 'agent_try_finished',
          sessionId,
          ...(wt
            ? {
                worktree: {
                  path: wt.path,
                  branch: wt.branch,
                  changed: wt.changed,
                  kept: wt.kept,
                  ...(wt.commit ? { commit: wt.commit } : {}),
                  ...(wt.error ? { error: wt.error } : {})
                }
              }
            : {})
        }),
      (err) => deps.onError(sessionId, mainAgentId, `The try's worktree could not be finished: ${errorMessage(err)}`)
    )
  return {
    sessionId,
    agentId: mainAgentId,
    ...(plan.worktree ? { worktree: { path: plan.worktree.path, branch: plan.worktree.branch } } : {}),
    ...(plan.note ? { note: plan.note } : {})
  }
}
