// The runtime host: what the UI adapters (Electron IPC, browser-mode WebSocket) drive. One method per
// contract call (named in CALLS), each receiving the already-validated request, plus push subscriptions.
// Types only: the runtime implements it (src/main/runtime/host), adapters consume it.
import type { AgentEditorHost } from './agent-editor-host'
import type { ReviewHost } from './review-host'
import type { AgentEvent } from './events'
import type { CallResponse, HostCallName, HostNotice, ParsedRequest } from './ipc-contract'

type Call<K extends HostCallName> = (request: ParsedRequest<K>) => Promise<CallResponse<K>>

/**
 * The agent editor's and the review calls are optional: a host without them (a benchmark's synthetic host)
 * answers them `unsupported`. LocalRuntimeHost implements AgentEditorHost and ReviewHost in full.
 */
export interface RuntimeHost extends Partial<AgentEditorHost>, Partial<ReviewHost> {
  /** The folder agents work in. */
  getWorkspace: Call<'workspace.get'>
  /** Switches the workspace to another folder; rejects with `not_found` when it is not a directory. */
  openWorkspace: Call<'workspace.open'>
  /** Sessions of a folder (the current workspace when `cwd` is absent), newest first. */
  listSessions: Call<'sessions.list'>
  /**
   * A past or running session: its summary and its state folded from every event so far, the newest
   * part first (see view/session-pages.ts); `more` fetches the rest with openSessionPage.
   */
  openSession: Call<'sessions.open'>
  openSessionPage: Call<'sessions.page'>
  /** Names a session (its title in the list and header). */
  renameSession: Call<'sessions.rename'>
  /** Moves a stopped session's folder to the trash (or deletes it); `conflict` while any of its agents runs. */
  deleteSession: Call<'sessions.delete'>
  /** Starts a new session with a main agent; resolves once it has an id (the run continues in the background). */
  startSession: Call<'session.start'>
  /** A follow-up prompt to the main agent of an existing session. */
  sendPrompt: Call<'session.sendPrompt'>
  /** Restarts the agents a crash cut off (never ones the person stopped); `not_found` when none waits. */
  resumeInterrupted: Call<'session.resumeInterrupted'>
  /** Stops one agent (and its children). */
  stopAgent: Call<'agent.stop'>
  /** SendMessage from the person to an agent, by id or name. */
  sendMessage: Call<'agent.sendMessage'>
  /** The Compact action and `/compact`: summarises an agent's conversation so far; rejects with the reason when that fails. */
  compactAgent: Call<'agent.compact'>
  respondPermission: Call<'permission.respond'>
  /** Settings with `hasApiKey` only: the key itself is never returned. */
  getSettings: Call<'settings.get'>
  updateSettings: Call<'settings.update'>
  /** Stores the key (encrypted where the platform allows); write-only. */
  setApiKey: Call<'settings.setApiKey'>
  /** Lists models at a base URL (the saved one when absent) with the stored key; never throws for an endpoint that fails. */
  testConnection: Call<'settings.testConnection'>
  listAgents: Call<'agents.list'>
  /** Starts the scripted demo fan-out over `cwd` with real tools and the scripted model server. */
  startDemo: Call<'demo.start'>
  /** MCP servers of a folder with their state and tools (a running session's, else started briefly to list them). Optional: a synthetic host answers `unsupported`. */
  listMcpServers?: Call<'mcp.list'>
  /** What a folder brings that would run or grant by itself, with the person's answers. Optional: a synthetic host answers `unsupported`. */
  getFolderTrust?: Call<'trust.get'>
  /** Records the person's answer for the list they saw (`conflict` when it changed since). */
  answerFolderTrust?: Call<'trust.answer'>
  /** Full-text search in a session or across a folder's sessions (src/main/runtime/search). Optional: a synthetic host answers `unsupported`. */
  searchSessions?: Call<'search.query'>
  /** A finished or reopened session's recorded timeline, and the session as it was at any moment of it. */
  openReplay?: Call<'replay.open'>
  replayFrame?: Call<'replay.frame'>
  replaySteps?: Call<'replay.steps'>

  /** Subscribes to runtime events of every session. Returns the unsubscribe function. */
  onEvents(listener: (events: AgentEvent[]) => void): () => void
  onNotice(listener: (notice: HostNotice) => void): () => void
  /** Stops running agents and releases files; the adapters call it on quit. */
  close(): Promise<void>
}

/**
 * Errors a host throws may carry one of the contract's error codes (`not_found`, `conflict`, ...); the
 * dispatcher passes the code and message on. Anything else becomes `internal` with its message.
 */
export interface HostErrorLike {
  code?: string
  message: string
}
