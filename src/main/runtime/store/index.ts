// The store's public surface: transcripts, session index, agent state, settings, credentials, mailbox.
// The folded view and its checkpoint (session-fold.ts, view-checkpoint.ts) are imported directly where
// needed; the recorder keeps a session's view folded as it writes (view-fold.ts).
export {
  resolveDataDir,
  ensureDataDir,
  checkDataDirWritable,
  DataDirError,
  assertSafeId,
  sessionsDir,
  sessionDir,
  sessionIndexPath,
  agentsDir,
  transcriptPath,
  agentStatePath,
  mailboxDir,
  settingsPath,
  credentialsPath
} from './data-dir'
export type { DataDirOptions } from './data-dir'
export { writeFileAtomic, writeJsonAtomic, readJsonFile, syncFile } from './atomic-file'
export { JsonlWriter, DEFAULT_FLUSH_DELAY_MS } from './jsonl-writer'
export type { JsonlWriterOptions } from './jsonl-writer'
export { readJsonlLines } from './jsonl-reader'
export type { JsonlLine } from './jsonl-reader'
export { TRANSCRIPT_VERSION, makeHeader, mergeDeltas } from './transcript/format'
export type { TranscriptHeader } from './transcript/format'
export { readTranscript } from './transcript/reader'
export type { Transcript, TranscriptIssue, TranscriptIssueKind } from './transcript/reader'
export { NewerTranscriptError } from './transcript/decode'
export type { RecordedEvent } from './transcript/migrations'
export {
  SESSION_INDEX_VERSION,
  SessionIndexBuilder,
  emptyIndex,
  finalizeIndex,
  subtreeUsage,
  isTerminalStatus,
  titleFromPrompt,
  parseSessionIndex
} from './session-index'
export type { SessionIndex, SessionStatus, AgentRecord } from './session-index'
export { readSessionIndex, writeSessionIndex, effectiveStatus } from './session-index-file'
export { createSessionRecorder } from './session-recorder'
export type { SessionRecorder, SessionRecorderOptions } from './session-recorder'
export { openSession, SessionNotFoundError } from './open-session'
export type { OpenedSession } from './open-session'
export { listSessions, readSessionSummary, sessionAsksYou } from './list-sessions'
export type { SessionList, SessionSummary, SessionListProblem } from './list-sessions'
export { writeAgentState, readAgentState, listAgentStates, AGENT_STATE_VERSION } from './agent-state'
export type { AgentState, AgentStateInput, AgentStateList } from './agent-state'
export { rebuildConversation, repairConversation, repairedHistory, appendUserText, INTERRUPTED_TOOL_RESULT } from './rebuild-conversation'
export type { RebuildOptions } from './rebuild-conversation'
export { loadSettings, updateSettings, parseSettings, DEFAULT_SETTINGS, THEMES } from './settings'
export type { Settings, SettingsPatch, LoadedSettings } from './settings'
export { saveApiKey, loadApiKey, deleteApiKey, maskApiKey, CredentialsError } from './credentials'
export type { SecretCodec } from './credentials'
export { postMessage, claimMessages, peekMessages } from './mailbox'
export type { MailboxMessage, MailboxOptions } from './mailbox'
export { loadAgentForResume, agentsToResume } from './resume'
export type { AgentResumeData } from './resume'
