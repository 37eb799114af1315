// TEMPORARY RuntimeHost for the e2e suite until the real runtime host exists (see host-factory.ts):
// in-memory settings, sessions persisted as JSONL under dataDir (so "reopen after a restart" is real),
// and the scripted fan-out of fake-scenario.ts.
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { AgentEvent } from '../../src/shared/events'
import type { RuntimeHost } from '../../src/shared/host'
import { HostCallError } from '../../src/shared/ipc-dispatch'
import type { HostNotice, SessionSummary, Settings } from '../../src/shared/ipc-contract'
import { runFanout, type ScenarioIo } from './fake-scenario'

export interface FakeHostOptions {
  cwd: string
  dataDir: string
  hasApiKey?: boolean
  /** Multiplies every scripted delay (0.2 = five times faster). */
  speed?: number
}

class Stopped extends Error {}

export function createFakeHost(opts: FakeHostOptions): RuntimeHost {
  const speed = opts.speed ?? 1
  const sessionsDir = join(opts.dataDir, 'sessions')
  mkdirSync(sessionsDir, { recursive: true })
  let cwd = opts.cwd
  const eventListeners = new Set<(e: AgentEvent[]) => void>()
  const noticeListeners = new Set<(n: HostNotice) => void>()
  const live = new Map<string, { events: AgentEvent[]; demo: boolean; stopped: Set<string>; permissions: Map<string, (d: 'allow' | 'allow_always' | 'deny') => void>; wakers: Map<string, Set<() => void>> }>()
  let settings: Settings = {
    hasApiKey: !!opts.hasApiKey,
    apiKeySource: opts.hasApiKey ? 'stored' : 'none',
    baseUrl: null,
    defaultModel: 'sonnet',
    modelAliases: { sonnet: 'claude-sonnet-4-5', haiku: 'claude-haiku-4-5', opus: 'claude-opus-4-1' },
    limits: { maxConcurrentAgents: 8, maxDepth: 3, maxBudgetUsd: null, maxTurns: 100 },
    defaultPermissionMode: 'default'
  }
  let seq = 0
  let closed = false

  const fileOf = (id: string) => join(sessionsDir, `${id}.jsonl`)
  const readEvents = (id: string): AgentEvent[] => {
    const l = live.get(id)
    if (l) return l.events
    if (!existsSync(fileOf(id))) throw new HostCallError('not_found', `There is no session ${id}.`)
    return readFileSync(fileOf(id), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  }
  const summarize = (id: string, events: AgentEvent[]): SessionSummary => {
    const start = events.find((e) => e.type === 'agent_start' && e.parentAgentId === null) as Extract<AgentEvent, { type: 'agent_start' }> | undefined
    const end = [...events].reverse().find((e) => e.type === 'agent_end' && e.parentAgentId === null) as Extract<AgentEvent, { type: 'agent_end' }> | undefined
    const cost = events.reduce((sum, e) => sum + (e.type === 'usage' ? e.usage.costUsd : 0), 0)
    const demo = live.get(id)?.demo ?? existsSync(join(sessionsDir, `${id}.demo`))
    return {
      sessionId: id,
      title: start?.prompt.split('\n')[0].slice(0, 80) ?? id,
      cwd: start?.cwd ?? cwd,
      status: end ? end.status : live.has(id) ? 'running' : 'interrupted',
      createdAt: events[0]?.ts ?? 0,
      updatedAt: events[events.length - 1]?.ts ?? 0,
      costUsd: cost,
      agentCount: new Set(events.map((e) => e.agentId)).size,
      model: start?.model,
      ...(demo ? { demo: true } : {})
    }
  }
  const notify = (n: HostNotice) => noticeListeners.forEach((l) => l(n))

  function launch(prompt: string, runCwd: string, demo: boolean): string {
    const sessionId = `s${Date.now().toString(36)}${(seq++).toString(36)}`
    const state = { events: [] as AgentEvent[], demo, stopped: new Set<string>(), permissions: new Map(), wakers: new Map<string, Set<() => void>>() }
    live.set(sessionId, state)
    if (demo) appendFileSync(join(sessionsDir, `${sessionId}.demo`), '')
    const emit = (e: AgentEvent) => {
      if (closed) return
      state.events.push(e)
      appendFileSync(fileOf(sessionId), JSON.stringify(e) + '\n')
      eventListeners.forEach((l) => l([e]))
      if (e.type === 'agent_end' || e.type === 'agent_start') notify({ type: 'session_updated', session: summarize(sessionId, state.events) })
    }
    const io: ScenarioIo = {
      emit,
      clock: { now: () => Date.now(), advance: () => {} },
      isStopped: (agentId) => state.stopped.has(agentId),
      sleep: (ms, agentId) =>
        new Promise<void>((resolve, reject) => {
          if (state.stopped.has(agentId)) return reject(new Stopped())
          const wake = () => {
            clearTimeout(t)
            reject(new Stopped())
          }
          const t = setTimeout(() => {
            state.wakers.get(agentId)?.delete(wake)
            resolve()
          }, ms * speed)
          if (!state.wakers.has(agentId)) state.wakers.set(agentId, new Set())
          state.wakers.get(agentId)!.add(wake)
        }),
      waitForPermission: (requestId, agentId) =>
        new Promise((resolve, reject) => {
          state.permissions.set(requestId, resolve)
          const wake = () => reject(new Stopped())
          if (!state.wakers.has(agentId)) state.wakers.set(agentId, new Set())
          state.wakers.get(agentId)!.add(wake)
        })
    }
    const count = Number(/fan out to (\d+)/i.exec(prompt)?.[1] ?? 4)
    void runFanout(io, sessionId, prompt, runCwd, count).finally(() => {
      notify({ type: 'session_updated', session: summarize(sessionId, state.events) })
      live.delete(sessionId)
    })
    return sessionId
  }

  return {
    async getWorkspace() {
      return { workspace: { cwd, name: basename(cwd), isGitRepo: existsSync(join(cwd, '.git')) } }
    },
    async openWorkspace({ cwd: next }) {
      if (!existsSync(next) || !statSync(next).isDirectory()) throw new HostCallError('not_found', `${next} is not a folder.`)
      cwd = next
      return { workspace: { cwd, name: basename(cwd), isGitRepo: existsSync(join(cwd, '.git')) } }
    },
    async listSessions(req) {
      const ids = readdirSync(sessionsDir)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => f.slice(0, -6))
      const all = ids.map((id) => summarize(id, readEvents(id)))
      return { sessions: all.filter((s) => s.cwd === (req.cwd ?? cwd)).sort((a, b) => b.updatedAt - a.updatedAt) }
    },
    async openSession({ sessionId }) {
      const events = readEvents(sessionId)
      return { session: summarize(sessionId, events), events: [...events] }
    },
    async startSession({ prompt, cwd: runCwd }) {
      if (!settings.hasApiKey) throw new HostCallError('unavailable', 'No Anthropic API key: add one in Settings, or run the scripted demo.')
      return { sessionId: launch(prompt, runCwd, false) }
    },
    async startDemo({ cwd: runCwd }) {
      return { sessionId: launch('Review the parser: map it, review lexer errors, run its tests, and check the docs', runCwd, true) }
    },
    async sendPrompt({ sessionId }) {
      if (live.has(sessionId)) throw new HostCallError('conflict', 'The main agent is still working; send it a message instead.')
      readEvents(sessionId)
      throw new HostCallError('unsupported', 'Follow-up prompts need the real runtime (the e2e stand-in host does not resume sessions).')
    },
    async stopAgent({ sessionId, agentId }) {
      const state = live.get(sessionId)
      if (!state) throw new HostCallError('not_found', `Session ${sessionId} is not running.`)
      const events = state.events
      const stop = (id: string) => {
        state.stopped.add(id)
        for (const w of state.wakers.get(id) ?? []) w()
        state.wakers.delete(id)
        for (const e of events) if (e.type === 'agent_start' && e.parentAgentId === id && !state.stopped.has(e.agentId)) stop(e.agentId)
      }
      stop(agentId)
      return {}
    },
    async sendMessage({ sessionId, to, message }) {
      const state = live.get(sessionId)
      if (!state) throw new HostCallError('not_found', `Session ${sessionId} is not running.`)
      const e: AgentEvent = { type: 'message_received', agentId: to, parentAgentId: null, parentToolUseId: null, sessionId, ts: Date.now(), from: 'you', text: message, summary: message.slice(0, 60) }
      state.events.push(e)
      eventListeners.forEach((l) => l([e]))
      return {}
    },
    async respondPermission({ requestId, decision }) {
      for (const state of live.values()) {
        const resolve = state.permissions.get(requestId)
        if (resolve) {
          state.permissions.delete(requestId)
          resolve(decision)
          return {}
        }
      }
      throw new HostCallError('not_found', `No permission request ${requestId} is waiting.`)
    },
    async getSettings() {
      return { settings }
    },
    async updateSettings(patch) {
      settings = { ...settings, ...patch, limits: { ...settings.limits, ...patch.limits } } as Settings
      return { settings }
    },
    async setApiKey() {
      settings = { ...settings, hasApiKey: true, apiKeySource: 'stored' }
      return { settings }
    },
    async listAgents() {
      return { agents: [], errors: [] }
    },
    onEvents(l) {
      eventListeners.add(l)
      return () => eventListeners.delete(l)
    },
    onNotice(l) {
      noticeListeners.add(l)
      return () => noticeListeners.delete(l)
    },
    async close() {
      closed = true
      for (const [id, state] of live) for (const e of state.events) if (e.type === 'agent_start') void this.stopAgent({ sessionId: id, agentId: e.agentId })
    }
  }
}
