// The sessions this process runs, each with what its row in the session list shows (title, times, cost
// before a restart, the demo's model): their events go on to the listeners, their row again as they change.
import { resolve } from 'node:path'
import type { AgentEvent, AgentStartEvent } from '../../../shared/events'
import type { SessionSummary } from '../../../shared/ipc-contract'
import { planPrompt, SessionClosedError, type AgentSession } from '../orchestration'
import { appBuiltinText } from './app-builtins'
import type { DemoModel } from './demo'
import type { HostListeners } from './host-listeners'
import { liveSummaryView } from './session-view'
import { errorMessage } from '../../../shared/error-message'

export interface Live {
  session: AgentSession
  title: string
  createdAt: number
  /** When something last happened in the session (its newest event): the list's time and order. */
  updatedAt: number
  /** The `updatedAt` the last session_updated notice carried. */
  noticedAt: number
  demo: DemoModel | null
  priorCostUsd: number
  /** Each agent's latest agent_start: sent with the requests it waits on, so a window that never opened the session can show who asks. */
  starts: Map<string, AgentStartEvent>
}

/** A working session's row is sent again at most this often for its time ("2 min ago" is as fine as it gets). */
const ACTIVITY_NOTICE_MS = 30_000

/** Events that change what a session's row says (status, agent count, cost, waiting requests), sent again at once. */
const ROW_EVENTS = new Set<string>(['agent_start', 'agent_end', 'usage', 'permission_request', 'permission_response'])

/** Whether the event changes what its session's row says, so the row is sent again (the UI bench's host follows this too). */
export const changesSessionRow = (event: AgentEvent): boolean => ROW_EVENTS.has(event.type)

export interface LiveSessionsOptions {
  listeners: HostListeners
  /** How often, at most, a working session's row is sent again for its time. */
  activityNoticeMs?: number
  /** A session joined the live ones (its folder's agent files are watched from now on). */
  onAdopted(): void
}

export class LiveSessions {
  private readonly live = new Map<string, Live>()
  /** Prompts being made ready to run (runInBackground): closeAll waits for them, so none starts a run after it. */
  private readonly starting = new Set<Promise<unknown>>()
  private closing = false

  constructor(private readonly o: LiveSessionsOptions) {}

  get(sessionId: string): Live | undefined {
    return this.live.get(sessionId)
  }

  all(): Live[] {
    return [...this.live.values()]
  }

  inFolder(cwd: string): Live[] {
    const folder = resolve(cwd)
    return this.all().filter((l) => resolve(l.session.cwd) === folder)
  }

  /** A session of the folder on a real model: its MCP servers are the folder's, connected. */
  realIn(cwd: string): Live | undefined {
    return this.inFolder(cwd).find((l) => !l.demo)
  }

  summary(live: Live): SessionSummary {
    return liveSummaryView(live.session, {
      title: live.title,
      createdAt: live.createdAt,
      updatedAt: live.updatedAt,
      demo: live.demo !== null,
      priorCostUsd: live.priorCostUsd,
      starts: live.starts
    })
  }

  /** Sends the session's row again: its status, agent count, cost or time changed. */
  updated(live: Live): SessionSummary {
    const session = this.summary(live)
    this.o.listeners.notify({ type: 'session_updated', session })
    return session
  }

  adopt(session: AgentSession, meta: Omit<Live, 'session' | 'createdAt' | 'updatedAt' | 'noticedAt' | 'starts'>): Live {
    // A reopened session keeps its recorded times until something new happens in it.
    const now = Date.now()
    const updatedAt = session.reopened?.updatedAt ?? now
    const live: Live = { session, createdAt: session.reopened?.createdAt ?? now, updatedAt, noticedAt: updatedAt, starts: new Map(), ...meta }
    this.live.set(session.sessionId, live)
    const every = this.o.activityNoticeMs ?? ACTIVITY_NOTICE_MS
    session.bus.subscribe((event) => {
      if (event.ts > live.updatedAt) live.updatedAt = event.ts
      if (event.type === 'agent_start') live.starts.set(event.agentId, event)
      this.o.listeners.events([event])
      // The session list shows status, agent count, cost, waiting requests and the time of the last
      // activity: refresh it when any agent starts or ends, its cost grows, a request waits or is answered,
      // and now and then while agents work, so its time keeps up. Windows never ask for it again.
      if (changesSessionRow(event) || live.updatedAt - live.noticedAt >= every) {
        live.noticedAt = live.updatedAt
        this.updated(live)
      }
    })
    this.updated(live)
    this.o.onAdopted()
    return live
  }

  runInBackground(live: Live, prompt: string, opts: Parameters<AgentSession['run']>[1]): void {
    // A slash command typed in the prompt box becomes its prompt, as in `fanout run -p` (prompt-plan.ts); one
    // that answers itself (a refused `!` block) is said where the session shows problems.
    // A built-in (`/cost`, `/context`…) is answered here, as a card in the conversation (app-builtins.ts); `/cost`
    // counts its wall time from when the session began.
    // Closing (the app quits, the host closes): nothing new starts; the sessions are being stopped and let go.
    if (this.closing) return
    const planned = planPrompt(live.session, prompt, { startedAt: live.createdAt, builtins: true, ...(opts?.agentType ? { agent: opts.agentType } : {}) })
    const settled: Promise<unknown> = planned.then(
      (): unknown => this.starting.delete(settled),
      (): unknown => this.starting.delete(settled)
    )
    this.starting.add(settled)
    planned
      .then((plan): unknown => {
        if (this.closing) return undefined // closed while the prompt was made ready: it never ran
        if (plan.kind === 'local' && plan.builtin) return this.commandOutput(live, prompt, appBuiltinText(plan.builtin, plan.text))
        if (plan.kind === 'local') throw new Error(plan.text)
        return live.session.run(plan.prompt, { ...opts, ...plan.opts })
      })
      .then(
        () => this.updated(live),
        // A run that cannot start (unknown --agent, busy main agent) still shows up where it happened.
        (err) => {
          // Its session closed as its run began (mid-start when the host closed): nothing ran, and nobody is left to tell.
          if (this.closing && err instanceof SessionClosedError) return
          this.o.listeners.error(live.session.sessionId, live.session.mainAgentId, errorMessage(err))
        }
      )
  }

  private commandOutput(live: Live, typed: string, text: string): void {
    const { session } = live
    session.emit({
      type: 'command_output',
      command: typed.trim(),
      text,
      agentId: session.mainAgentId,
      parentAgentId: null,
      parentToolUseId: null,
      sessionId: session.sessionId,
      ts: Date.now()
    })
  }

  /** Lets a session go (it is being deleted): no longer live, its files and demo model released. */
  async remove(live: Live): Promise<void> {
    this.live.delete(live.session.sessionId)
    await this.release(live)
  }

  /** Stops every session, waits for its agents to settle and releases it. */
  async closeAll(): Promise<void> {
    // A prompt still being made ready would start its run after the session closed (its events dropped, its
    // model request sent by a host that is gone): none starts from now on, and those under way settle first.
    this.closing = true
    await Promise.allSettled([...this.starting])
    const all = this.all()
    for (const live of all) live.session.stop(live.session.mainAgentId, false)
    await Promise.all(
      all.map(async (live) => {
        await live.session.idle().catch(() => undefined)
        await this.release(live)
      })
    )
    this.live.clear()
  }

  private async release(live: Live): Promise<void> {
    await live.session.close().catch(() => undefined)
    await live.demo?.close()
  }
}
