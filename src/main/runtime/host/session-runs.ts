// Running sessions: start one (from a prompt, as the scripted demo, or as the editor's Try it), send it
// prompts and messages, answer its permission requests, stop and resume its agents. A recorded session
// this process does not run is reopened for whichever of these needs it.
import { answeredBuiltin } from '../../../shared/prompt-commands'
import type { CallHandler } from '../../../shared/call-handlers'
import { HostCallError } from '../../../shared/host-call-error'
import type { AgentEditorService } from '../agent-editor'
import { loadAgents } from '../definitions'
import { RetryRefusedError, type AgentSession, type AgentSessionOptions } from '../orchestration'
import { titleFromPrompt } from '../store'
import { describeOwner, SessionLockedError, sessionOwner } from '../store/session-lock'
import { startDemoModel } from './demo'
import type { KeyStored } from './demo-script'
import type { HostListeners } from './host-listeners'
import type { Live, LiveSessions } from './live-sessions'
import type { SessionFactory } from './session-factory'
import { requireFolder } from './folder-check'
import { isDemoSession, markDemoSession, sessionName } from './session-files'
import { startTryRun } from './try-run'
import { errorMessage } from '../../../shared/error-message'

export interface SessionRunsOptions {
  dataDir: string
  factory: SessionFactory
  live: LiveSessions
  listeners: HostListeners
  editor: AgentEditorService
  /** Whether Fanout has a key: the demo's script says what to do next by it. */
  keyStored: KeyStored
  home: string
  agentSources?: AgentSessionOptions['agentSources']
}

export class SessionRuns {
  constructor(private readonly o: SessionRunsOptions) {}

  start: CallHandler<'session.start'> = async (req) => {
    // Everything the request names is checked before anything is created or queued.
    const cwd = await requireFolder(req.cwd)
    if (req.agent) await this.requireAgent(cwd, req.agent)
    const config = await this.o.factory.config()
    const client = await this.o.factory.client(config)
    const title = titleFromPrompt(req.prompt)
    const session = await this.o.factory.create(config, client, {
      cwd,
      title,
      ...(req.model ? { model: req.model } : {}),
      ...(req.permissionMode ? { permissionMode: req.permissionMode } : {}),
      ...(req.effort ? { effort: req.effort } : {}),
      coordinator: config.settings.coordinator,
      teams: config.settings.agentTeams
    })
    const live = this.o.live.adopt(session, { title, demo: null, priorCostUsd: 0 })
    this.o.live.runInBackground(live, req.prompt, { ...(req.agent ? { agentType: req.agent } : {}) })
    return { sessionId: session.sessionId }
  }

  startDemo: CallHandler<'demo.start'> = async (req) => {
    const cwd = await requireFolder(req.cwd)
    const config = await this.o.factory.config()
    const demo = await startDemoModel({ keyStored: this.o.keyStored })
    // Recorded, so that the session keeps this title when it is reopened.
    const title = `Scripted demo: ${demo.prompt}`
    const session = await this.o.factory.create(config, demo.client, { cwd, permissionMode: 'default', title })
    await markDemoSession(this.o.dataDir, session.sessionId)
    const live = this.o.live.adopt(session, { title, demo, priorCostUsd: 0 })
    this.o.live.runInBackground(live, demo.prompt, {})
    return { sessionId: session.sessionId }
  }

  /** Runs the editor's draft on a prompt as the main agent of a new session (see try-run.ts). */
  tryAgent: CallHandler<'agents.try'> = async (req) => {
    const plan = await this.o.editor.planTry(req)
    const config = await this.o.factory.config()
    const client = await this.o.factory.client(config)
    const run = await startTryRun(plan, req.prompt, {
      // The try works in a worktree of the folder: the folder's approvals are the ones that apply.
      create: (opts) => this.o.factory.create(config, client, { ...opts, trustFolder: req.cwd }),
      adopt: (session, title) => this.o.live.adopt(session, { title, demo: null, priorCostUsd: 0 }).session,
      agentSources: this.o.agentSources,
      defaultMode: config.settings.defaultPermissionMode,
      finish: (p, prompt) => this.o.editor.finishTry(p, prompt),
      notify: (notice) => this.o.listeners.notify(notice),
      onError: (sessionId, agentId, message) => this.o.listeners.error(sessionId, agentId, message)
    })
    return { run }
  }

  sendPrompt: CallHandler<'session.sendPrompt'> = async ({ sessionId, prompt }) => {
    const live = await this.ensureLive(sessionId)
    refuseLostHistory(live)
    // A built-in (`/cost`…) is answered without the main agent, so it may be asked while it works.
    if (mainRunning(live) && !answeredBuiltin(prompt))
      throw new HostCallError('conflict', 'The main agent is still working; wait for it to finish or stop it first.')
    // Settings changed since the session started apply from this prompt on (turn ceiling, budgets).
    live.session.applyLimits((await this.o.factory.config()).limits)
    this.o.live.runInBackground(live, prompt, {})
    return {}
  }

  resumeInterrupted: CallHandler<'session.resumeInterrupted'> = async ({ sessionId }) => {
    const live = await this.ensureLive(sessionId)
    refuseLostHistory(live)
    if (mainRunning(live))
      throw new HostCallError('conflict', 'The main agent is working; resume the interrupted agents once it has finished, or stop it first.')
    const report = await live.session.resumeInterrupted()
    if (!report.resumed.length && !report.problems.length)
      throw new HostCallError('not_found', 'No agent of this session is waiting to be resumed: none was cut off, or it runs again already.')
    this.o.live.updated(live)
    return report
  }

  stopAgent: CallHandler<'agent.stop'> = async ({ sessionId, agentId }) => {
    const live = this.o.live.get(sessionId)
    if (!live) {
      const owner = await sessionOwner(this.o.dataDir, sessionId).catch(() => null)
      if (owner) throw new HostCallError('conflict', `This session is being run by ${describeOwner(owner)}, not here; stop it there.`)
      throw new HostCallError(
        'not_found',
        'Nothing of this session runs in this window, so there is nothing to stop here. If another Fanout window or a “fanout run” command works on it, stop it there.'
      )
    }
    if (!live.session.registry.get(agentId)) throw new HostCallError('not_found', `There is no agent ${agentId} in this session.`)
    live.session.stop(agentId, true)
    return {}
  }

  retryAgent: CallHandler<'agent.retry'> = async ({ sessionId, agentId }) => {
    const live = await this.ensureLive(sessionId)
    try {
      const { run } = await live.session.retry(agentId)
      // Started: how it ends is pushed as its events, like any run's; a throw is said where the agent is shown.
      void Promise.resolve(run).catch((err: unknown) => this.o.listeners.error(sessionId, agentId, errorMessage(err)))
    } catch (err) {
      if (err instanceof RetryRefusedError) throw new HostCallError(err.kind, err.message)
      throw err
    }
    this.o.live.updated(live)
    return {}
  }

  sendMessage: CallHandler<'agent.sendMessage'> = async ({ sessionId, to, message }) => {
    const live = await this.ensureLive(sessionId)
    await live.session.sendMessage(to, message, 'user')
    return {}
  }

  compactAgent: CallHandler<'agent.compact'> = async ({ sessionId, agentId, instructions }) => {
    const live = await this.ensureLive(sessionId)
    const known =
      agentId === 'main' ||
      agentId === live.session.mainAgentId ||
      live.session.registry.find(agentId) ||
      (await live.session.findAgent(agentId).catch(() => undefined))
    if (!known) throw new HostCallError('not_found', `There is no agent ${agentId} in this session.`)
    try {
      return await live.session.compact(agentId, instructions)
    } catch (err) {
      // What went wrong is also on the agent's transcript, where the compaction marker says it failed.
      throw new HostCallError('conflict', errorMessage(err))
    }
  }

  /** Answers a waiting permission request in whichever live session asked it. */
  respondPermission: CallHandler<'permission.respond'> = async ({ requestId, decision, feedback }) => {
    for (const live of this.o.live.all()) {
      if (live.session.pendingPermissions().some((p) => p.requestId === requestId)) {
        await live.session.respondPermission(requestId, decision, feedback || undefined)
        return {}
      }
    }
    throw new HostCallError('not_found', 'That permission request is no longer waiting (its agent finished or was stopped).')
  }

  /** The main agent must be one the folder has: an unknown name is refused now, not left queued. */
  private async requireAgent(cwd: string, name: string): Promise<void> {
    const { byType, agents } = await loadAgents({ cwd, home: this.o.home, ...this.o.agentSources })
    if (byType.has(name)) return
    const names = agents.map((a) => a.definition.agentType)
    const shown = names.length > 12 ? `${names.slice(0, 12).join(', ')} and ${names.length - 12} more` : names.join(', ')
    throw new HostCallError(
      'invalid_request',
      `There is no agent named "${name}" in ${cwd}. ${names.length ? `The agents here are: ${shown}.` : 'No agent definitions load here.'}`,
      {
        agent: `There is no agent named "${name}" here.`
      }
    )
  }

  /** A live session, reopening a recorded one from its transcripts when this process does not run it. */
  private async ensureLive(sessionId: string): Promise<Live> {
    const existing = this.o.live.get(sessionId)
    if (existing) return existing
    const config = await this.o.factory.config()
    // A demo goes on with the demo's scripted model (no key needed), which answers follow-ups.
    const demo = isDemoSession(this.o.dataDir, sessionId) ? await startDemoModel({ keyStored: this.o.keyStored }) : null
    const client = demo ? demo.client : await this.o.factory.client(config)
    let session: AgentSession
    try {
      session = await this.o.factory.open(sessionId, config, client)
    } catch (err) {
      await demo?.close()
      // Another process runs it: it is shown read-only here, following that process.
      if (err instanceof SessionLockedError) throw new HostCallError('conflict', `${err.message} Here it is read-only and followed as it runs.`)
      throw err
    }
    // AgentSession.open already read the recorded session; reading its transcripts again costs as much.
    const live = this.o.live.adopt(session, {
      title: sessionName(this.o.dataDir, sessionId) ?? (session.reopened?.title || sessionId),
      demo,
      priorCostUsd: session.reopened?.costUsd ?? 0
    })
    // What reopening repaired that the person should know (a state file that could not be used) is said where they look.
    for (const warning of session.openWarnings) this.o.listeners.error(sessionId, session.mainAgentId, warning)
    return live
  }
}

const mainRunning = (live: Live): boolean => live.session.registry.get(live.session.mainAgentId)?.status === 'running'

/**
 * A session whose main conversation is lost (its transcript deleted, emptied, unreadable) is not continued:
 * the main agent would start afresh under the old session, as if it remembered. Said with the reason.
 */
function refuseLostHistory(live: Live): void {
  if (live.session.lostHistory)
    throw new HostCallError('conflict', `This session cannot be continued: ${live.session.lostHistory}. Start a new session for this work.`)
}
