// Permission requests of a session's agents. Each agent run gets a gate (permissions/) built for its
// effective mode and cwd, all derived from one root so deny rules and "allow always" answers hold for every
// agent. A call that needs approval becomes a `permission_request` event, answered through
// `respondPermission`; an agent in `bubble` mode raises its requests on its parent (up to the first agent
// that is not in bubble mode), which is where a person is watching. Headless sessions and background agents
// have nobody to ask: the gate denies with a reason that says how to allow the call.
import { randomBytes } from 'node:crypto'
import type { AgentEvent, PermissionRequestEvent } from '../../../../shared/events'
import type { CanUseTool, PermissionDecision } from '../../loop/types'
import {
  createPermissionGate,
  decidePermission,
  isReadOnlyAgent,
  type AskHookAnswer,
  type PermissionAnswer,
  type PermissionGate,
  type PermissionRequest,
  type PermissionRules,
  type SandboxState
} from '../../permissions'
import type { AgentHandle, AgentRegistry } from '../runs/agent-registry'
import { previousTextOf } from '../../permissions/previous-text'

export interface PermissionBrokerOptions {
  sessionId: string
  cwd: string
  home: string
  rules: PermissionRules
  additionalDirectories: string[]
  /** Directories whose files may always be read (the session's saved tool outputs). */
  readableDirectories?: string[]
  /** Nobody answers requests: asks become denials. */
  headless: boolean
  registry: AgentRegistry
  emit: (event: AgentEvent) => void
  /** Told about every denial (e.g. the CLI prints them). */
  onDenied?: (message: string, toolName: string, agentId: string, call: { input: unknown; toolUseId: string }) => void
  /** PermissionRequest hooks: asked where a call would be put to the person (or denied headless); their answer stands for the person's. */
  askHook?: (handle: AgentHandle, req: PermissionRequest) => Promise<AskHookAnswer | null>
  /** Whether Bash can be sandboxed (absent: it can). */
  sandbox?: () => Promise<SandboxState>
}

interface Waiting {
  event: PermissionRequestEvent
  handle: AgentHandle
  /** The mode the asking gate decided in, to re-check the call once "Always allow" adds rules; null when a hook asked (rules cannot answer it). */
  mode: PermissionRequest['mode'] | null
  settle: (answer: PermissionAnswer) => void
}

export class PermissionBroker {
  private root: PermissionGate
  private readonly waiting = new Map<string, Waiting>()

  constructor(private readonly opts: PermissionBrokerOptions) {
    // The root's mode is neutral: each agent's gate gets the agent's own effective mode (see effectiveMode).
    this.root = createPermissionGate({
      mode: 'default',
      rules: opts.rules,
      cwd: opts.cwd,
      headless: opts.headless,
      additionalDirectories: opts.additionalDirectories,
      readableDirectories: opts.readableDirectories,
      home: opts.home,
      ...(opts.sandbox ? { sandbox: opts.sandbox } : {})
    })
  }

  /** The rules in force, session rules included. */
  rules(): PermissionRules {
    return this.root.rules()
  }

  /** New rules (settings changed on disk) for gates built from now on; "allow always" answers given so far are dropped. */
  setRules(rules: PermissionRules, additionalDirectories: string[]): void {
    this.opts.rules = rules
    this.opts.additionalDirectories = additionalDirectories
    this.root = createPermissionGate({
      mode: 'default',
      rules,
      cwd: this.opts.cwd,
      headless: this.opts.headless,
      additionalDirectories,
      readableDirectories: this.opts.readableDirectories,
      home: this.opts.home,
      ...(this.opts.sandbox ? { sandbox: this.opts.sandbox } : {})
    })
  }

  /** The permission hook for one run of this agent (its mode and cwd as they are now). */
  canUseTool(handle: AgentHandle): CanUseTool {
    const gate = this.root.forSubagent({
      definitionMode: handle.permissionMode,
      cwd: handle.cwd,
      // An overwriting Write is approved seeing what it replaces.
      ask: async (req) => {
        const previousText = await previousTextOf(req.toolName, req.input, handle.cwd, this.opts.home)
        return this.ask(handle, previousText === undefined ? req : { ...req, previousText })
      },
      ...(this.opts.askHook ? { askHook: (req: PermissionRequest) => this.opts.askHook!(handle, req) } : {}),
      headless: this.opts.headless || handle.background === true,
      readOnlyAgent: isReadOnlyAgent(handle.definition),
      // Its own memory folder: a working directory (read without asking), and writable in every mode.
      ...(handle.memoryDir ? { extraRoots: [handle.memoryDir] } : {}),
      writableDirs: () => (handle.memoryDir ? [handle.memoryDir] : undefined),
      ...(handle.commandRules?.length ? { extraAllow: handle.commandRules } : {})
    })
    return async (tool, input, toolUseId) => {
      const decision = await gate.canUseTool(tool, input, toolUseId)
      if (decision.behavior === 'deny') this.opts.onDenied?.(decision.message, tool.name, handle.id, { input, toolUseId })
      return decision
    }
  }

  /** A deny rule covering this call, even in bypass mode (a PreToolUse hook's "allow" skips the prompt, never a deny rule). */
  ruleDenial(handle: AgentHandle, tool: { name: string; readOnly?: boolean }, input: unknown): string | null {
    const d = decidePermission({
      mode: 'bypassPermissions',
      tool,
      input,
      rules: this.root.rules(),
      cwd: handle.cwd,
      additionalDirectories: this.opts.additionalDirectories,
      home: this.opts.home
    })
    return d.behavior === 'deny' ? d.message : null
  }

  /** Puts one call to the person whatever the rules say (a PreToolUse hook answered "ask"); denied where nobody can answer. */
  async askAbout(handle: AgentHandle, toolName: string, input: unknown, toolUseId: string, reason: string): Promise<PermissionDecision> {
    const hooked = await this.opts.askHook?.(handle, { toolName, input, toolUseId, reason, suggestedRules: [], mode: handle.permissionMode, cwd: handle.cwd })
    if (hooked?.behavior === 'deny') return { behavior: 'deny', message: `A PermissionRequest hook denied this ${toolName} call: ${hooked.message}` }
    if (hooked) return { behavior: 'allow', ...(hooked.updatedInput ? { updatedInput: hooked.updatedInput } : {}) }
    if (this.opts.headless || handle.background === true)
      return { behavior: 'deny', message: `${toolName} was not run: a PreToolUse hook asked for approval (${reason}), and nobody can answer in this run.` }
    const answer = await this.ask(
      handle,
      { toolName, input, toolUseId, reason, suggestedRules: [], mode: handle.permissionMode, cwd: handle.cwd },
      { byHook: true }
    )
    return answer === 'deny'
      ? {
          behavior: 'deny',
          message: `The user denied permission to use ${toolName} for this call. Do not retry it as is; take another approach or ask the user how to proceed.`
        }
      : { behavior: 'allow' }
  }

  /**
   * Puts one call to the person whatever the mode and rules say (a tool that must never act on its own
   * authority, such as RequestMerge); `nobody` where no one can answer (headless, background agents).
   */
  async askConsent(handle: AgentHandle, toolName: string, input: unknown, toolUseId: string, reason: string): Promise<'allow' | 'deny' | 'nobody'> {
    if (this.opts.headless || handle.background === true) return 'nobody'
    // As a hook's question: no rule can answer it, and "Always allow" elsewhere never settles it.
    const answer = await this.ask(
      handle,
      { toolName, input, toolUseId, reason, suggestedRules: [], mode: handle.permissionMode, cwd: handle.cwd },
      { byHook: true }
    )
    return answer === 'deny' ? 'deny' : 'allow'
  }

  /** Requests waiting for an answer, oldest first. */
  pending(): PermissionRequestEvent[] {
    return [...this.waiting.values()].map((w) => w.event)
  }

  has(requestId: string): boolean {
    return this.waiting.has(requestId)
  }

  respond(requestId: string, decision: PermissionAnswer): void {
    const w = this.waiting.get(requestId)
    if (!w) throw new Error(`No permission request ${requestId} is waiting: it was answered already, or its agent stopped.`)
    if (decision === 'allow_always') {
      // The rules go in now (the asking gate adds them again, harmlessly), so the requests they cover,
      // waiting beside this one, are allowed at once instead of each asking again.
      for (const rule of w.event.suggestedRules ?? []) this.root.addSessionRule(rule)
      w.settle(decision)
      for (const other of [...this.waiting.values()]) if (this.coveredByRules(other)) other.settle('allow')
      return
    }
    w.settle(decision)
  }

  /** Whether the rules now in force allow a waiting call without asking. */
  private coveredByRules(w: Waiting): boolean {
    if (!w.mode) return false
    const tool = { name: w.event.toolName }
    const d = decidePermission({
      mode: w.mode,
      tool,
      input: w.event.input,
      rules: this.root.rules(),
      cwd: w.handle.cwd,
      additionalDirectories: this.opts.additionalDirectories,
      readableDirectories: this.opts.readableDirectories,
      home: this.opts.home
    })
    return d.behavior === 'allow'
  }

  private ask(handle: AgentHandle, req: PermissionRequest, opts: { byHook?: boolean } = {}): Promise<PermissionAnswer> {
    const signal = handle.abort.signal
    if (signal.aborted) return Promise.resolve('deny')
    const target = this.watcherOf(handle)
    const requestId = `perm-${randomBytes(8).toString('hex')}`
    const base = (h: AgentHandle) => ({
      agentId: h.id,
      parentAgentId: h.parentId,
      parentToolUseId: h.parentToolUseId,
      sessionId: this.opts.sessionId,
      ts: Date.now()
    })
    const event: PermissionRequestEvent = {
      ...base(target),
      type: 'permission_request',
      requestId,
      toolName: req.toolName,
      input: req.input,
      reason: req.reason,
      requestingAgentId: handle.id,
      toolUseId: req.toolUseId,
      suggestedRules: req.suggestedRules,
      ...(req.commandParts ? { commandParts: req.commandParts } : {}),
      ...(req.previousText !== undefined ? { previousText: req.previousText } : {})
    }
    return new Promise<PermissionAnswer>((resolve) => {
      const settle = (answer: PermissionAnswer, why?: string) => {
        if (!this.waiting.delete(requestId)) return
        signal.removeEventListener('abort', onAbort)
        this.opts.emit({ ...base(target), type: 'permission_response', requestId, decision: answer, ...(why ? { reason: why } : {}) })
        const stillWaiting = [...this.waiting.values()].some((w) => w.handle === handle)
        if (!stillWaiting && !signal.aborted) this.opts.emit({ ...base(handle), type: 'status', status: 'running' })
        resolve(answer)
      }
      const onAbort = () => settle('deny', 'the agent was stopped')
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiting.set(requestId, { event, handle, mode: opts.byHook ? null : req.mode, settle: (a) => settle(a) })
      this.opts.emit({ ...base(handle), type: 'status', status: 'waiting_permission', detail: req.reason })
      this.opts.emit(event)
    })
  }

  /** Who is shown the request: the agent itself, or for `bubble` the first ancestor not in bubble mode. */
  private watcherOf(handle: AgentHandle): AgentHandle {
    let h = handle
    while (h.permissionMode === 'bubble' && h.parentId) {
      const parent = this.opts.registry.get(h.parentId)
      if (!parent) break
      h = parent
    }
    return h
  }
}
