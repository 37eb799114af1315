// What a call does, in the words of the person who asked for it: for errors such as "Could not send
// your message: not connected to Fanout." rather than the contract's names.
import type { CallName } from '../../../shared/ipc-contract'
import type { ConnectionState } from './types'

const WORDS: Partial<Record<CallName, string>> = {
  'workspace.get': 'load the folder',
  'workspace.open': 'open the folder',
  'workspace.pickFolder': 'open the folder',
  'sessions.list': 'list the sessions',
  'sessions.open': 'open the session',
  'sessions.page': 'load the earlier part of the session',
  'session.start': 'start the session',
  'session.sendPrompt': 'send your message',
  'session.resumeInterrupted': 'resume the agents',
  'agent.stop': 'stop the agent',
  'agent.retry': 'retry the agent',
  'agent.sendMessage': 'send your message',
  'permission.respond': 'answer the permission request',
  'settings.get': 'load the settings',
  'settings.update': 'save the settings',
  'settings.setApiKey': 'save the API key',
  'agents.list': 'list the agents',
  'demo.start': 'start the demo',
  'mcp.list': 'list the MCP servers',
  'trust.get': 'check what this folder runs',
  'trust.answer': 'save your answer about this folder'
}

/** "send your message", "stop the agent"; "do that" for a call without words of its own. */
export function callWords(name: CallName): string {
  return WORDS[name] ?? 'do that'
}

/** Why a call cannot be made now, in the person's words: "Could not start the session: not connected to Fanout. …" */
export function notConnectedText(name: CallName, state: ConnectionState): string {
  const what = `Could not ${callWords(name)}: not connected to Fanout.`
  if (state === 'connecting' || state === 'closed') return `${what} It is reconnecting; try again in a moment.`
  return what
}
