// The runtime host: what the app and browser mode drive through the IPC contract. It keeps the live
// sessions of this process, reopens past ones from their transcripts, and owns settings and the key
// (which never leaves this process). This file wires the parts together and answers for the workspace.
import { homedir } from 'node:os'
import { basename, resolve } from 'node:path'
import type { AgentEditorHost } from '../../../shared/agent-editor-host'
import type { ReviewHost } from '../../../shared/review-host'
import type { AgentEvent } from '../../../shared/events'
import type { RuntimeHost } from '../../../shared/host'
import { registerEnvironmentSecrets } from '../../../shared/redact'
import { isSecretEnvEntry } from '../security/child-env'
import type { HostNotice } from '../../../shared/ipc-contract'
import type { AgentEditorService } from '../agent-editor'
import type { ModelClient } from '../model/types'
import type { AgentSessionOptions } from '../orchestration'
import { credentialsKeyStore, type KeyStore } from '../setup'
import { resolveDataDir } from '../store'
import { probeGit } from '../worktrees'
import type { OpenPath } from '../review/open-folder'
import { AgentFolders } from './agent-folders'
import { HostListeners } from './host-listeners'
import { LiveSessions } from './live-sessions'
import { ReviewCalls } from './review-calls'
import { SessionCalls } from './session-calls'
import { SessionFactory } from './session-factory'
import type { TrashItem } from './session-files'
import { ReplayCalls } from './replay-calls'
import { SearchCalls } from './search-calls'
import { SessionRuns } from './session-runs'
import { SettingsCalls } from './settings-calls'
import { requireFolder } from './folder-check'
import { TrustCalls } from './trust-calls'

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
  /** Opens a folder in the system's file manager (Electron's shell.openPath); default: the platform's opener. */
  openPath?: OpenPath
}

export class LocalRuntimeHost implements RuntimeHost, AgentEditorHost, ReviewHost {
  /** The workspace folder: the session list's folder when a call names none; its agent files are watched. */
  private cwd: string
  private readonly listeners = new HostListeners()
  private readonly live: LiveSessions
  private readonly sessions: SessionCalls
  private readonly runs: SessionRuns
  private readonly settings: SettingsCalls
  private readonly folders: AgentFolders
  private readonly trust: TrustCalls
  private readonly review: ReviewCalls
  private readonly search: SearchCalls
  private readonly replay: ReplayCalls

  constructor(options: RuntimeHostOptions) {
    this.cwd = resolve(options.cwd)
    const env = options.env ?? process.env
    // Credentials in the environment never reach the page, whichever session or call came across them.
    registerEnvironmentSecrets(env, isSecretEnvEntry)
    const dataDir = options.dataDir ?? resolveDataDir(env)
    const keyStore = options.keyStore ?? credentialsKeyStore(dataDir)
    const home = options.home ?? homedir()
    const { listeners } = this
    const factory = new SessionFactory({ env, dataDir, keyStore, home: options.home, createClient: options.createClient, sessionDefaults: options.sessionDefaults })
    // Every session that joins is watched for agent file changes along with the workspace.
    this.live = new LiveSessions({ listeners, activityNoticeMs: options.activityNoticeMs, onAdopted: () => this.folders.watch(this.cwd) })
    this.sessions = new SessionCalls({ dataDir, live: this.live, listeners, cwd: () => this.cwd, home, env, trashItem: options.trashItem })
    this.settings = new SettingsCalls({
      env,
      dataDir,
      keyStore,
      notify: (n) => listeners.notify(n),
      cwd: () => this.cwd,
      home,
      ...(options.sessionDefaults?.managedSettingsFile !== undefined ? { managedSettingsFile: options.sessionDefaults.managedSettingsFile } : {})
    })
    this.folders = new AgentFolders({ live: this.live, listeners, factory, home, env, dataDir, agentSources: options.sessionDefaults?.agentSources })
    this.runs = new SessionRuns({ dataDir, factory, live: this.live, listeners, editor: this.folders.editor, keyStored: this.settings.hasKey, home, agentSources: options.sessionDefaults?.agentSources })
    this.review = new ReviewCalls({ live: this.live, listeners, ...(options.openPath ? { openPath: options.openPath } : {}) })
    this.trust = new TrustCalls({
      dataDir,
      home,
      env,
      factory,
      live: this.live,
      listeners,
      agentSources: options.sessionDefaults?.agentSources,
      ...(options.sessionDefaults?.managedSettingsFile !== undefined ? { managedSettingsFile: options.sessionDefaults.managedSettingsFile } : {})
    })
    this.search = new SearchCalls({ dataDir, live: this.live, cwd: () => this.cwd, listSessions: (req) => this.sessions.list(req) })
    this.replay = new ReplayCalls({ dataDir, live: this.live, pages: this.sessions.replayPages })
    // Each session's search index catches up shortly after its events are recorded.
    listeners.onEvents((batch) => {
      this.search.service.noteEvents(batch)
      for (const id of new Set(batch.map((e) => e.sessionId))) this.replay.forget(id)
    })
    this.folders.watch(this.cwd)
  }

  // ── workspace ──────────────────────────────────────────────────────────────────────────────────

  private async workspace(cwd: string) {
    const git = await probeGit(cwd)
    return { cwd, name: basename(cwd) || cwd, isGitRepo: git.isGitRepo }
  }

  getWorkspace = async () => ({ workspace: await this.workspace(this.cwd) })

  openWorkspace = async ({ cwd }: { cwd: string }) => {
    const dir = await requireFolder(cwd)
    this.cwd = dir
    this.folders.watch(this.cwd)
    const workspace = await this.workspace(dir)
    this.listeners.notify({ type: 'workspace_changed', workspace })
    // Where agent worktrees start depends on the folder's Claude Code settings.
    this.listeners.notify({ type: 'settings_changed', settings: (await this.settings.get()).settings })
    return { workspace }
  }

  // ── the session list (session-calls.ts) ────────────────────────────────────────────────────────

  listSessions: RuntimeHost['listSessions'] = (req) => this.sessions.list(req)
  openSession: RuntimeHost['openSession'] = (req) => this.sessions.open(req)
  openSessionPage: RuntimeHost['openSessionPage'] = (req) => this.sessions.page(req)
  renameSession: RuntimeHost['renameSession'] = async (req) => {
    const renamed = await this.sessions.rename(req)
    await this.search.service.retitle(req.sessionId).catch(() => undefined)
    return renamed
  }
  deleteSession: RuntimeHost['deleteSession'] = async (req) => {
    // Its index files are closed before its folder goes (a folder with an open file cannot move on Windows);
    // if the delete is refused, the index catches up again when next asked.
    this.search.service.forget(req.sessionId)
    this.replay.forget(req.sessionId)
    return this.sessions.delete(req)
  }

  // ── search and replay (search-calls.ts, replay-calls.ts) ───────────────────────────────────────

  searchSessions: NonNullable<RuntimeHost['searchSessions']> = (req) => this.search.query(req)
  openReplay: NonNullable<RuntimeHost['openReplay']> = (req) => this.replay.open(req)
  replayFrame: NonNullable<RuntimeHost['replayFrame']> = (req) => this.replay.frame(req)
  replaySteps: NonNullable<RuntimeHost['replaySteps']> = (req) => this.replay.steps(req)

  // ── running sessions (session-runs.ts) ─────────────────────────────────────────────────────────

  startSession: RuntimeHost['startSession'] = (req) => this.runs.start(req)
  startDemo: RuntimeHost['startDemo'] = (req) => this.runs.startDemo(req)
  sendPrompt: RuntimeHost['sendPrompt'] = (req) => this.runs.sendPrompt(req)
  resumeInterrupted: RuntimeHost['resumeInterrupted'] = (req) => this.runs.resumeInterrupted(req)
  stopAgent: RuntimeHost['stopAgent'] = (req) => this.runs.stopAgent(req)
  sendMessage: RuntimeHost['sendMessage'] = (req) => this.runs.sendMessage(req)
  compactAgent: RuntimeHost['compactAgent'] = (req) => this.runs.compactAgent(req)
  respondPermission: RuntimeHost['respondPermission'] = (req) => this.runs.respondPermission(req)

  // ── settings and key (settings-calls.ts) ───────────────────────────────────────────────────────

  getSettings = async (_req: object = {}) => this.settings.get()
  updateSettings: RuntimeHost['updateSettings'] = (patch) => this.settings.update(patch)
  setApiKey: RuntimeHost['setApiKey'] = (req) => this.settings.setApiKey(req)
  testConnection: RuntimeHost['testConnection'] = (req) => this.settings.testConnection(req)

  // ── agent files and MCP servers (agent-folders.ts, src/main/runtime/agent-editor) ──────────────

  listAgents: RuntimeHost['listAgents'] = async (req) => this.folders.listAgents({ cwd: await requireFolder(req.cwd) })
  listMcpServers: NonNullable<RuntimeHost['listMcpServers']> = async (req) => this.folders.listMcpServers({ cwd: await requireFolder(req.cwd) })

  // ── trusted folders (trust-calls.ts, src/main/runtime/trust) ──────────────────────────────────

  getFolderTrust: NonNullable<RuntimeHost['getFolderTrust']> = (req) => this.trust.get(req)
  answerFolderTrust: NonNullable<RuntimeHost['answerFolderTrust']> = (req) => this.trust.answer(req)

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
  /** Try it: the editor's draft run as the main agent of a new session (session-runs.ts, try-run.ts). */
  tryAgent: AgentEditorHost['tryAgent'] = (req) => this.runs.tryAgent(req)

  // ── agents' work: changes, diffs, preview, merge, discard (review-calls.ts, src/main/runtime/review) ──

  listChanges: ReviewHost['listChanges'] = (req) => this.review.listChanges(req)
  changedFile: ReviewHost['changedFile'] = (req) => this.review.changedFile(req)
  previewMerges: ReviewHost['previewMerges'] = (req) => this.review.previewMerges(req)
  mergeAgents: ReviewHost['mergeAgents'] = (req) => this.review.mergeAgents(req)
  discardAgent: ReviewHost['discardAgent'] = (req) => this.review.discardAgent(req)
  openAgentFolder: ReviewHost['openAgentFolder'] = (req) => this.review.openAgentFolder(req)

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
    this.replay.close()
    await this.live.closeAll()
    await this.search.close()
  }
}
