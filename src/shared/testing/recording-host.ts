// An in-memory RuntimeHost for adapter tests: records every call it receives and lets a test push events
// and notices. It implements the contract faithfully (valid responses), so tests exercise the adapters,
// not a mock's shortcuts.
import type { AgentEvent } from '../events'
import { pushListeners } from '../push-listeners'
import type { RuntimeHost } from '../host'
import { HostCallError } from '../ipc-dispatch'
import { recordingReview } from './recording-review'
import { recordingAgentEditor } from './recording-agent-editor'
import { emptySession } from '../view/session-state'
import type { HostNotice, Settings } from '../ipc-contract'

export interface RecordingHost extends RuntimeHost {
  calls: Array<{ method: string; request: unknown }>
  emit(events: AgentEvent[]): void
  notify(notice: HostNotice): void
  /** The key as stored; tests assert it never travels back out. */
  storedKey: string | null
}

export function createRecordingHost(cwd = '/tmp/project'): RecordingHost {
  const pushes = pushListeners()
  const calls: RecordingHost['calls'] = []
  let settings: Settings = {
    hasApiKey: false,
    apiKeySource: 'none',
    baseUrl: null,
    defaultModel: 'sonnet',
    modelAliases: { sonnet: 'claude-sonnet-4-5', haiku: 'claude-haiku-4-5', opus: 'claude-opus-4-1' },
    defaultModelAliases: { sonnet: 'claude-sonnet-4-5', haiku: 'claude-haiku-4-5', opus: 'claude-opus-4-1' },
    limits: { maxConcurrentAgents: 8, maxDepth: 3, maxBudgetUsd: null, maxBudgetTokens: null, maxTurns: 100 },
    defaultPermissionMode: 'default',
    defaultEffort: null,
    coordinator: false,
    agentTeams: false,
    promptCacheSharing: 'first',
    theme: 'system',
    firstRunSkipped: false,
    context: { autoCompact: true, autoCompactPercent: null, toolResultClearing: 'auto' },
    mergeStrategy: 'merge',
    worktreeBaseRef: { value: 'head', file: null, scope: null }
  }
  const record = (method: string, request: unknown) => calls.push({ method, request })
  const workspace = { cwd, name: cwd.split('/').pop() || cwd, isGitRepo: true }
  const host: RecordingHost = {
    calls,
    storedKey: null,
    async getWorkspace(req) {
      record('getWorkspace', req)
      return { workspace }
    },
    async openWorkspace(req) {
      record('openWorkspace', req)
      if (req.cwd === '/does/not/exist') throw new HostCallError('not_found', `${req.cwd} is not a folder.`)
      return { workspace: { cwd: req.cwd, name: req.cwd.split('/').pop()!, isGitRepo: false } }
    },
    async listSessions(req) {
      record('listSessions', req)
      return { sessions: [] }
    },
    async openSession(req) {
      record('openSession', req)
      throw new HostCallError('not_found', `No session ${req.sessionId}.`)
    },
    async openSessionPage(req) {
      record('openSessionPage', req)
      throw new HostCallError('not_found', `No session ${req.sessionId} is being opened.`)
    },
    async renameSession(req) {
      record('renameSession', req)
      throw new HostCallError('not_found', `No session ${req.sessionId}.`)
    },
    async deleteSession(req) {
      record('deleteSession', req)
      throw new HostCallError('not_found', `No session ${req.sessionId}.`)
    },
    async startSession(req) {
      record('startSession', req)
      return { sessionId: 'session-1' }
    },
    async sendPrompt(req) {
      record('sendPrompt', req)
      return {}
    },
    async resumeInterrupted(req) {
      record('resumeInterrupted', req)
      return { resumed: [], problems: [] }
    },
    async stopAgent(req) {
      record('stopAgent', req)
      return {}
    },
    async sendMessage(req) {
      record('sendMessage', req)
      return {}
    },
    async compactAgent(req) {
      record('compactAgent', req)
      return { status: 'compacted', tokensBefore: 1000, tokensAfter: 200 }
    },
    async respondPermission(req) {
      record('respondPermission', req)
      return {}
    },
    async getSettings(req) {
      record('getSettings', req)
      return { settings }
    },
    async updateSettings(req) {
      record('updateSettings', req)
      settings = { ...settings, ...req, limits: { ...settings.limits, ...req.limits } } as Settings
      return { settings }
    },
    async setApiKey(req) {
      record('setApiKey', req)
      host.storedKey = req.apiKey
      settings = { ...settings, hasApiKey: true, apiKeySource: 'stored' }
      return { settings }
    },
    async testConnection(req) {
      record('testConnection', req)
      return { ok: true, url: req.baseUrl ?? 'https://api.anthropic.com', message: 'The endpoint answered.' }
    },
    async listAgents(req) {
      record('listAgents', req)
      return { agents: [], errors: [] }
    },
    async startDemo(req) {
      record('startDemo', req)
      return { sessionId: 'demo-1' }
    },
    async listMcpServers(req) {
      record('listMcpServers', req)
      return { servers: [], problems: [] }
    },
    async getFolderTrust(req) {
      record('getFolderTrust', req)
      return { trust: { folder: req.cwd, state: 'none', items: [], hash: '0'.repeat(32), notRun: [], problems: [] } }
    },
    async answerFolderTrust(req) {
      record('answerFolderTrust', req)
      throw new HostCallError('conflict', 'This folder brings nothing that runs by itself any more, so there is nothing to answer.')
    },
    async searchSessions(req) {
      record('searchSessions', req)
      return { hits: [] }
    },
    async openReplay(req) {
      record('openReplay', req)
      return { timeline: { sessionId: req.sessionId, events: 0, firstSeq: 0, lastSeq: 0, startTs: 0, endTs: 0, marks: [], activity: [] } }
    },
    async replayFrame(req) {
      record('replayFrame', req)
      return { seq: 0, ts: 0, view: emptySession(req.sessionId), olderItems: {}, more: null }
    },
    async replaySteps(req) {
      record('replaySteps', req)
      return { steps: [], done: true }
    },
    ...recordingAgentEditor(record),
    ...recordingReview(record),
    onEvents: pushes.onEvents,
    onNotice: pushes.onNotice,
    async close() {},
    emit: pushes.emitEvents,
    notify: pushes.emitNotice
  }
  return host
}
