// What a prompt sends when it is a slash command, decided as Claude Code 2.1 decides it (runtime/commands), for
// `fanout run -p PROMPT` and the app's prompt box alike: a command file or skill becomes its prompt (on its own model and with its allow rules for
// that run), a built-in such as `/cost` or `/context` is answered without a model call, and anything else goes
// to the model as typed. An agent's `initialPrompt` (`--agent NAME`) goes before the first prompt, as Claude
// Code sends it.
import type { ContentBlock } from '../../../../shared/events'
import { answerBuiltin, commandBlock, parseSlash, resolvePrompt, type BuiltinFacts } from '../../commands'
import { errorMessage } from '../../../../shared/error-message'
import { addUsage } from '../../../../shared/usage'
import type { MainRunOptions } from '../runs/main-agent'
import type { AgentSession } from './session'

export type PromptPlan =
  | { kind: 'run'; prompt: string | ContentBlock[]; opts: Pick<MainRunOptions, 'model' | 'commandRules'> }
  /** Answered here: the result text, and Claude Code's `local_command` for it; `builtin` names the built-in that answered. */
  | { kind: 'local'; text: string; localCommand?: string; builtin?: string }

export interface PlanOptions {
  /** `--agent NAME`: its `initialPrompt` leads a new conversation. */
  agent?: string
  /** When the run began (`/cost`'s wall time). */
  startedAt: number
  /** Answer the built-ins (`/cost`…) here; without it they go to the model as typed (the app has no place to print them). */
  builtins: boolean
  /** false: the prompt is text whatever it looks like (it did not start with `/` as typed). */
  commands?: boolean
}

export async function planPrompt(session: AgentSession, prompt: string, opts: PlanOptions): Promise<PromptPlan> {
  const { agent, startedAt } = opts
  const resolved = opts.commands === false ? ({ kind: 'text' } as const) : resolvePrompt(prompt, await session.commands())
  let plan: PromptPlan
  if (resolved.kind === 'builtin' && opts.builtins) {
    const facts = await builtinFacts(session, startedAt)
    const answer = answerBuiltin(resolved.name, () => facts)
    plan = answer
      ? { kind: 'local', text: answer.text, builtin: resolved.name, ...(answer.localCommand ? { localCommand: answer.localCommand } : {}) }
      : { kind: 'run', prompt, opts: {} }
  } else if (resolved.kind === 'command') {
    const prepared = await session.prepareCommand(resolved.command, resolved.args)
    plan =
      prepared.kind === 'answer'
        ? { kind: 'local', text: prepared.text, localCommand: prepared.localCommand }
        : { kind: 'run', prompt: prepared.blocks, opts: { ...(prepared.model ? { model: prepared.model } : {}), commandRules: prepared.commandRules } }
  } else plan = (await mcpPrompt(session, prompt, opts.commands !== false)) ?? { kind: 'run', prompt, opts: {} }
  return plan.kind === 'run' ? withInitialPrompt(session, plan, agent) : plan
}

/**
 * `/mcp__server__prompt args`: a connected server's prompt (mcp/prompt-commands.ts), its messages sent as the
 * command's text; a required argument left out, or a server that fails, is answered here with the reason.
 */
async function mcpPrompt(session: AgentSession, prompt: string, commands: boolean): Promise<PromptPlan | null> {
  const slash = commands ? parseSlash(prompt) : null
  if (!slash?.name.startsWith('mcp__')) return null
  const found = (await session.extensions.mcp.promptCommands()).find((c) => c.name === slash.name)
  if (!found) return null
  try {
    const text = await found.expand(slash.args)
    return {
      kind: 'run',
      prompt: [
        { type: 'text', text: commandBlock(found.name, slash.args) },
        { type: 'text', text }
      ],
      opts: {}
    }
  } catch (err) {
    return { kind: 'local', text: errorMessage(err) }
  }
}

/** `--agent NAME` whose definition has `initialPrompt`: it leads the first prompt of a new conversation. */
function withInitialPrompt(session: AgentSession, plan: Extract<PromptPlan, { kind: 'run' }>, agent: string | undefined): PromptPlan {
  const initial = agent ? session.agents().get(agent)?.definition.initialPrompt?.trim() : undefined
  if (!initial || session.mainHandle().messages.length) return plan
  const prompt: string | ContentBlock[] = typeof plan.prompt === 'string' ? `${initial}\n\n${plan.prompt}` : [{ type: 'text', text: initial }, ...plan.prompt]
  return { ...plan, prompt }
}

async function builtinFacts(session: AgentSession, startedAt: number): Promise<BuiltinFacts> {
  const ctx = await session.contextFacts()
  // Every server has connected or failed by then, as Claude Code's count is taken.
  await session.extensions.mcp.ready()
  // A reopened session's spend before the restart counts too, as the session's cost everywhere does.
  const usage = session.reopened ? addUsage(session.reopened.usage, session.registry.totalUsage()) : session.registry.totalUsage()
  return {
    model: ctx.model,
    costUsd: usage.costUsd,
    apiMs: 0,
    wallMs: Date.now() - startedAt,
    usage: { input: usage.inputTokens, output: usage.outputTokens, cacheRead: usage.cacheReadTokens, cacheWrite: usage.cacheWriteTokens },
    context: { systemPrompt: ctx.systemPrompt, tools: ctx.tools, messages: ctx.messages, window: ctx.window, autocompactBuffer: ctx.buffer },
    mcpStatuses: session.extensions.mcp.status().map((m) => m.status)
  }
}
