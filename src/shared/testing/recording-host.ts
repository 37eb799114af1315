// An in-memory RuntimeHost for adapter tests: records every call it receives (by call name) and lets a
// test push events and notices. It implements the contract faithfully (valid responses), so tests exercise the adapters,
// not a mock's shortcuts.
import type { AgentEvent } from '../events'
import { pushListeners } from '../push-listeners'
import type { CallHandlers } from '../call-handlers'
import type { RuntimeHost } from '../host'
import { HostCallError } from '../host-call-error'
import { recordingReview } from './recording-review'
import { recordingAgentEditor } from './recording-agent-editor'
import { emptySession } from '../view/session-state'
import type { HostCallName, HostNotice, Settings } from '../ipc-contract'

export interface RecordingHost extends RuntimeHost {
  calls: Array<{ call: string; request: unknown }>
  /** Every call of a host (none optional), so a test can replace one. */
  handlers: CallHandlers<HostCallName>
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
  const record = (call: string, request: unknown) => calls.push({ call, request })
  const workspace = { cwd, name: cwd.split('/').pop() || cwd, isGitRepo: true }
  const host: RecordingHost = {
    calls,
    storedKey: null,
    handlers: {
      async 'workspace.get'(req) {
        record('workspace.get', req)
        return { workspace }
      },
      async 'workspace.open'(req) {
        record('workspace.open', req)
        if (req.cwd === '/does/not/exist') throw new HostCallError('not_found', `${req.cwd} is not a folder.`)
        return { workspace: { cwd: req.cwd, name: req.cwd.split('/').pop()!, isGitRepo: false } }
      },
      async 'sessions.list'(req) {
        record('sessions.list', req)
        return { sessions: [] }
      },
      async 'sessions.open'(req) {
        record('sessions.open', req)
        throw new HostCallError('not_found', `No session ${req.sessionId}.`)
      },
      async 'sessions.page'(req) {
        record('sessions.page', req)
        throw new HostCallError('not_found', `No session ${req.sessionId} is being opened.`)
      },
      async 'sessions.rename'(req) {
        record('sessions.rename', req)
        throw new HostCallError('not_found', `No session ${req.sessionId}.`)
      },
      async 'sessions.delete'(req) {
        record('sessions.delete', req)
        throw new HostCallError('not_found', `No session ${req.sessionId}.`)
      },
      async 'session.start'(req) {
        record('session.start', req)
        return { sessionId: 'session-1' }
      },
      async 'session.sendPrompt'(req) {
        record('session.sendPrompt', req)
        return {}
      },
      async 'session.resumeInterrupted'(req) {
        record('session.resumeInterrupted', req)
        return { resumed: [], problems: [] }
      },
      async 'agent.stop'(req) {
        record('agent.stop', req)
        return {}
      },
      async 'agent.retry'(req) {
        record('agent.retry', req)
        return {}
      },
      async 'agent.sendMessage'(req) {
        record('agent.sendMessage', req)
        return {}
      },
      async 'agent.compact'(req) {
        record('agent.compact', req)
        return { status: 'compacted', tokensBefore: 1000, tokensAfter: 200 }
      },
      async 'permission.respond'(req) {
        record('permission.respond', req)
        return {}
      },
      async 'settings.get'(req) {
        record('settings.get', req)
        return { settings }
      },
      async 'settings.update'(req) {
        record('settings.update', req)
        settings = { ...settings, ...req, limits: { ...settings.limits, ...req.limits } } as Settings
        return { settings }
      },
      async 'settings.setApiKey'(req) {
        record('settings.setApiKey', req)
        host.storedKey = req.apiKey
        settings = { ...settings, hasApiKey: true, apiKeySource: 'stored' }
        return { settings }
      },
      async 'settings.testConnection'(req) {
        record('settings.testConnection', req)
        return { ok: true, url: req.baseUrl ?? 'https://api.anthropic.com', message: 'The endpoint answered.' }
      },
      async 'agents.list'(req) {
        record('agents.list', req)
        return { agents: [], errors: [] }
      },
      async 'demo.start'(req) {
        record('demo.start', req)
        return { sessionId: 'demo-1' }
      },
      async 'folder.commands'(req) {
        record('folder.commands', req)
        return { commands: [] }
      },
      async 'folder.files'(req) {
        record('folder.files', req)
        return { files: [], complete: true }
      },
      async 'mcp.list'(req) {
        record('mcp.list', req)
        return { servers: [], problems: [] }
      },
      async 'trust.get'(req) {
        record('trust.get', req)
        return { trust: { folder: req.cwd, state: 'none', items: [], hash: '0'.repeat(32), notRun: [], problems: [] } }
      },
      async 'trust.answer'(req) {
        record('trust.answer', req)
        throw new HostCallError('conflict', 'This folder brings nothing that runs by itself any more, so there is nothing to answer.')
      },
      async 'search.query'(req) {
        record('search.query', req)
        return { hits: [] }
      },
      async 'replay.open'(req) {
        record('replay.open', req)
        return { timeline: { sessionId: req.sessionId, events: 0, firstSeq: 0, lastSeq: 0, startTs: 0, endTs: 0, marks: [], activity: [] } }
      },
      async 'replay.frame'(req) {
        record('replay.frame', req)
        return { seq: 0, ts: 0, view: emptySession(req.sessionId), olderItems: {}, more: null }
      },
      async 'replay.steps'(req) {
        record('replay.steps', req)
        return { steps: [], done: true }
      },
      ...recordingAgentEditor(record),
      ...recordingReview(record)
    },
    onEvents: pushes.onEvents,
    onNotice: pushes.onNotice,
    async close() {},
    emit: pushes.emitEvents,
    notify: pushes.emitNotice
  }
  return host
}
