// The permission layer: modes, Claude Code settings rules and the decision they make for a call (steps 3 and 4 of
// the tool-call pipeline; the gate that asks the person is tool-call/gate.ts).
export {
  approvedSandbox,
  decidePermission,
  ruleAppliesToTool,
  suggestRules,
  type PermissionCheck,
  type RulesVerdict,
  type SandboxLevel,
  type SandboxState
} from './decide'
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
