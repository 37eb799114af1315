// RequestMerge: how the main agent asks to land isolated agents' work (their `fanout/<agentId>` branches) on
// the current branch. It never merges on its own authority: every call is put to the person through the
// permission queue, whatever the permission mode or rules say (bypassPermissions included), and is refused
// where nobody can answer (headless runs, background agents, plan and dontAsk modes). The merge itself is
// the Changes view's: all or nothing per agent, stopping at the first conflict with the branch kept.
import { z } from 'zod'
import type { PermissionMode } from '../../../../shared/agent-definition'
import type { AgentChanges, MergeOutcome, MergeStrategy } from '../../../../shared/review'
import { AgentWorkReview, ReviewError } from '../../review'
import { defineTool, type Tool, type ToolContext, toolInput } from '../../tools/define-tool'
import { personAllowedNote, personSaid } from '../../tool-call'

export const REQUEST_MERGE_TOOL_NAME = 'RequestMerge'

/** The person's answer to a consent ask (`nobody` where no one can answer), with the words they gave. */
export interface ConsentAnswer {
  decision: 'allow' | 'deny' | 'nobody'
  feedback?: string
}

export interface RequestMergeHost {
  /** The session's folder: its checkout is what is merged into. */
  cwd: string
  review: AgentWorkReview
  /** The main agent's permission mode now. */
  mode(): PermissionMode
  /** An agent of the session by id or name → its id (the branch is `fanout/<id>`). */
  agentId(idOrName: string): Promise<string | undefined>
  /** Puts the request to the person (the permission queue); `nobody` where no one can answer. */
  consent(ctx: ToolContext, input: unknown, reason: string): Promise<ConsentAnswer>
  /** The person's remembered choice in the Changes view. */
  strategy(): Promise<MergeStrategy>
}

const input = toolInput('RequestMerge', () =>
  z
    .object({
      agents: z
        .array(z.string().trim().min(1))
        .min(1)
        .max(50)
        .describe('The agents whose work to merge: agent ids or names (as in their reports), or their branches (fanout/<agentId>)'),
      strategy: z
        .enum(['merge', 'squash'])
        .optional()
        .describe('"merge" (a merge commit) or "squash" (one commit per agent); default: what the person last chose in the Changes view'),
      reason: z.string().trim().min(1).max(2000).describe('Why this work is ready to land, in a sentence the person will read when deciding')
    })
    .strict()
)

const DESCRIPTION = `Ask the person to merge isolated agents' work into the branch checked out in this session's folder. Agents run with isolation: "worktree" leave their changes as commits on their own branch (fanout/<agentId>, named in their report); this merges those branches.

- The person always decides: the request waits in their permission queue until they allow or deny it. Ask only for work that is finished and checked (for example, after a verifier passed), and say why in "reason".
- Each agent's branch is merged all or nothing: if the checkout has uncommitted changes, or a branch conflicts, nothing of it is merged and its branch is kept; the result names the files. Several agents are merged in an order that avoids conflicts where one exists, stopping at the first real conflict.
- A merged agent's worktree and branch are removed. An agent still running cannot be merged yet.`

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`

function describeWork(c: AgentChanges): string {
  return `${c.agentType ?? 'agent'} ${c.agentId} (${c.branch}: ${plural(c.files.length + c.uncommitted.length, 'file')}, +${c.additions} −${c.deletions})`
}

export function outcomeText(o: MergeOutcome): string {
  const lines: string[] = []
  for (const m of o.merged)
    lines.push(
      `Merged ${m.branch} into ${o.into} as ${m.commit.slice(0, 12)} (${m.strategy === 'merge' ? 'merge commit' : 'squashed'}, ${plural(m.files, 'file')})${m.cleanup ? `; ${m.cleanup}` : '; its worktree and branch were removed'}.`
    )
  for (const s of o.skipped) lines.push(`Skipped: ${s}.`)
  if (o.stopped) {
    lines.push(`Stopped at ${o.stopped.branch}: ${o.stopped.message}`)
    if (o.stopped.files.length) lines.push(`Files: ${o.stopped.files.join(', ')}`)
    lines.push(
      `Not merged (their branches are kept): ${o.notMerged.join(', ')}. Tell the person; resolving a conflict is their call (or ask an agent to rework its branch on top of the current one).`
    )
  }
  return lines.join('\n')
}

export function createRequestMergeTool(host: RequestMergeHost): Tool {
  return defineTool({
    name: REQUEST_MERGE_TOOL_NAME,
    description: DESCRIPTION,
    schema: input,
    readOnly: false,
    async execute(req, ctx) {
      const mode = host.mode()
      if (mode === 'plan')
        return {
          content: "RequestMerge is not available in plan mode: merging changes the checkout. Describe which agents' work is ready instead.",
          isError: true
        }
      if (mode === 'dontAsk')
        return {
          content:
            "RequestMerge needs the person's approval, and this agent runs in dontAsk mode, which never asks; tell the person which branches are ready instead.",
          isError: true
        }
      const ids: string[] = []
      for (const name of req.agents) ids.push((await host.agentId(name)) ?? name.replace(/^fanout\//, ''))
      let changes: AgentChanges[]
      try {
        const resolved = await host.review.resolve(host.cwd, ids)
        changes = (
          await host.review.list(
            host.cwd,
            resolved.map((b) => b.agentId)
          )
        ).agents
      } catch (err) {
        if (err instanceof ReviewError) return { content: `RequestMerge: ${err.message}`, isError: true }
        throw err
      }
      const running = changes.filter((c) => c.state === 'running')
      if (running.length)
        return {
          content: `RequestMerge: ${running.map(describeWork).join(', ')} ${running.length === 1 ? 'is' : 'are'} still running; wait for ${running.length === 1 ? 'its' : 'their'} report, then ask again.`,
          isError: true
        }
      const strategy = req.strategy ?? (await host.strategy())
      const list = await host.review.list(host.cwd)
      const into = list.checkout.branch ?? 'the detached HEAD'
      const reason = `Merge ${changes.map(describeWork).join(', ')} into ${into} (${strategy === 'merge' ? 'merge commits' : 'squashed'}). The agent says: ${req.reason}`
      const answer = await host.consent(ctx, req, reason)
      if (answer.decision === 'nobody')
        return {
          content:
            "RequestMerge needs the person's approval and nobody can answer in this run (headless or background); nothing was merged. Name the branches in your answer so the person can merge them (fanout worktrees merge).",
          isError: true
        }
      if (answer.decision === 'deny')
        return {
          content: `The person declined the merge; nothing was merged and the branches are kept. Do not ask again unless they tell you to.${personSaid(answer.feedback)}`,
          isError: true
        }
      const outcome = await host.review.merge(host.cwd, { agents: changes.map((c) => c.agentId), strategy })
      return {
        content: `${outcomeText(outcome)}${personAllowedNote(answer.feedback)}`,
        details: { outcome },
        isError: outcome.stopped !== null && outcome.merged.length === 0
      }
    }
  })
}
