// The agent definition editor's runtime side: library, analysis, safe edits and saves, repair, file
// operations, hot reload and "Try it". The host's `agents.*` calls delegate to AgentEditorService.
export { AgentEditorService, type AgentEditorOptions } from './editor-service'
export { analyzeAgentText, type AnalyzeOptions } from './analyze'
export { applyFieldChanges, type EditOutcome } from './edit-fields'
export { repairAgentText, type Repair } from './repair'
export { readVersioned, saveChecked, writeAtomic, AgentFileError } from './file-store'
export { buildLibrary } from './library'
export { AgentFolderWatcher, type WatchedFolder } from './folder-watcher'
export { planTryRun, finishTryRun, type TryPlan } from './try-agent'
export { agentTemplates, templateText } from './templates'
