// Step 5's person: a session's one queue of requests put to the person, and the gates that put them. Every agent's
// gate (gate.ts) comes from one root, so deny rules and "allow always" answers hold for every agent. A request
// is a `permission_request` event, answered through `respond` with the person's answer (shared/permission-answer:
// allow / allow always / deny, and words for the agent); an agent in `bubble` mode raises its requests on its
// parent (up to the first agent not in bubble mode), which is where a person is watching. Headless sessions and
// background agents have nobody to ask: their gates deny with a reason that says how to allow the call.
import { randomHex } from '../random-hex'
import type { AgentDefinition, PermissionMode } from '../../../shared/agent-definition'
import type { AgentEvent, PermissionRequestEvent } from '../../../shared/events'
import type { PermissionAnswer } from '../../../shared/permission-answer'
import { decidePermission, type SandboxState } from '../permissions/decide'
import { previousTextOf } from '../permissions/previous-text'
import { isReadOnlyAgent } from '../permissions/read-only-agent'
import type { PermissionRule, PermissionRules } from '../permissions/rules'
import { createPermissionGate, type AskHookAnswer, type PermissionGate, type PermissionRequest } from './gate'

/** What the queue reads of an agent (orchestration's AgentHandle is one). */
export interface AskingAgent {
  id: string
  parentId: string | null
  parentToolUseId: string | null
  cwd: string
  permissionMode: PermissionMode
  definition: AgentDefinition | null
  abort: AbortController
  background?: boolean
  memoryDir?: string
  commandRules?: PermissionRule[]
}

export interface PersonQueueOptions<A extends AskingAgent = AskingAgent> {
  sessionId: string
  cwd: string
  home: string
  rules: PermissionRules
  additionalDirectories: string[]
  /** Directories whose files may always be read (the session's saved tool outputs). */
  readableDirectories?: string[]
  /** Nobody answers requests: asks become denials. */
  headless: boolean
  /** The agents, for `bubble` mode's watcher. */
  agent: (id: string) => A | undefined
  emit: (event: AgentEvent) => void
  /** Told about every denial of the rules, the mode or the person (e.g. the CLI prints them). */
  onDenied?: (message: string, toolName: string, agentId: string, call: { input: unknown; toolUseId: string }) => void
  /** PermissionRequest hooks: asked where a call would be put to the person (or denied headless); their answer stands for the person's. */
  askHook?: (agent: A, req: PermissionRequest) => Promise<AskHookAnswer | null>
  /** Whether Bash can be sandboxed (absent: it can). */
  sandbox?: () => Promise<SandboxState>
}

interface Waiting {
  event: PermissionRequestEvent
  agent: AskingAgent
  /** The mode the asking gate decided in, to re-check the call once "Always allow" adds rules; null when a hook asked (rules cannot answer it). */
  mode: PermissionRequest['mode'] | null
  settle: (answer: PermissionAnswer, why?: string) => void
}

const DENIED_BY_STOP: PermissionAnswer = { decision: 'deny' }

export class PersonQueue<A extends AskingAgent = AskingAgent> {
  private root: PermissionGate
  private readonly waiting = new Map<string, Waiting>()

  constructor(private readonly opts: PersonQueueOptions<A>) {
    this.root = this.rootGate()
  }

  // The root's mode is neutral: each agent's gate gets the agent's own effective mode (see effectiveMode).
  private rootGate(): PermissionGate {
    const { opts } = this
    return createPermissionGate({
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
    this.root = this.rootGate()
  }

  /** The gate for one run of this agent (its mode and cwd as they are now). */
  gateFor(agent: A): PermissionGate {
    const { opts } = this
    return this.root.forSubagent({
      definitionMode: agent.permissionMode,
      cwd: agent.cwd,
      // An overwriting Write is approved seeing what it replaces.
      ask: async (req) => {
        const previousText = await previousTextOf(req.toolName, req.input, agent.cwd, opts.home)
        return this.put(agent, previousText === undefined ? req : { ...req, previousText })
      },
      ...(opts.askHook ? { askHook: (req: PermissionRequest) => opts.askHook!(agent, req) } : {}),
      ...(opts.onDenied
        ? { onDenied: (message: string, toolName: string, call: { input: unknown; toolUseId: string }) => opts.onDenied!(message, toolName, agent.id, call) }
        : {}),
      headless: opts.headless || agent.background === true,
      readOnlyAgent: isReadOnlyAgent(agent.definition),
      // Its own memory folder: a working directory (read without asking), and writable in every mode.
      ...(agent.memoryDir ? { extraRoots: [agent.memoryDir] } : {}),
      writableDirs: () => (agent.memoryDir ? [agent.memoryDir] : undefined),
      ...(agent.commandRules?.length ? { extraAllow: agent.commandRules } : {})
    })
  }

  /** Requests waiting for an answer, oldest first. */
  pending(): PermissionRequestEvent[] {
    return [...this.waiting.values()].map((w) => w.event)
  }

  /** Answers a waiting request. Throws when it is not waiting (answered already, or its agent stopped). */
  respond(requestId: string, answer: PermissionAnswer): void {
    const w = this.waiting.get(requestId)
    if (!w) throw new Error(`No permission request ${requestId} is waiting: it was answered already, or its agent stopped.`)
    if (answer.decision === 'allow_always') {
      // The rules go in now (the asking gate adds them again, harmlessly), so the requests they cover,
      // waiting beside this one, are allowed at once instead of each asking again.
      for (const rule of w.event.suggestedRules ?? []) this.root.addSessionRule(rule)
      w.settle(answer)
      for (const other of [...this.waiting.values()]) if (this.coveredByRules(other)) other.settle({ decision: 'allow' })
      return
    }
    w.settle(answer)
  }

  /** Whether the rules now in force allow a waiting call without asking. */
  private coveredByRules(w: Waiting): boolean {
    if (!w.mode) return false
    const d = decidePermission({
      mode: w.mode,
      tool: { name: w.event.toolName },
      input: w.event.input,
      rules: this.root.rules(),
      cwd: w.agent.cwd,
      additionalDirectories: this.opts.additionalDirectories,
      readableDirectories: this.opts.readableDirectories,
      home: this.opts.home
    })
    return d.behavior === 'allow'
  }

  /** Puts one request to the person (or the watcher a `bubble` agent raises it on); a stopped agent's is denied. */
  put(agent: AskingAgent, req: PermissionRequest): Promise<PermissionAnswer> {
    const signal = agent.abort.signal
    if (signal.aborted) return Promise.resolve(DENIED_BY_STOP)
    const target = this.watcherOf(agent)
    const requestId = `perm-${randomHex(8)}`
    const base = (a: AskingAgent) => ({
      agentId: a.id,
      parentAgentId: a.parentId,
      parentToolUseId: a.parentToolUseId,
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
      requestingAgentId: agent.id,
      toolUseId: req.toolUseId,
      suggestedRules: req.suggestedRules,
      ...(req.commandParts ? { commandParts: req.commandParts } : {}),
      ...(req.previousText !== undefined ? { previousText: req.previousText } : {})
    }
    return new Promise<PermissionAnswer>((resolve) => {
      const settle = (answer: PermissionAnswer, why?: string) => {
        if (!this.waiting.delete(requestId)) return
        signal.removeEventListener('abort', onAbort)
        const feedback = answer.feedback?.trim()
        // Recorded with the person's words, so a reopened or replayed session shows what they said.
        this.opts.emit({
          ...base(target),
          type: 'permission_response',
          requestId,
          decision: answer.decision,
          ...(why ? { reason: why } : {}),
          ...(feedback ? { feedback } : {})
        })
        const stillWaiting = [...this.waiting.values()].some((w) => w.agent === agent)
        if (!stillWaiting && !signal.aborted) this.opts.emit({ ...base(agent), type: 'status', status: 'running' })
        resolve(feedback ? { decision: answer.decision, feedback } : { decision: answer.decision })
      }
      const onAbort = () => settle(DENIED_BY_STOP, 'the agent was stopped')
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiting.set(requestId, { event, agent, mode: req.byHook ? null : req.mode, settle })
      this.opts.emit({ ...base(agent), type: 'status', status: 'waiting_permission', detail: req.reason })
      this.opts.emit(event)
    })
  }

  /** Who is shown the request: the agent itself, or for `bubble` the first ancestor not in bubble mode. */
  private watcherOf(agent: AskingAgent): AskingAgent {
    let a = agent
    while (a.permissionMode === 'bubble' && a.parentId) {
      const parent = this.opts.agent(a.parentId)
      if (!parent) break
      a = parent
    }
    return a
  }
}
