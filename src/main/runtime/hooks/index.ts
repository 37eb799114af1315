// Hooks configured like Claude Code's: command hooks on the events of HOOK_EVENTS (config.ts).
export {
  DEFAULT_HOOK_TIMEOUT_SEC,
  emptyHookTable,
  HOOK_EVENTS,
  IGNORED_HOOK_EVENTS,
  TOOL_NAME_ALIASES,
  hooksFromSettings,
  matcherMatches,
  mergeHookTables,
  parseHooks,
  type HookCommand,
  type HookEvent,
  type HookMatcher,
  type HookTable
} from './config'
export { runHookCommand, type HookRun, type RunHookOptions } from './run-command'
export { HookRunner, type BackgroundTask, type HookAgent, type HookRunnerOptions, type PermissionHookAnswer, type PreToolUseOutcome } from './runner'
export { readSettingsFiles, type SettingsFile, type SettingsSource } from './settings-files'
export { mainStopHook, MAX_STOP_BLOCKS, subagentHookRun, type SubagentHookRun, type TeammateInfo } from './wiring'
