// The tools a session gives its agents: the built-in ones on the agent's cwd (each agent keeps its file
// state and todo list across its runs), the orchestration tools (Agent, SendMessage, TaskOutput, TaskStop,
// SetPhase in coordinator mode, the team tools), and around them the MCP tools and hooks of its extensions.
import { BUILTIN_TOOL_NAMES, createBuiltinTools, FileState, TodoList } from '../../tools'
import type { Tool, ToolContext } from '../../tools/define-tool'
import type { AgentHandle } from '../runs/agent-registry'
import { AGENT_TOOL_NAME, agentToolDescription, createAgentTool, type AgentToolInput } from '../spawn/agent-tool'
import type { Coordinator } from '../coordinator/coordinator'
import { SET_PHASE_TOOL_NAME } from '../coordinator/coordinator-prompt'
import type { SessionExtensions } from '../session/extensions'
import type { SessionSandbox } from '../session/session-sandbox'
import type { SessionContext } from '../types'
import { createSendMessageTool, SEND_MESSAGE_TOOL_NAME, type MessagingHost } from '../messaging/send-message'
import { createSkillTool, SKILL_TOOL_NAME } from './skill-tool'
import { createRequestMergeTool, REQUEST_MERGE_TOOL_NAME, type RequestMergeHost } from './request-merge-tool'
import { spawnSubagent, type SpawnHost } from '../spawn/spawn'
import { createTaskOutputTool, createTaskStopTool, TASK_OUTPUT_TOOL_NAME, TASK_STOP_TOOL_NAME } from './task-tools'
import { memberToolNames, TEAM_TOOL_NAMES, teamToolsFor, type TeamManager } from '../team'

/**
 * What the tools need from their session (read when tools are built, so a later coordinator or team counts):
 * what the Agent tool spawns with and SendMessage delivers with, and the parts below.
 */
export interface ToolsHost extends SpawnHost, MessagingHost {
  readonly coordinator: Coordinator | null
  readonly teamsEnabled: boolean
  readonly team: TeamManager
  readonly extensions: SessionExtensions
  /** Who answers permission questions, and the one path check for an agent's tools. */
  readonly permissions: SessionContext['permissions']
  /** How an agent's Bash commands are sandboxed. */
  readonly sandbox: Pick<SessionSandbox, 'forAgent'>
  /** What the main agent's RequestMerge needs (the session's folder, its review, the person's consent). */
  requestMergeHost(handle: AgentHandle): RequestMergeHost
}

export interface SessionToolsOptions {
  /** Path of `rg`, or false to use the JS search fallback. */
  ripgrep?: string | false
  /** See ToolOptions.inProcessSearchUpTo. */
  inProcessSearchUpTo?: number
  /** The last part of an agent's output log, if it has one (for TaskOutput). */
  outputTail(handle: AgentHandle): string | undefined
}

/** The tools every session offers, before coordinator, team and MCP tools (the agent editor shows them too). */
export const BASE_TOOL_NAMES: readonly string[] = [
  ...BUILTIN_TOOL_NAMES,
  AGENT_TOOL_NAME,
  SEND_MESSAGE_TOOL_NAME,
  TASK_OUTPUT_TOOL_NAME,
  TASK_STOP_TOOL_NAME,
  SKILL_TOOL_NAME
]

export class SessionTools {
  private readonly state = new Map<string, { fileState: FileState; todos: TodoList }>()
  /** The Agent tool's descriptions by allowed list ('' for any type), built once per loaded set of definitions rather than once per agent. */
  private listing: { agents: ReturnType<ToolsHost['definitions']['agents']>; byAllowed: Map<string, string> } | null = null

  constructor(
    private readonly s: ToolsHost,
    private readonly opts: SessionToolsOptions
  ) {}

  private agentDescription(allowed?: readonly string[]): string {
    const agents = this.s.definitions.agents()
    if (this.listing?.agents !== agents) this.listing = { agents, byAllowed: new Map() }
    const key = allowed ? JSON.stringify(allowed) : ''
    let description = this.listing.byAllowed.get(key)
    if (description === undefined)
      this.listing.byAllowed.set(
        key,
        (description = agentToolDescription(
          [...agents.values()].map((l) => l.definition),
          allowed
        ))
      )
    return description
  }

  /** Every tool name an agent could be given, for tool resolution. */
  names(): string[] {
    return [
      ...BASE_TOOL_NAMES,
      REQUEST_MERGE_TOOL_NAME,
      ...(this.s.coordinator ? [SET_PHASE_TOOL_NAME] : []),
      ...(this.s.teamsEnabled ? TEAM_TOOL_NAMES : []),
      ...this.s.extensions.toolNames()
    ]
  }

  /** The named tools for one agent, built on its cwd (a member of the active team gets the member tools too). */
  build(handle: AgentHandle, names: readonly string[]): Tool[] {
    const s = this.s
    let state = this.state.get(handle.id)
    if (!state) this.state.set(handle.id, (state = { fileState: new FileState(), todos: new TodoList() }))
    const wanted = new Set([...names, ...memberToolNames(s.team, handle)])
    const isMain = handle.id === s.mainAgentId
    const tools = createBuiltinTools(
      {
        cwd: handle.cwd,
        fileState: state.fileState,
        todos: state.todos,
        paths: s.permissions.pathPolicy(handle),
        sandbox: s.sandbox.forAgent(handle),
        ...(this.opts.ripgrep !== undefined ? { ripgrep: this.opts.ripgrep } : {}),
        ...(this.opts.inProcessSearchUpTo !== undefined ? { inProcessSearchUpTo: this.opts.inProcessSearchUpTo } : {})
      },
      wanted
    )
    if (wanted.has(AGENT_TOOL_NAME)) {
      const spawn = (input: AgentToolInput, ctx: ToolContext) => spawnSubagent(s, handle, input, ctx)
      tools.push(
        createAgentTool({
          description: this.agentDescription(handle.allowedAgentTypes),
          spawn: s.coordinator && isMain ? s.coordinator.wrapSpawn(spawn) : spawn
        })
      )
    }
    if (s.coordinator && isMain && wanted.has(SET_PHASE_TOOL_NAME)) tools.push(s.coordinator.setPhaseTool(handle))
    if (s.teamsEnabled || !isMain) tools.push(...teamToolsFor(s.team, handle, { isMain, wanted }))
    if (wanted.has(SEND_MESSAGE_TOOL_NAME)) tools.push(createSendMessageTool(s, handle))
    // The built-in tools, Agent and SendMessage read the same for every agent and lead the list; the tools
    // only some agents get (the main agent's task tools, a coordinator's, a team's, MCP tools) follow them.
    // An agent limited to some agent types (`tools: Agent(a, b)`) has an Agent tool of its own.
    for (const t of tools)
      if (
        (BUILTIN_TOOL_NAMES as readonly string[]).includes(t.name) ||
        (t.name === AGENT_TOOL_NAME && !handle.allowedAgentTypes) ||
        t.name === SEND_MESSAGE_TOOL_NAME
      )
        t.sameForEveryAgent = true
    const taskHost = { registry: s.registry, outputTail: this.opts.outputTail, aside: <T>(wait: Promise<T>) => s.gate.aside(handle, wait) }
    if (wanted.has(TASK_OUTPUT_TOOL_NAME)) tools.push(createTaskOutputTool(taskHost))
    if (wanted.has(TASK_STOP_TOOL_NAME)) tools.push(createTaskStopTool(taskHost))
    // Offered only when there is a skill to load: with none, the tool could only refuse, and its description
    // would be ~200 tokens that every request of the agent reads. An agent started after one is added gets it.
    const loadable = (k: { modelInvocable: boolean }) => k.modelInvocable
    if (wanted.has(SKILL_TOOL_NAME) && (s.definitions.skills().some(loadable) || s.definitions.commands().some(loadable)))
      tools.push(createSkillTool(() => [...s.definitions.skills(), ...s.definitions.commands()]))
    if (isMain && wanted.has(REQUEST_MERGE_TOOL_NAME)) tools.push(createRequestMergeTool(s.requestMergeHost(handle)))
    return s.extensions.tools(
      handle,
      tools.filter((t) => wanted.has(t.name)),
      wanted
    )
  }
}
