// Who answers a session's permission questions: a PermissionBroker built from the Claude Code settings files
// (re-read on reload) and the session's own rules, or the `permissions` hook the session was given instead.
// Either way the extensions' PreToolUse hooks decide first.
import type { PermissionRequestEvent } from '../../../../shared/events'
import type { CanUseTool } from '../../loop/types'
import { emptyRules, loadPermissionSettings, mergeRules, type PermissionAnswer, type PermissionRules, type PermissionSettings } from '../../permissions'
import type { PermissionPreapproval } from '../../permissions/settings'
import { PathPolicy } from '../../security/path-policy'
import type { AgentHandle } from '../runs/agent-registry'
import type { SessionExtensions } from './extensions'
import { PermissionBroker } from './permission-broker'
import type { AgentSessionOptions } from './session-options'
import type { SessionSandbox } from './session-sandbox'
import type { SessionContext } from '../types'

export type PermissionsHost = Pick<SessionContext, 'sessionId' | 'cwd' | 'home' | 'registry' | 'emit' | 'toolOutputDir'> & {
  readonly extensions: SessionExtensions
  readonly sandbox: SessionSandbox
}

export class SessionPermissions {
  /** The permission settings in force (rules, defaultMode, and problems found in the files). */
  settings: PermissionSettings | null = null
  private broker: PermissionBroker | null = null

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
    if (this.broker) this.broker.setRules(rules, settings.additionalDirectories)
    else
      this.broker = new PermissionBroker({
        sessionId: s.sessionId,
        cwd: s.cwd,
        home: s.home,
        rules,
        additionalDirectories: settings.additionalDirectories,
        // The session saves large tool outputs there and tells the agent to read them.
        readableDirectories: [s.toolOutputDir],
        headless: options.headless === true,
        sandbox: s.sandbox.state,
        registry: s.registry,
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
    if (this.broker) return this.broker.rules()
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

  canUseTool(handle: AgentHandle): CanUseTool | undefined {
    if (this.options.permissions) return this.s.extensions.canUseTool(handle, this.options.permissions(handle), null)
    return this.s.extensions.canUseTool(handle, this.broker?.canUseTool(handle), this.broker)
  }

  /** Asks the person about one call whatever the rules say (see PermissionBroker.askConsent); `nobody` without a broker. */
  askConsent(handle: AgentHandle, toolName: string, input: unknown, toolUseId: string, reason: string): Promise<'allow' | 'deny' | 'nobody'> {
    return this.broker ? this.broker.askConsent(handle, toolName, input, toolUseId, reason) : Promise.resolve('nobody')
  }

  /** Answers a `permission_request` event. Throws when no such request is waiting. */
  respond(requestId: string, decision: PermissionAnswer): void {
    if (!this.broker) throw new Error(`No permission request ${requestId} is waiting: this session's permissions are decided by its own hook.`)
    this.broker.respond(requestId, decision)
  }

  /** Permission requests waiting for an answer. */
  pending(): PermissionRequestEvent[] {
    return this.broker?.pending() ?? []
  }
}
