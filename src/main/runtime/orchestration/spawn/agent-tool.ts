// The Agent tool (alias Task): how an agent hands a task to a subagent. Its description lists the agent
// types this session can spawn, in Claude Code's format, so real agent files work unchanged.
import { z } from 'zod'
import type { AgentDefinition } from '../../../../shared/agent-definition'
import { formatAgentListing } from '../../definitions'
import { defineTool, type Tool, type ToolContext, type ToolResult, toolInput, type InputOf } from '../../tools/define-tool'
import { AGENT_TOOL_NAME } from './agent-tool-name'
import { FORK_AGENT_TYPE, FORK_DESCRIPTION } from './fork'

export { AGENT_TOOL_NAME }

export const agentToolInput = toolInput('Agent', () =>
  z
    .object({
      description: z.string().trim().min(1, 'give the task a short (3-5 word) description').describe('A short (3-5 word) description of the task'),
      prompt: z.string().trim().min(1, 'the prompt is the whole task for the subagent; it cannot be empty').describe('The task for the agent to perform'),
      subagent_type: z.string().trim().min(1).optional().describe(`The type of agent to use (default: general-purpose); "${FORK_AGENT_TYPE}" forks you`),
      model: z.string().trim().min(1).optional().describe("haiku, sonnet, opus, fable, inherit or a model id (default: the definition's model, else yours)"),
      max_turns: z.number().int().positive().optional().describe("Most model calls the agent may make (default: its definition's maxTurns)"),
      effort: z
        .union([z.enum(['low', 'medium', 'high', 'xhigh', 'max']), z.number().int().min(1024).max(128_000)])
        .optional()
        .describe("How hard it thinks: a level or a thinking budget in tokens (default: the definition's effort, else yours)"),
      run_in_background: z.boolean().optional().describe('Run the agent in the background (see above)'),
      resume: z
        .string()
        .trim()
        .min(1)
        .optional()
        .describe('Id of an earlier agent (finished or stopped) to continue with its full history; prompt is its next message'),
      budget: z
        .strictObject({ usd: z.number().positive().optional(), tokens: z.number().int().positive().optional() })
        .optional()
        .describe('Most this agent and its subagents may spend, in dollars (usd) and/or tokens; it stops there and you are told'),
      isolation: z
        .enum(['worktree'])
        .optional()
        .describe('"worktree": its own git worktree on a new branch, where its changes are committed; the branch is reported back'),
      name: z.string().trim().min(1).optional().describe('A name to address this agent by with SendMessage')
    })
    .strict()
)

export type AgentToolInput = z.infer<InputOf<typeof agentToolInput>>

/**
 * The tool's description with the agent types the caller may start: every one, or (`tools: Agent(a, b)` in
 * its definition) only those, and `fork` only when it may fork.
 */
export function agentToolDescription(agents: readonly AgentDefinition[], allowed?: readonly string[]): string {
  const listed = allowed ? agents.filter((a) => allowed.includes(a.agentType)) : agents
  const fork = !allowed || allowed.includes(FORK_AGENT_TYPE) ? `\n- ${FORK_AGENT_TYPE}: ${FORK_DESCRIPTION}` : ''
  const only = allowed ? `\nYour definition lets you start only ${allowed.length === 1 ? 'this agent type' : 'these agent types'}: ${allowed.join(', ')}.` : ''
  return `Start a subagent: a separate agent with its own context, tools and model that works on one task and returns its final report to you.

Available agent types and the tools they have:
${formatAgentListing(listed)}${fork}${only}

Give each subagent a complete, self-contained prompt: it sees nothing of your conversation, only what you write. Say what to do, what you already know, and what to report back. When you start several agents for independent work, put all the Agent calls in one message so they run at the same time.

- The agent's final message comes back to you as this tool's result; the person does not see it, so pass on what matters.
- The result ends with the agent's id (agentId): continue the agent later with SendMessage (to its id or name), or with resume; a new Agent call starts fresh.
- run_in_background: true returns at once with the agent's id and output file; keep working, and its report reaches you as a <task-notification> message when it finishes. Use TaskOutput to wait for it or read its progress, TaskStop to stop it. Background agents cannot ask for permissions or start agents.`
}

export function createAgentTool(opts: {
  /** agentToolDescription of the session's agent types and those this caller may start (built once per set of definitions and allowed list, not per agent). */
  description: string
  spawn: (input: AgentToolInput, ctx: ToolContext) => Promise<ToolResult>
}): Tool {
  const tool = defineTool({
    name: AGENT_TOOL_NAME,
    description: opts.description,
    schema: agentToolInput,
    readOnly: false,
    // It starts an agent; that agent's own tools say when files change (the listing its siblings share is kept).
    changesFiles: false,
    // Several Agent calls in one assistant message run in parallel: that is the point of fan-out.
    concurrencySafe: true,
    // The subagent's report is what the parent asked for; let it through whole up to a generous cap.
    maxOutputChars: 100_000,
    execute: (input, ctx) => opts.spawn(input, ctx)
  })
  return tool
}
