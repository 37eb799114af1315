// The permission layer: modes, Claude Code settings rules, decisions, and the gate the agent loop calls.
export {
  approvedSandbox,
  decidePermission,
  ruleAppliesToTool,
  suggestRules,
  type PermissionCheck,
  type PermissionDecision,
  type SandboxLevel,
  type SandboxState
} from './decide'
export {
  createPermissionGate,
  type AskFn,
  type AskHook,
  type AskHookAnswer,
  type GateDecision,
  type PermissionAnswer,
  type PermissionGate,
  type PermissionGateOptions,
  type PermissionRequest
} from './gate'
export { headlessPermissions, type AgentCanUseTool, type AgentPermissionTarget, type HeadlessPermissionsOptions } from './headless'
export { effectiveMode } from './mode'
export {
  emptyRules,
  formatRule,
  mergeRules,
  parseRule,
  rulesFrom,
  RULE_BEHAVIORS,
  type PermissionRule,
  type PermissionRules,
  type RuleBehavior,
  type RuleSource
} from './rules'
export { loadPermissionSettings, MANAGED_SETTINGS_FILE, type LoadPermissionSettingsOptions, type PermissionSettings } from './settings'
export { matchBashPattern, parseBashCommand, type ParsedCommand } from './bash-command'
export { bashReadOnlyVerdict, isReadOnlyBashCommand, type ReadOnlyVerdict } from './bash-read-only'
export { isReadOnlyAgent } from './read-only-agent'
