// Who answers a session's permission questions: the tool-call pipeline's gates and the person's queue
// (tool-call/person-queue.ts), built from the Claude Code settings files (re-read on reload) and the session's own
// rules, or the `permissions` hook the session was given instead. Either way PreToolUse hooks decide first: this
// is where an agent's steps 2-6 (tool-call/pre-hooks.ts) are put together, once per run.
import type { PermissionRequestEvent } from '../../../../shared/events'
import type { PermissionChoice } from '../../../../shared/permission-answer'
import { emptyRules, loadPermissionSettings, mergeRules, type PermissionRules, type PermissionSettings } from '../../permissions'
import type { PermissionPreapproval } from '../../permissions/settings'
import { PathPolicy } from '../../security/path-policy'
import { beforeToolCall, PersonQueue, type BeforeToolCall } from '../../tool-call'
import type { AgentHandle } from '../runs/agent-registry'
import type { SessionExtensions } from './extensions'
import type { AgentSessionOptions } from './session-options'
import type { SessionSandbox } from './session-sandbox'
import type { SessionContext } from '../types'
import type { ConsentAnswer } from '../tools/request-merge-tool'

export type PermissionsHost = Pick<SessionContext, 'sessionId' | 'cwd' | 'home' | 'registry' | 'emit' | 'toolOutputDir'> & {
  readonly extensions: SessionExtensions
  readonly sandbox: SessionSandbox
}

export class SessionPermissions {
  /** The permission settings in force (rules, defaultMode, and problems found in the files). */
  settings: PermissionSettings | null = null
  private queue: PersonQueue<AgentHandle> | null = null

  constructor(
    private readonly s: PermissionsHost,
    private readonly options: AgentSessionOptions
  ) {}

  /** Re-reads the settings files and applies their rules to gates built from now on; null when the session's own hook decides. */
  reload(withhold?: (grant: PermissionPreapproval) => boolean): PermissionSettings | null {
    const { options, s } = this
    // Read even when the session's own hook decides: deny rules bind the tools themselves (the path check).
    // The folder's own grants wait for the person's approval of the folder (trust/).
    const settings = loadPermissionSettings({
      cwd: s.cwd,
      home: s.home,
      ...(options.managedSettingsFile !== undefined ? { managedFile: options.managedSettingsFile } : {}),
      ...(withhold ? { withhold } : {})
    })
    if (options.additionalDirectories?.length)
      settings.additionalDirectories = [...new Set([...settings.additionalDirectories, ...options.additionalDirectories])]
    this.settings = settings
    if (options.permissions) return null
    const rules = options.permissionRules ? mergeRules(settings.rules, options.permissionRules) : settings.rules
    if (this.queue) this.queue.setRules(rules, settings.additionalDirectories)
    else
      this.queue = new PersonQueue<AgentHandle>({
        sessionId: s.sessionId,
        cwd: s.cwd,
        home: s.home,
        rules,
        additionalDirectories: settings.additionalDirectories,
        // The session saves large tool outputs there and tells the agent to read them.
        readableDirectories: [s.toolOutputDir],
        headless: options.headless === true,
        sandbox: s.sandbox.state,
        agent: (id) => s.registry.get(id),
        emit: s.emit,
        askHook: (handle, req) =>
          s.extensions.hooks.has('PermissionRequest', handle)
            ? s.extensions.hooks.permissionRequest(handle, req.toolName, req.input, req.suggestedRules)
            : Promise.resolve(null),
        ...(options.onPermissionDenied ? { onDenied: options.onPermissionDenied } : {})
      })
    return settings
  }

  /** The rules in force: the settings files', the session's own, and "allow always" answers. */
  rules(): PermissionRules {
    if (this.queue) return this.queue.rules()
    const base = this.settings?.rules ?? emptyRules()
    return this.options.permissionRules ? mergeRules(base, this.options.permissionRules) : base
  }

  /** The one path check for an agent: its cwd, the additional directories, the deny rules in force. */
  pathPolicy(handle: AgentHandle): PathPolicy {
    return this.pathPolicyIn(handle.cwd)
  }

  /** The same check for a folder before any agent runs in it (the files a prompt mentions). */
  pathPolicyIn(cwd: string): PathPolicy {
    return new PathPolicy({ cwd, roots: () => this.settings?.additionalDirectories ?? [], rules: () => this.rules(), home: this.s.home })
  }

  /** Steps 2-6 of the tool-call pipeline for one run of this agent: its PreToolUse hooks, then its gate (or the session's own hook). */
  beforeToolCall(handle: AgentHandle): BeforeToolCall | undefined {
    const own = this.options.permissions?.(handle)
    const decide = this.options.permissions ? (own ? { own } : null) : this.queue ? { gate: this.queue.gateFor(handle) } : null
    return beforeToolCall(this.s.extensions.hooks, handle, decide)
  }

  /**
   * Puts one call to the person whatever the mode and rules say (a tool that must never act on its own authority,
   * such as RequestMerge, or a fan-out above its cost); `nobody` where no one can answer (headless, background).
   */
  async askConsent(handle: AgentHandle, toolName: string, input: unknown, toolUseId: string, reason: string): Promise<ConsentAnswer> {
    if (!this.queue || this.options.headless === true || handle.background === true) return { decision: 'nobody' }
    // As a hook's question: no rule can answer it, and "Always allow" elsewhere never settles it.
    const answer = await this.queue.put(handle, {
      toolName,
      input,
      toolUseId,
      reason,
      suggestedRules: [],
      mode: handle.permissionMode,
      cwd: handle.cwd,
      byHook: true
    })
    return { decision: answer.decision === 'deny' ? 'deny' : 'allow', ...(answer.feedback ? { feedback: answer.feedback } : {}) }
  }

  /** Answers a `permission_request` event with the person's choice and words. Throws when no such request is waiting. */
  respond(requestId: string, decision: PermissionChoice, feedback?: string): void {
    if (!this.queue) throw new Error(`No permission request ${requestId} is waiting: this session's permissions are decided by its own hook.`)
    this.queue.respond(requestId, feedback ? { decision, feedback } : { decision })
  }

  /** Permission requests waiting for an answer. */
  pending(): PermissionRequestEvent[] {
    return this.queue?.pending() ?? []
  }
}
