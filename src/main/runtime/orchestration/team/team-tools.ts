// The team's own tools: the lead creates and deletes the team and asks members to shut down; members send
// plans for approval; whoever receives a request answers it. Requests and answers travel as messages.
import { z } from 'zod'
import { lazy } from '../../../../shared/lazy'
import { defineTool, type Tool } from '../../tools/define-tool'
import type { AgentHandle } from '../runs/agent-registry'
import { REQUEST_PLAN_APPROVAL, REQUEST_SHUTDOWN, RESPOND_TO_REQUEST, TEAM_CREATE, TEAM_DELETE } from '../../tools/team-tool-names'
import type { TeamManager } from './team-manager'
import { LEAD } from './team-ops'

// Built when a team is made, not at every start (teams are off by default).
const teamCreateInput = lazy(() => {
  const memberInput = z
    .object({
      name: z.string().trim().min(1).max(64).describe('How the team addresses this member (letters, digits, . _ -)'),
      agent_type: z.string().trim().min(1).optional().describe('The agent definition it runs as (default general-purpose): its tools and model apply'),
      prompt: z.string().trim().min(1, "the member's first instructions cannot be empty").describe('Its first instructions: its role and what to do first'),
      model: z.string().trim().min(1).optional().describe("Override the definition's model"),
      isolation: z.enum(['worktree']).optional().describe('"worktree": the member works in its own git worktree')
    })
    .strict()

  return z
    .object({
      team_name: z.string().trim().min(1).max(64),
      description: z.string().trim().max(500).optional().describe('What the team is for'),
      members: z.array(memberInput).min(1, 'a team needs at least one member').max(16),
      tasks: z
        .array(
          z
            .object({
              subject: z.string().trim().min(1).max(200),
              description: z.string().max(20_000).optional(),
              blockedBy: z.array(z.string().trim().min(1)).max(50).optional().describe('Ids of earlier tasks in this list ("1" is the first)')
            })
            .strict()
        )
        .max(200)
        .optional()
        .describe('The first tasks for the shared list; they get ids "1", "2", … in this order')
    })
    .strict()
})

export function createLeadTools(m: TeamManager, lead: AgentHandle): Tool[] {
  return [
    defineTool({
      name: TEAM_CREATE,
      description: `Create an agent team: members that work in parallel from a shared task list and talk through messages. Each member runs as an agent definition (agent_type: its tools and model apply) with the team's instructions; give each a name and its first instructions, and seed the task list with tasks. Members claim tasks themselves, report to you each time they go idle, and can be messaged by name. One team per session; members cannot create teams.`,
      schema: teamCreateInput(),
      readOnly: false,
      execute: (input, ctx) => m.create(lead, input, ctx.toolUseId)
    }),
    defineTool({
      name: TEAM_DELETE,
      description: 'End the team once its members have stopped (ask them with RequestShutdown first). Its task list stays on disk.',
      schema: z.object({}).strict(),
      readOnly: false,
      async execute(_input, ctx) {
        const out = await m.run({ op: 'team_delete', actor: LEAD, toolUseId: ctx.toolUseId })
        return out.ok ? { content: 'The team is deleted. Its task list and history stay in the session folder.' } : { content: out.error, isError: true }
      }
    }),
    defineTool({
      name: REQUEST_SHUTDOWN,
      description:
        'Ask a team member to shut down: it finishes or releases its task and answers. Send this when the work is done or the member is no longer needed.',
      schema: z.object({ to: z.string().trim().min(1).describe("The member's name"), reason: z.string().trim().max(2000).optional() }).strict(),
      readOnly: false,
      concurrencySafe: true,
      execute: (input) => m.request(lead, 'shutdown', input.to, input.reason ?? 'The work is done.')
    })
  ]
}

export function createMemberTools(m: TeamManager, member: AgentHandle): Tool[] {
  return [
    defineTool({
      name: REQUEST_PLAN_APPROVAL,
      description:
        "Send your plan to the team lead for approval before you carry it out. End your turn after sending it: the lead's answer arrives as a message and you continue from it.",
      schema: z.object({ plan: z.string().trim().min(1, 'the plan is empty').max(50_000) }).strict(),
      readOnly: false,
      execute: (input) => m.request(member, 'plan_approval', LEAD, input.plan)
    })
  ]
}

/** For the lead and the members: answer a request that was sent to you. */
export function createRespondTool(m: TeamManager, caller: AgentHandle): Tool {
  return defineTool({
    name: RESPOND_TO_REQUEST,
    description:
      'Answer a team request sent to you (a <team-request> message): approve or reject it, with a response (your feedback on a plan, or why you cannot shut down yet).',
    schema: z.object({ request_id: z.string().trim().min(1), approve: z.boolean(), response: z.string().trim().max(20_000).optional() }).strict(),
    readOnly: false,
    execute: (input) => m.respond(caller, input.request_id, input.approve, input.response)
  })
}
