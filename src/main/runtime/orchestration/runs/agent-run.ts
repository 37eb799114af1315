// One run of a subagent: wait for a concurrency slot, get its worktree (made or picked up again), build its
// prompt and tools, deliver what waits in its mailbox, run the loop, commit or remove the worktree, and hand
// the result back. Every kind of run goes through here: a new spawn, a foreground or background resume, a
// resume triggered by a message or a restart. The steps every agent's run shares are in run-agent-once.ts;
// this file adds what only subagents have. `handle.run` is set for exactly as long as the run lasts, and is
// cleared in the same synchronous step that looks for messages that arrived too late for the loop.
import type { AgentDefinition } from '../../../../shared/agent-definition'
import type { AgentEvent, ReportIntent } from '../../../../shared/events'
import { emptyUsage } from '../../../../shared/usage'
import { subagentHookRun } from '../../hooks/wiring'
import { repairedHistory } from '../../store/rebuild-conversation'
import { followAgentCommits, openRunWorktree, type AgentWorktree } from '../../worktrees'
import { setAgentWorktree, type AgentHandle } from './agent-registry'
import { stallVerdict } from '../../loop/stop'
import { runAgentOnce, type RunHost } from './run-agent-once'
import { takeStartTurn, type StartTurn } from './start-line'
import type { ChildResult, RunRequest, SessionContext } from '../types'
import { errorMessage } from '../../../../shared/error-message'
import { monotonicMs } from '../../clock'

const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`

/** Starts a run of `handle` now; the promise settles with its result and never rejects. */
/** What a subagent's run needs besides RunHost: its prompt, worktree base, where its report goes, the stall watch and idle(). */
export type SubagentRunHost = RunHost & Pick<SessionContext, 'cwd' | 'systemPrompt' | 'settings' | 'teammateOf' | 'delivery' | 'backgroundStallMs' | 'track'>

export function startSubagentRun(session: SubagentRunHost, handle: AgentHandle, req: RunRequest): Promise<ChildResult> {
  if (handle.run) throw new Error(`Agent ${handle.id} is already running.`)
  handle.abort = new AbortController()
  handle.quiet = false
  let settle!: (r: ChildResult) => void
  const run = new Promise<ChildResult>((resolve) => (settle = resolve))
  handle.run = run
  session.track(run)
  void (async () => {
    let result: ChildResult
    try {
      // A compaction the person asked for while the agent was idle finishes before the run reads the conversation.
      await handle.compacting?.catch(() => undefined)
      result = await runOnce(session, handle, req)
      // Its agent_end is on disk before anyone hears how it ended: the report it owes (recorded there), or its
      // parent's Agent call answered with it (else a crash could keep the parent's answer and lose the end,
      // and the restart would run a finished agent again and report it twice).
      await session.files.durable(handle.id)
    } catch (err) {
      result = notStarted(handle, 'failed', `Internal error while running the agent: ${errorMessage(err)}`)
    }
    // A run that never started emitted no agent_end: its outcome still reaches the agent's state as an event.
    if (result.notStarted) emitStatus(session, handle, result.status, result.error)
    handle.lastResult = result
    handle.run = null
    session.delivery.afterRun(handle, result, req)
    settle(result)
  })()
  return run
}

/** Starts a run of an idle subagent that reads the messages in its inbox; its report goes to `reportTo`. */
export function startInboxRun(session: SubagentRunHost, handle: AgentHandle, reportTo: string | null): void {
  const maxTurns = handle.definition?.maxTurns
  startSubagentRun(session, handle, { reportTo, ...(maxTurns !== undefined ? { maxTurns } : {}) })
}

function emitStatus(session: SubagentRunHost, handle: AgentHandle, status: ChildResult['status'], detail?: string): void {
  session.emit({
    agentId: handle.id,
    parentAgentId: handle.parentId,
    parentToolUseId: handle.parentToolUseId,
    sessionId: session.sessionId,
    ts: Date.now(),
    type: 'status',
    status,
    ...(detail ? { detail } : {})
  })
}

function notStarted(handle: AgentHandle, status: 'stopped' | 'failed', error: string): ChildResult {
  return {
    status,
    result: '',
    error,
    numTurns: 0,
    toolUses: 0,
    usage: emptyUsage(),
    durationMs: 0,
    messages: handle.messages,
    model: handle.model,
    stopReason: null,
    notStarted: true
  }
}

// One abort listener per caller signal, however many agents it starts at once (a wide fan-out would
// otherwise trip Node's MaxListeners warning).
const linked = new WeakMap<AbortSignal, Set<AbortController>>()

function link(signal: AbortSignal | undefined, child: AbortController): () => void {
  if (!signal) return () => undefined
  if (signal.aborted) {
    child.abort(signal.reason)
    return () => undefined
  }
  let children = linked.get(signal)
  if (!children) {
    const set = new Set<AbortController>()
    linked.set(signal, (children = set))
    signal.addEventListener(
      'abort',
      () => {
        for (const c of set) c.abort(signal.reason)
        set.clear()
      },
      { once: true }
    )
  }
  children.add(child)
  return () => children.delete(child)
}

async function runOnce(session: SubagentRunHost, handle: AgentHandle, req: RunRequest): Promise<ChildResult> {
  const abort = handle.abort
  const unlink = link(req.linkTo, abort)
  const ids = { agentId: handle.id, parentAgentId: handle.parentId, parentToolUseId: handle.parentToolUseId, sessionId: session.sessionId }
  const def = handle.definition
  const label = handle.agentType
  let turn: StartTurn | undefined

  try {
    if (session.gate.slots.running >= session.gate.limits.maxConcurrent)
      session.emit({
        ...ids,
        ts: Date.now(),
        type: 'status',
        status: 'queued',
        detail: `waiting for one of ${session.gate.limits.maxConcurrent} concurrent agent slots`
      })
    try {
      handle.slot = await session.gate.slots.lease(abort.signal)
    } catch {
      return notStarted(handle, 'stopped', `The ${label} agent was stopped before it started.`)
    }

    // Its folder (worktrees/agent-worktree-lifecycle.ts): a git worktree, or one a WorktreeCreate hook made. An
    // isolated agent runs there or not at all: never in the checkout it was made from.
    const opened = handle.isolation
      ? await openRunWorktree({
          agentId: handle.id,
          agentType: label,
          description: handle.description ?? label,
          baseRef: session.settings.baseRef,
          // Made from its parent's worktree (a nested agent), or the session's folder once that one is gone.
          repoCwd: handle.isolation.repoCwd,
          fallbackCwd: session.cwd,
          ...(handle.worktree?.hookBased ? { hookFolder: handle.worktree.path } : {}),
          hooks: {
            create: () => session.extensions.hooks.worktreeCreate(handle, `agent-${handle.id}`),
            remove: (path) => session.extensions.hooks.worktreeRemove(handle, path)
          },
          record: (at) => setAgentWorktree(handle, at)
        })
      : undefined
    if (opened && 'error' in opened) return notStarted(handle, 'failed', `Could not isolate the agent: ${opened.error}`)
    const worktree = opened
    if (!def && (!handle.fork || !handle.systemPrompt)) return notStarted(handle, 'failed', `Agent ${handle.id} has no definition to run with.`)

    let finished: ChildResult['worktree']
    let stall: (() => void) | null = null
    // Siblings started together set up behind the first one's first request (start-line.ts).
    turn = await takeStartTurn(session, handle.parentId, abort.signal)
    const emit = eventFilter(session, handle, req, () => finished, turn)
    if (worktree?.git) emit.emit = followCommits(emit.emit, handle.id, worktree.git)
    const result = await runAgentOnce(session, handle, {
      def,
      ...(req.prompt !== undefined ? { prompt: req.prompt } : {}),
      // Read now, not when the run was asked for: a compaction may have ended in between.
      history: req.history ?? repairedHistory(handle.messages),
      maxTurns: req.maxTurns,
      toolNames: () => handle.toolNames ?? [],
      // A fork keeps the system prompt it inherited from its parent.
      systemPrompt: async () =>
        handle.fork && handle.systemPrompt ? handle.systemPrompt : session.systemPrompt(def as AgentDefinition, handle, worktree?.git),
      emit: emit.emit,
      extras: async () => {
        // SubagentStart runs now and SubagentStop exactly once as the run ends (in finalize, or when a finished agent may stop).
        const hooks = subagentHookRun(
          session.extensions.hooks,
          handle,
          (message) => session.emit({ ...ids, ts: Date.now(), type: 'error', message, retrying: false }),
          () => session.teammateOf?.(handle) ?? null
        )
        const hookContext = [...(handle.startNotes ?? []).map(reminder), ...(await hooks.start())]
        stall = handle.background ? watchStall(session, handle, emit.markStalled) : null
        return {
          ...(handle.description ? { description: handle.description } : {}),
          ...(def?.color ? { color: def.color } : {}),
          ...(handle.background ? { background: true } : {}),
          ...(handle.name ? { name: handle.name } : {}),
          ...(worktree ? { worktree: { path: worktree.path, branch: worktree.branch } } : {}),
          drainInbox: () => [...hookContext.splice(0), ...handle.inbox.splice(0)],
          beforeFinish: hooks.beforeFinish,
          finalize: hooks.finalize(
            worktree
              ? async () => {
                  finished = await worktree.finish()
                  const { error: _, ...ended } = finished
                  return { worktree: ended }
                }
              : undefined
          )
        }
      }
    }).finally(() => (stall as (() => void) | null)?.())
    if (!result) return notStarted(handle, 'failed', `Agent ${handle.id} was given nothing to do.`)
    const out: ChildResult = { ...result, ...(finished ? { worktree: finished } : {}), ...(emit.report ? { report: emit.report } : {}) }
    if (emit.stalledAfter !== null) {
      out.status = 'failed'
      out.error = stallMessage(emit.stalledAfter)
    }
    return out
  } finally {
    turn?.release()
    handle.slot?.release()
    handle.slot = null
    unlink()
  }
}

const stallMessage = (ms: number) => stallVerdict(ms).message

/**
 * The run's events on their way to the session: a fork's inherited history is recorded right after its
 * agent_start, a stalled background agent ends as `failed` (with its last output) rather than `stopped`, and
 * the report a background run owes is decided and recorded in its agent_end (see ReportIntent).
 */
/** An isolated agent's branch follows the commits its Bash commands make (worktrees/agent-branch.ts). */
function followCommits(emit: (event: AgentEvent) => void, agentId: string, worktree: AgentWorktree): (event: AgentEvent) => void {
  return (event) => {
    emit(event)
    if (event.type === 'tool_end' && event.name === 'Bash' && event.agentId === agentId) void followAgentCommits(worktree)
  }
}

function eventFilter(session: SubagentRunHost, handle: AgentHandle, req: RunRequest, worktree: () => ChildResult['worktree'], turn: StartTurn) {
  const state = {
    stalledAfter: null as number | null,
    report: null as ReportIntent | null,
    markStalled: (ms: number) => {
      state.stalledAfter = ms
    },
    emit: (event: AgentEvent) => {
      if (event.type === 'agent_end') {
        const end = state.stalledAfter !== null ? { ...event, status: 'failed' as const, error: stallMessage(state.stalledAfter) } : event
        const wt = worktree()
        const result: ChildResult = { ...end, messages: handle.messages, model: handle.model, stopReason: null, ...(wt ? { worktree: wt } : {}) }
        state.report = session.delivery.reportIntent(handle, result, req)
        session.emit(state.report ? { ...end, report: state.report } : end)
        return
      }
      session.emit(event)
      if (event.type === 'model_request') turn.release()
      if (event.type === 'agent_start' && req.recordHistory) {
        for (const message of req.history ?? [])
          session.emit({
            agentId: event.agentId,
            parentAgentId: event.parentAgentId,
            parentToolUseId: event.parentToolUseId,
            sessionId: event.sessionId,
            ts: Date.now(),
            type: 'message',
            message
          })
      }
    }
  }
  return state
}

/** Stops a background agent that emits nothing for `backgroundStallMs`. Returns the function that ends the watch. */
function watchStall(session: SubagentRunHost, handle: AgentHandle, onStall: (ms: number) => void): (() => void) | null {
  const limit = session.backgroundStallMs
  if (!Number.isFinite(limit) || limit <= 0) return null
  handle.lastEventAt = monotonicMs()
  const timer = setInterval(
    () => {
      const quiet = monotonicMs() - handle.lastEventAt
      if (quiet < limit) return
      clearInterval(timer)
      onStall(limit)
      handle.abort.abort(new Error(stallMessage(limit)))
    },
    Math.max(10, Math.min(1000, Math.floor(limit / 4)))
  )
  timer.unref?.()
  return () => clearInterval(timer)
}
