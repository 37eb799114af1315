// What the person asks of the host: start a session or the demo, prompt, stop, message, compact, answer a
// request, rename, delete, change settings, open a folder. Each throws CallError, so a view shows a
// failure next to the control that caused it; what changes comes back pushed (a session's row, its events).
import type { CallName, CallRequest, SettingsPatch } from '../../../shared/ipc-contract'
import type { PermissionChoice } from '../../../shared/permission-answer'
import { notConnectedText } from '../transport/call-words'
import { CallError } from '../transport/types'
import { call, get, set } from './app-state'
import { NOT_ANSWERED, trustAnswered } from './folder-trust'
import { adoptWorkspace, forgetSession } from './session-loading'

/**
 * The open folder, asked of the host when the page has not heard it yet (a start pressed the moment the page
 * connected): the answer, or the transport's own error ("not connected to Fanout") when it cannot answer.
 */
async function workspaceCwd(purpose: CallName): Promise<string> {
  const known = get().workspace?.cwd
  if (known) return known
  const { connection } = get()
  if (connection !== 'open') throw new CallError('disconnected', notConnectedText(purpose, connection))
  const { workspace } = await call('workspace.get', {})
  return workspace.cwd
}

// The new session's row comes pushed (session_updated) as the host adopts it: no list to ask for.
export async function startSession(request: Omit<CallRequest<'session.start'>, 'cwd'>): Promise<void> {
  const cwd = await workspaceCwd('session.start')
  if (!(await trustAnswered())) throw new Error(NOT_ANSWERED)
  const { sessionId } = await call('session.start', { ...request, cwd })
  markLive(sessionId)
}

export async function startDemo(): Promise<void> {
  const cwd = await workspaceCwd('demo.start')
  if (!(await trustAnswered())) throw new Error(NOT_ANSWERED)
  const { sessionId } = await call('demo.start', { cwd })
  markLive(sessionId)
  set({ firstRunDismissed: true })
}

/** A session started from this window: every one of its events arrives live, no replay needed. */
function markLive(sessionId: string): void {
  set((s) => ({ loaded: { ...s.loaded, [sessionId]: true }, currentSessionId: sessionId, maximizedAgentId: null, focusedAgentId: null, rightPane: 'panels' }))
}

export const sendPrompt = (sessionId: string, prompt: string) => call('session.sendPrompt', { sessionId, prompt })
export const stopAgent = (sessionId: string, agentId: string) => call('agent.stop', { sessionId, agentId })
export const retryAgent = (sessionId: string, agentId: string) => call('agent.retry', { sessionId, agentId })
export const resumeInterrupted = (sessionId: string) => call('session.resumeInterrupted', { sessionId })
export const sendMessage = (sessionId: string, to: string, message: string) => call('agent.sendMessage', { sessionId, to, message })
export const compactAgent = (sessionId: string, agentId: string, instructions?: string) =>
  call('agent.compact', { sessionId, agentId, ...(instructions ? { instructions } : {}) })
/** The person's answer to a permission request, with words for the agent (its tool result says them). */
export const respondPermission = (requestId: string, decision: PermissionChoice, feedback?: string) =>
  call('permission.respond', { requestId, decision, ...(feedback?.trim() ? { feedback: feedback.trim() } : {}) })

export async function renameSession(sessionId: string, title: string): Promise<void> {
  const { session } = await call('sessions.rename', { sessionId, title })
  set((s) => ({ sessions: s.sessions.map((x) => (x.sessionId === sessionId ? session : x)) }))
}

/** Deletes a stopped session; resolves whether it went to the system's trash. */
export async function deleteSession(sessionId: string): Promise<boolean> {
  const { trashed } = await call('sessions.delete', { sessionId })
  forgetSession(sessionId)
  return trashed
}

export async function saveSettings(patch: SettingsPatch): Promise<void> {
  const { settings } = await call('settings.update', patch)
  set({ settings })
}

export async function saveApiKey(apiKey: string): Promise<void> {
  const { settings } = await call('settings.setApiKey', { apiKey })
  set((s) => ({ settings, keySaves: s.keySaves + 1 }))
}

export async function openFolder(cwd: string): Promise<void> {
  const { workspace } = await call('workspace.open', { cwd })
  await adoptWorkspace(workspace)
}

/** Electron's native picker; resolves false when the user cancelled. */
export async function pickFolder(): Promise<boolean> {
  const { workspace } = await call('workspace.pickFolder', {})
  if (workspace) await adoptWorkspace(workspace)
  return workspace !== null
}
