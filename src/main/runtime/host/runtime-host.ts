// The runtime host: what the app and browser mode drive through the IPC contract. It keeps the live
// sessions of this process, reopens past ones from their transcripts, and owns settings and the key
// (which never leaves this process).
import { stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, resolve } from 'node:path'
import type { AgentEditorHost } from '../../../shared/agent-editor-host'
import type { AgentEvent } from '../../../shared/events'
import type { RuntimeHost } from '../../../shared/host'
import { HostCallError } from '../../../shared/ipc-dispatch'
import type { HostNotice } from '../../../shared/ipc-contract'
import { AgentEditorService } from '../agent-editor'
import type { ModelClient } from '../model/types'
import type { AgentSession, AgentSessionOptions } from '../orchestration'
import { credentialsKeyStore, type KeyStore } from '../setup'
import { resolveDataDir, titleFromPrompt } from '../store'
import { probeGit } from '../worktrees'
import { startDemoModel } from './demo'
import { AgentFolders } from './agent-folders'
import { startTryRun } from './try-run'
import { SettingsCalls } from './settings-calls'
import { HostListeners } from './host-listeners'
import { isDemoSession, markDemoSession, sessionName, type TrashItem } from './session-files'
import { SessionCalls } from './session-calls'
import { SessionFactory } from './session-factory'
import { LiveSessions, type Live } from './live-sessions'

export interface RuntimeHostOptions {
  cwd: string
  dataDir?: string
  keyStore?: KeyStore
  env?: Record<string, string | undefined>
  home?: string
  /** Replaces the real model client (tests and the e2e suite point it at the scripted server). */
  createClient?: () => ModelClient
  /** Options passed to every session (tests: ripgrep, stall timeouts). */
  sessionDefaults?: Partial<AgentSessionOptions>
  /** Moves a deleted session's folder to the system's trash (Electron's shell.trashItem); else the home folder's trash. */
  trashItem?: TrashItem
  /** How often, at most, a working session's row is sent again for its time (default 30 s; tests shorten it). */
  activityNoticeMs?: number
}

export class LocalRuntimeHost implements RuntimeHost, AgentEditorHost {
  private cwd: string
  private readonly dataDir: string
  private readonly keyStore: KeyStore
  private readonly env: Record<string, string | undefined>
  private readonly live: LiveSessions
  private readonly listeners = new HostListeners()
  private readonly folders: AgentFolders
  private readonly sessions: SessionCalls
  private readonly settings: SettingsCalls
  private readonly factory: SessionFactory

  constructor(private readonly options: RuntimeHostOptions) {
    this.cwd = resolve(options.cwd)
    this.env = options.env ?? process.env
    this.dataDir = options.dataDir ?? resolveDataDir(this.env)
    this.keyStore = options.keyStore ?? credentialsKeyStore(this.dataDir)
    const home = options.home ?? homedir()
    this.factory = new SessionFactory({ env: this.env, dataDir: this.dataDir, keyStore: this.keyStore, home: options.home, createClient: options.createClient, sessionDefaults: options.sessionDefaults })
    this.live = new LiveSessions({ listeners: this.listeners, activityNoticeMs: options.activityNoticeMs, onAdopted: () => this.folders.watch(this.cwd) })
    this.sessions = new SessionCalls({ dataDir: this.dataDir, live: this.live, listeners: this.listeners, cwd: () => this.cwd, home, env: this.env, trashItem: options.trashItem })
    this.settings = new SettingsCalls({ env: this.env, dataDir: this.dataDir, keyStore: this.keyStore, notify: (n) => this.notify(n) })
    this.folders = new AgentFolders({ live: this.live, listeners: this.listeners, factory: this.factory, home, env: this.env, agentSources: options.sessionDefaults?.agentSources })
    this.folders.watch(this.cwd)
  }

  // ── workspace ──────────────────────────────────────────────────────────────────────────────────

  private async workspace(cwd: string) {
    const git = await probeGit(cwd)
    return { cwd, name: basename(cwd) || cwd, isGitRepo: git.isGitRepo }
  }

  getWorkspace = async () => ({ workspace: await this.workspace(this.cwd) })

  openWorkspace = async ({ cwd }: { cwd: string }) => {
    const dir = resolve(cwd)
    const info = await stat(dir).catch(() => null)
    if (!info?.isDirectory()) throw new HostCallError('not_found', `${dir} is not a folder.`)
    this.cwd = dir
    this.folders.watch(this.cwd)
    const workspace = await this.workspace(dir)
    this.notify({ type: 'workspace_changed', workspace })
    return { workspace }
  }

  // ── sessions ───────────────────────────────────────────────────────────────────────────────────

  listSessions: RuntimeHost['listSessions'] = (req) => this.sessions.list(req)
  openSession: RuntimeHost['openSession'] = (req) => this.sessions.open(req)
  openSessionPage: RuntimeHost['openSessionPage'] = (req) => this.sessions.page(req)
  renameSession: RuntimeHost['renameSession'] = (req) => this.sessions.rename(req)
  deleteSession: RuntimeHost['deleteSession'] = (req) => this.sessions.delete(req)

  startSession = async (req: { prompt: string; cwd: string; agent?: string; model?: string; permissionMode?: AgentSessionOptions['permissionMode'] }) => {
    const config = await this.factory.config()
    const client = await this.factory.client(config)
    const title = titleFromPrompt(req.prompt)
    const session = await this.factory.create(config, client, {
      cwd: resolve(req.cwd),
      title,
      ...(req.model ? { model: req.model } : {}),
      ...(req.permissionMode ? { permissionMode: req.permissionMode } : {}),
      coordinator: config.settings.coordinator,
      teams: config.settings.agentTeams
    })
    const live = this.live.adopt(session, { title, demo: null, priorCostUsd: 0 })
    this.live.runInBackground(live, req.prompt, { ...(req.agent ? { agentType: req.agent } : {}), maxTurns: config.settings.limits.maxTurns })
    return { sessionId: session.sessionId }
  }

  sendPrompt = async ({ sessionId, prompt }: { sessionId: string; prompt: string }) => {
    const live = await this.ensureLive(sessionId)
    if (live.session.registry.get(live.session.mainAgentId)?.status === 'running')
      throw new HostCallError('conflict', 'The main agent is still working; wait for it to finish or stop it first.')
    const config = await this.factory.config()
    this.live.runInBackground(live, prompt, { maxTurns: config.settings.limits.maxTurns })
    return {}
  }

  resumeInterrupted = async ({ sessionId }: { sessionId: string }) => {
    const live = await this.ensureLive(sessionId)
    if (live.session.registry.get(live.session.mainAgentId)?.status === 'running')
      throw new HostCallError('conflict', 'The main agent is working; resume the interrupted agents once it has finished, or stop it first.')
    const report = await live.session.resumeInterrupted()
    if (!report.resumed.length && !report.problems.length) throw new HostCallError('not_found', 'No agent of this session is waiting to be resumed: none was cut off, or it runs again already.')
    this.live.updated(live)
    return report
  }

  stopAgent = async ({ sessionId, agentId }: { sessionId: string; agentId: string }) => {
    const live = this.live.get(sessionId)
    if (!live)
      throw new HostCallError('not_found', 'Nothing of this session runs in this window, so there is nothing to stop here. If another Fanout window or a “fanout run” command works on it, stop it there.')
    if (!live.session.registry.get(agentId)) throw new HostCallError('not_found', `There is no agent ${agentId} in this session.`)
    live.session.stop(agentId, true)
    return {}
  }

  sendMessage = async ({ sessionId, to, message }: { sessionId: string; to: string; message: string }) => {
    const live = await this.ensureLive(sessionId)
    await live.session.sendMessage(to, message, 'user')
    return {}
  }

  respondPermission = async ({ requestId, decision }: { requestId: string; decision: 'allow' | 'allow_always' | 'deny' }) => {
    for (const live of this.live.all()) {
      if (live.session.pendingPermissions().some((p) => p.requestId === requestId)) {
        live.session.respondPermission(requestId, decision)
        return {}
      }
    }
    throw new HostCallError('not_found', 'That permission request is no longer waiting (its agent finished or was stopped).')
  }

  // ── settings and key ───────────────────────────────────────────────────────────────────────────

  getSettings = async (_req: object = {}) => this.settings.get()
  updateSettings: RuntimeHost['updateSettings'] = (patch) => this.settings.update(patch)
  setApiKey: RuntimeHost['setApiKey'] = (req) => this.settings.setApiKey(req)
  testConnection: RuntimeHost['testConnection'] = (req) => this.settings.testConnection(req)

  listAgents: RuntimeHost['listAgents'] = (req) => this.folders.listAgents(req)
  listMcpServers: NonNullable<RuntimeHost['listMcpServers']> = (req) => this.folders.listMcpServers(req)

  // ── agent editor (src/main/runtime/agent-editor) ────────────────────────────────────────────────

  agentLibrary = async (req: { cwd: string }) => ({ library: await this.folders.editor.library(req) })
  openAgentFile = async (req: { cwd: string; file: string }) => ({ document: await this.folders.editor.open(req) })
  analyzeAgent = async (req: { cwd: string; file: string; text: string }) => ({ analysis: this.folders.editor.analyze(req) })
  editAgent = async (req: Parameters<AgentEditorService['edit']>[0]) => this.folders.editor.edit(req)
  repairAgent = async (req: { cwd: string; file: string; text: string }) => this.folders.editor.repair(req)
  saveAgent = async (req: Parameters<AgentEditorService['save']>[0]) => ({ result: await this.folders.editor.save(req) })
  createAgent = (req: Parameters<AgentEditorService['create']>[0]) => this.folders.editor.create(req)
  duplicateAgent = (req: Parameters<AgentEditorService['duplicate']>[0]) => this.folders.editor.duplicate(req)
  renameAgent = (req: Parameters<AgentEditorService['rename']>[0]) => this.folders.editor.rename(req)
  moveAgent = (req: Parameters<AgentEditorService['move']>[0]) => this.folders.editor.move(req)
  deleteAgent = (req: Parameters<AgentEditorService['delete']>[0]) => this.folders.editor.delete(req)

  /** Runs the editor's draft on a prompt as the main agent of a new session (see try-run.ts). */
  tryAgent = async (req: { cwd: string; file: string; text: string; prompt: string }) => {
    const plan = await this.folders.editor.planTry(req)
    const config = await this.factory.config()
    const client = await this.factory.client(config)
    const run = await startTryRun(plan, req.prompt, {
      create: (opts) => this.factory.create(config, client, opts),
      adopt: (session, title) => this.live.adopt(session, { title, demo: null, priorCostUsd: 0 }).session,
      agentSources: this.options.sessionDefaults?.agentSources,
      defaultMode: config.settings.defaultPermissionMode,
      maxTurns: config.settings.limits.maxTurns,
      finish: (p, prompt) => this.folders.editor.finishTry(p, prompt),
      notify: (notice) => this.notify(notice),
      onError: (sessionId, agentId, message) => this.emitError(sessionId, agentId, message)
    })
    return { run }
  }

  // ── demo ───────────────────────────────────────────────────────────────────────────────────────

  startDemo = async ({ cwd }: { cwd: string }) => {
    const config = await this.factory.config()
    const demo = await startDemoModel({ keyStored: this.settings.hasKey })
    // Recorded, so that the session keeps this title when it is reopened.
    const title = `Scripted demo: ${demo.prompt}`
    const session = await this.factory.create(config, demo.client, { cwd: resolve(cwd), permissionMode: 'default', title })
    await markDemoSession(this.dataDir, session.sessionId)
    const live = this.live.adopt(session, { title, demo, priorCostUsd: 0 })
    this.live.runInBackground(live, demo.prompt, {})
    return { sessionId: session.sessionId }
  }

  // ── subscriptions and lifetime ─────────────────────────────────────────────────────────────────

  onEvents(listener: (events: AgentEvent[]) => void): () => void {
    return this.listeners.onEvents(listener)
  }

  onNotice(listener: (notice: HostNotice) => void): () => void {
    return this.listeners.onNotice(listener)
  }

  async close(): Promise<void> {
    this.folders.close()
    this.sessions.close()
    await this.live.closeAll()
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────────

  private notify(notice: HostNotice): void {
    this.listeners.notify(notice)
  }

  private emitError(sessionId: string, agentId: string, message: string): void {
    this.listeners.error(sessionId, agentId, message)
  }

  /** A live session, reopening a recorded one from its transcripts when this process does not run it. */
  private async ensureLive(sessionId: string): Promise<Live> {
    const existing = this.live.get(sessionId)
    if (existing) return existing
    const config = await this.factory.config()
    // A demo goes on with the demo's scripted model (no key needed), which answers follow-ups.
    const demo = isDemoSession(this.dataDir, sessionId) ? await startDemoModel({ keyStored: this.settings.hasKey }) : null
    const client = demo ? demo.client : await this.factory.client(config)
    let session: AgentSession
    try {
      session = await this.factory.open(sessionId, config, client)
    } catch (err) {
      await demo?.close()
      throw err
    }
    // AgentSession.open already read the recorded session; reading its transcripts again costs as much.
    return this.live.adopt(session, { title: sessionName(this.dataDir, sessionId) ?? (session.reopened?.title || sessionId), demo, priorCostUsd: session.reopened?.costUsd ?? 0 })
  }
}
