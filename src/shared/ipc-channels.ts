// The names of the IPC contract's calls and push channels, without zod, so the sandboxed preload can
// generate its API from them without bundling the schemas. The schemas live in ipc-contract.ts.
import { AGENT_EDITOR_CALLS } from './agent-editor-channels'
import { REVIEW_CALLS } from './review-channels'
import { SEARCH_REPLAY_CALLS } from './search-replay-channels'

/** The sessions', settings' and folder's calls, each mapped to the function that serves it (on RuntimeHost and `window.fanout`). */
export const CORE_CALLS = {
  'workspace.get': 'getWorkspace',
  'workspace.open': 'openWorkspace',
  /** Electron only: shows the native folder picker, then opens the chosen folder. */
  'workspace.pickFolder': 'pickFolder',
  'sessions.list': 'listSessions',
  'sessions.open': 'openSession',
  /** The older part of a session opened with sessions.open, a page at a time. */
  'sessions.page': 'openSessionPage',
  /** A name the person chose instead of the first prompt's line. */
  'sessions.rename': 'renameSession',
  'sessions.delete': 'deleteSession',
  'session.start': 'startSession',
  'session.sendPrompt': 'sendPrompt',
  /** Restarts the agents of a session that Fanout stopping (a crash, a kill) cut off. */
  'session.resumeInterrupted': 'resumeInterrupted',
  'agent.stop': 'stopAgent',
  'agent.sendMessage': 'sendMessage',
  /** Compacts an agent's conversation: now when it is idle, before its next request when it runs. */
  'agent.compact': 'compactAgent',
  'permission.respond': 'respondPermission',
  'settings.get': 'getSettings',
  'settings.update': 'updateSettings',
  'settings.setApiKey': 'setApiKey',
  /** GET /v1/models at a base URL with the stored key: whether the endpoint answers, in a sentence. */
  'settings.testConnection': 'testConnection',
  'agents.list': 'listAgents',
  'demo.start': 'startDemo',
  /** The MCP servers sessions in a folder use: state (connected, failed, disabled) and tools. */
  'mcp.list': 'listMcpServers',
  /** What a folder brings that would run or grant by itself, and whether the person approved each. */
  'trust.get': 'getFolderTrust',
  /** The person's answer about a folder: trust what it brings (as listed), or not. */
  'trust.answer': 'answerFolderTrust'
} as const

/**
 * Each call of the contract, mapped to the name of the function that serves it: the one table from a call to
 * its handler. The dispatcher (ipc-dispatch.ts) serves both transports from it, the preload and the renderer's
 * transports are generated from it, and RuntimeHost's methods are derived from it (host.ts).
 */
export const CALLS = {
  ...CORE_CALLS,
  ...AGENT_EDITOR_CALLS,
  ...REVIEW_CALLS,
  ...SEARCH_REPLAY_CALLS
} as const

export type CallName = keyof typeof CALLS
export type CallMethod = (typeof CALLS)[CallName]

export const CALL_NAMES = Object.keys(CALLS) as CallName[]

/** Calls the desktop shell serves itself instead of forwarding to the runtime host. */
export const SHELL_CALLS = ['workspace.pickFolder'] as const satisfies readonly CallName[]
export type ShellCallName = (typeof SHELL_CALLS)[number]
export type HostCallName = Exclude<CallName, ShellCallName>

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CALLS, name)
}

/** The Electron IPC channel of a call. Prefixed so no other ipcMain user can collide with it. */
export const channelOf = (name: CallName): string => `fanout:call:${name}`

/** Main → renderer pushes. `events` carries AgentEvent[] batches; `notice` carries one HostNotice. */
export const PUSH_CHANNELS = {
  events: 'fanout:push:events',
  notice: 'fanout:push:notice'
} as const

/** WebSocket subprotocol of browser mode; the per-launch token travels as a second subprotocol. */
export const WS_PROTOCOL = 'fanout.v1'
export const WS_TOKEN_PREFIX = 'fanout.token.'
export const WS_PATH = '/ws'
