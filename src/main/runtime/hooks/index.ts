// Hooks configured like Claude Code's: PreToolUse, PostToolUse, SubagentStart and SubagentStop commands.
export { DEFAULT_HOOK_TIMEOUT_SEC, emptyHookTable, HOOK_EVENTS, hooksFromSettings, matcherMatches, mergeHookTables, parseHooks, type HookCommand, type HookEvent, type HookMatcher, type HookTable } from './config'
export { runHookCommand, type HookRun, type RunHookOptions } from './run-command'
export { HookRunner, type HookAgent, type HookRunnerOptions, type PreToolUseOutcome } from './runner'
export { readSettingsFiles, type SettingsFile, type SettingsSource } from './settings-files'
export { hookedCanUseTool, hookedTools, MAX_STOP_BLOCKS, subagentHookRun, type HookGate, type SubagentHookRun } from './wiring'
