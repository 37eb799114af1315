// A `/name args` prompt made ready to send (commands/ does the reading and filling in): its `!` blocks run as
// the main agent's Bash would — the same permission decision (mode, rules, the command's `allowed-tools`, hooks)
// and the sandbox that decision grants — and its `@file` mentions are read as a typed prompt's are
// (prompt-mentions.ts: the Read tool on the one path check, only inside the working directories, no protected
// path). A repository's command file is hostile input: nothing in it runs any other way, and the `allowed-tools`
// of a command the folder brings count only once the person trusts the folder.
import { randomUuid } from '../../random-hex'
import type { ContentBlock } from '../../../../shared/events'
import { expandCommand, loadFolderCommands, type CommandDefinition, type CommandEffects } from '../../commands'
import { runTool } from '../../tool-call'
import { parseRule, type PermissionRule } from '../../permissions/rules'
import type { AgentHandle } from '../runs/agent-registry'
import type { SessionContext } from '../types'
import { readMention } from './prompt-mentions'
import type { AgentDefinition } from '../../../../shared/agent-definition'
import { estimateMessagesTokens, estimateTextTokens } from '../../compaction/estimate-tokens'
import { AUTO_COMPACT_BUFFER, contextWindowFor, OUTPUT_RESERVE_CAP } from '../../model/context-window'
import { MAIN_DEFINITION } from '../prompts/main-prompt'

export type CommandsHost = Pick<SessionContext, 'cwd' | 'home' | 'permissions' | 'tools' | 'main' | 'extensions'> & {
  /** The person trusts the folder (its own grants count). */
  folderTrusted(): boolean
  /** `--plugin-dir` folders beside the plugins the settings enable. */
  pluginDirs?: readonly string[]
}

export type PreparedPrompt =
  /** What goes to the main agent: the blocks, and for this run alone a model and allow rules. */
  | { kind: 'prompt'; blocks: ContentBlock[]; command: CommandDefinition; model?: string; commandRules: PermissionRule[] }
  /** Answered without a model call (a refused or failed `!` block), in Claude Code's words. */
  | { kind: 'answer'; text: string; localCommand: string }

/** Every command typed here can name: command files, the enabled plugins' commands and skills, skills. */
export function sessionCommands(host: CommandsHost): Promise<CommandDefinition[]> {
  return loadFolderCommands(host.cwd, host.home, host.pluginDirs ? { pluginDirs: host.pluginDirs } : {})
}

/** The allow rules a command's `allowed-tools` grants: none from a folder the person has not trusted, none that do not parse. */
export function commandRules(host: CommandsHost, command: CommandDefinition): PermissionRule[] {
  if ((command.source === 'project' || command.skillScope === 'project' || command.folderBrought) && !host.folderTrusted()) return []
  const out: PermissionRule[] = []
  for (const raw of command.allowedTools) {
    const parsed = parseRule(raw, 'session', host.cwd)
    if (parsed.ok) out.push(parsed.rule)
  }
  return out
}

/** Runs Bash as the main agent would call it: its permission decision first, then the command in the sandbox granted. */
async function asMainAgent(host: CommandsHost, handle: AgentHandle, name: 'Bash', input: Record<string, unknown>) {
  const tool = host.tools.build(handle, [name]).find((t) => t.name === name)
  if (!tool) return { denied: `${name} is not available to the main agent` }
  const parsed = tool.parse(input)
  if (!parsed.ok) return { denied: parsed.error }
  const toolUseId = `command-${randomUuid()}`
  const before = host.permissions.beforeToolCall(handle)
  const decision = before ? await before(tool, parsed.input, toolUseId) : { behavior: 'allow' as const }
  if (decision.behavior === 'deny') return { denied: decision.message }
  const sandbox = 'sandbox' in decision ? decision.sandbox : undefined
  // A run the person stopped earlier left its signal aborted; this is a new prompt. Stopping it stops the command.
  if (handle.abort.signal.aborted) handle.abort = new AbortController()
  const signal = handle.abort.signal
  const started = Date.now()
  const result = await runTool(tool, input, { signal, agentId: handle.id, toolUseId, ...(sandbox ? { sandbox } : {}) })
  // Its PostToolUse hooks run as for the agent's own calls (step 8 of the tool-call pipeline).
  return { result: await host.extensions.afterToolCall(handle)(tool, { rawInput: input, toolUseId, signal, durationMs: Date.now() - started }, result) }
}

export async function prepareCommand(host: CommandsHost, command: CommandDefinition, args: string): Promise<PreparedPrompt> {
  const handle = host.main.getHandle()
  const rules = commandRules(host, command)
  const before = handle.commandRules
  handle.commandRules = rules
  const effects: CommandEffects = {
    async shell(cmd) {
      const ran = await asMainAgent(host, handle, 'Bash', { command: cmd })
      if ('denied' in ran) return { ok: false, denied: ran.denied ?? '' }
      const response = ran.result.response as { stdout?: string; stderr?: string } | undefined
      if (ran.result.isError) return { ok: false, failed: response?.stderr ?? ran.result.content }
      // Claude Code's words for a command that printed nothing.
      const stdout = response?.stdout ?? ran.result.content
      return { ok: true, stdout: stdout.trim() ? stdout : '(Bash completed with no output)' }
    },
    // Only what a typed `@path` reaches, whatever the mode: a file the command names is read before anyone sees
    // the prompt (bypass would let the Read tool go anywhere).
    read: (path) => readMention(host.permissions.pathPolicy(handle), path, handle.id, `command-${randomUuid()}`)
  }
  try {
    const expanded = await expandCommand(command, args, effects)
    if (expanded.kind === 'answer') return expanded
    return { kind: 'prompt', blocks: expanded.blocks, command, ...(command.model ? { model: command.model } : {}), commandRules: rules }
  } finally {
    handle.commandRules = before
  }
}

/** What `/context` reports of the main agent's next request: its model, and estimated tokens by part. */
export interface ContextFacts {
  model: string
  systemPrompt: number
  tools: number
  messages: number
  window: number
  buffer: number
}

export type ContextHost = Pick<SessionContext, 'tools' | 'main' | 'contextSettings'> & {
  systemPrompt(def: AgentDefinition, handle: AgentHandle): Promise<string>
}

export async function contextFacts(host: ContextHost): Promise<ContextFacts> {
  const handle = host.main.getHandle()
  const system = await host.systemPrompt(handle.definition ?? MAIN_DEFINITION, handle)
  const tools = host.tools.build(handle, host.tools.names())
  const window = contextWindowFor(handle.model, host.contextSettings.windows)
  return {
    model: handle.model,
    systemPrompt: estimateTextTokens(system),
    tools: tools.reduce((n, t) => n + estimateTextTokens(`${t.name}${t.description}${JSON.stringify(t.inputJsonSchema)}`), 0),
    messages: estimateMessagesTokens(handle.messages),
    window,
    buffer: Math.min(window, OUTPUT_RESERVE_CAP + AUTO_COMPACT_BUFFER)
  }
}
