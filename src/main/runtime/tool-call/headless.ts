// Permissions for a headless run (`fanout run`): rules from the Claude Code settings files of the run's
// directory, no one to ask, so whatever would need approval is denied with a reason that says how to allow it.
import type { Diagnostic, PermissionMode } from '../../../shared/agent-definition'
import { mergeRules, type PermissionRules } from '../permissions/rules'
import { loadPermissionSettings } from '../permissions/settings'
import { createPermissionGate } from './gate'
import type { BeforeToolCall } from './verdict'

export interface HeadlessPermissionsOptions {
  cwd: string
  /** The run's mode; each agent's own (effective) mode comes from its handle. */
  mode?: PermissionMode
  home?: string
  /** Extra rules, e.g. from command-line flags. */
  rules?: PermissionRules
  onDenied?: (message: string) => void
  /** Problems in the settings files; absent: reported through onDenied. */
  onDiagnostic?: (d: Diagnostic) => void
  /** Managed settings file; null to skip (tests). */
  managedFile?: string | null
}

export interface AgentPermissionTarget {
  id: string
  cwd: string
  permissionMode: PermissionMode
}

/** Returns a factory: one permission hook per agent (by its handle), all sharing the loaded rules. */
export async function headlessPermissions(opts: HeadlessPermissionsOptions): Promise<(agent: AgentPermissionTarget) => BeforeToolCall> {
  const settings = loadPermissionSettings({ cwd: opts.cwd, home: opts.home, managedFile: opts.managedFile })
  for (const d of settings.diagnostics) {
    if (opts.onDiagnostic) opts.onDiagnostic(d)
    else opts.onDenied?.(`settings: ${d.file}:${d.line}:${d.column}: ${d.message}`)
  }
  const rules = opts.rules ? mergeRules(settings.rules, opts.rules) : settings.rules
  const fallbackMode = opts.mode ?? settings.defaultMode ?? 'default'
  const gates = new Map<string, BeforeToolCall>()
  return (agent) => {
    let hook = gates.get(agent.id)
    if (!hook) {
      // The handle carries the agent's effective mode already (the parent's or its definition's, see effectiveMode).
      const gate = createPermissionGate({
        mode: agent.permissionMode ?? fallbackMode,
        rules,
        cwd: agent.cwd,
        headless: true,
        additionalDirectories: settings.additionalDirectories,
        home: opts.home,
        onDenied: (message) => opts.onDenied?.(message)
      })
      hook = (tool, input, toolUseId) => gate.canUseTool(tool, input, toolUseId)
      gates.set(agent.id, hook)
    }
    return hook
  }
}
