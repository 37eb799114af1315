// The runtime host: what the app and browser mode drive through the IPC contract. It keeps the live
// sessions of this process, reopens past ones from their transcripts, and owns settings and the key
// (which never leaves this process). This file wires the parts together and answers for the workspace.
import { homedir } from 'node:os'
import { basename, resolve } from 'node:path'
import type { CallHandlers } from '../../../shared/call-handlers'
import type { AgentEvent } from '../../../shared/events'
import type { RuntimeHost } from '../../../shared/host'
import { registerEnvironmentSecrets } from '../../../shared/redact'
import { isSecretEnvEntry } from '../security/child-env'
import { registerCredentialFileSecrets } from '../security/credential-files'
import type { HostCallName, HostNotice } from '../../../shared/ipc-contract'
import type { ModelClient } from '../model/types'
import type { AgentSessionOptions } from '../orchestration'
import { credentialsKeyStore, type KeyStore } from '../setup'
import { resolveDataDir } from '../store'
import { probeGit } from '../worktrees'
import type { OpenPath } from '../review/open-folder'
import { AgentFolders } from './agent-folders'
import { HostListeners } from './host-listeners'
import { LiveSessions } from './live-sessions'
import { reviewHandlers } from './review-handlers'
import { agentEditorHandlers } from './agent-editor-handlers'
import { folderHandlers } from './folder-handlers'
import { searchReplayHandlers } from './search-replay-handlers'
import { sessionHandlers } from './session-handlers'
import { settingsHandlers } from './settings-handlers'
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
  /** This program as a person names it (`the Fanout app`, `fanout web`): another process asked to run one of its sessions names it. */
  owner?: string
  /** Opens a folder in the system's file manager (Electron's shell.openPath); default: the platform's opener. */
  openPath?: OpenPath
}

export class LocalRuntimeHost implements RuntimeHost {
  /** Each contract call's handler, gathered from one table per concept (*-handlers.ts): what the dispatcher serves. */
  readonly handlers: CallHandlers<HostCallName>
  /** The workspace folder: the session list's folder when a call names none; its agent files are watched. */
  private cwd: string
  private readonly listeners = new HostListeners()
  private readonly live: LiveSessions
  private readonly sessions: SessionCalls
  private readonly runs: SessionRuns
  private readonly settings: SettingsCalls
  private readonly folders: AgentFolders
  private readonly trust: TrustCalls
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
    registerCredentialFileSecrets(home)
    const { listeners } = this
    const factory = new SessionFactory({
      env,
      dataDir,
      keyStore,
      home: options.home,
      createClient: options.createClient,
      sessionDefaults: options.sessionDefaults,
      ...(options.owner ? { owner: options.owner } : {})
    })
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
    this.runs = new SessionRuns({
      dataDir,
      factory,
      live: this.live,
      listeners,
      editor: this.folders.editor,
      keyStored: this.settings.hasKey,
      home,
      agentSources: options.sessionDefaults?.agentSources
    })
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
    this.handlers = {
      ...sessionHandlers({
        workspace: { get: this.getWorkspace, open: this.openWorkspace },
        sessions: this.sessions,
        runs: this.runs,
        search: this.search,
        replay: this.replay
      }),
      ...settingsHandlers(this.settings),
      ...folderHandlers(this.folders, this.trust, home),
      ...agentEditorHandlers(this.folders.editor, this.runs, this.folders),
      ...reviewHandlers({ live: this.live, listeners, dataDir, app: options.owner ?? 'Fanout', ...(options.openPath ? { openPath: options.openPath } : {}) }),
      ...searchReplayHandlers(this.search, this.replay)
    }
  }

  // ── workspace ──────────────────────────────────────────────────────────────────────────────────

  private async workspace(cwd: string) {
    const git = await probeGit(cwd)
    return { cwd, name: basename(cwd) || cwd, isGitRepo: git.isGitRepo }
  }

  private readonly getWorkspace = async () => ({ workspace: await this.workspace(this.cwd) })

  private readonly openWorkspace = async ({ cwd }: { cwd: string }) => {
    const dir = await requireFolder(cwd)
    this.cwd = dir
    this.folders.watch(this.cwd)
    const workspace = await this.workspace(dir)
    this.listeners.notify({ type: 'workspace_changed', workspace })
    // Where agent worktrees start depends on the folder's Claude Code settings.
    this.listeners.notify({ type: 'settings_changed', settings: (await this.settings.get()).settings })
    return { workspace }
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
    this.replay.close()
    await this.live.closeAll()
    await this.search.close()
  }
}
