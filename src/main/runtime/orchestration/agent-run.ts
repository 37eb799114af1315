// One run of a subagent: wait for a concurrency slot, get its worktree (made or picked up again), build its
// prompt and tools, deliver what waits in its mailbox, run the loop, commit or remove the worktree, and hand
// the result back. Every kind of run goes through here: a new spawn, a foreground or background resume, a
// resume triggered by a message or a restart. `handle.run` is set for exactly as long as the run lasts, and
// is cleared in the same synchronous step that looks for messages that arrived too late for the loop.
import { stat } from 'node:fs/promises'
import type { AgentEvent } from '../../../shared/events'
import { emptyUsage } from '../../../shared/usage'
import { subagentHookRun } from '../hooks/wiring'
import { runAgent } from '../loop'
import type { AgentRunResult } from '../loop/types'
import { effortRequest } from '../model/effort'
import { createAgentWorktree, finishAgentWorktree, type AgentWorktree } from '../worktrees'
import type { AgentHandle } from './agent-registry'
import { inboxPrompt } from './delivery'
import { forkToolList } from './fork'
import type { ChildResult, RunRequest, SessionContext } from './types'

const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`

/** Starts a run of `handle` now; the promise settles with its result and never rejects. */
export function startSubagentRun(session: SessionContext, handle: AgentHandle, req: RunRequest): Promise<ChildResult> {
  if (handle.run) throw new Error(`Agent ${handle.id} is already running.`)
  handle.abort = new AbortController()
  handle.status = 'queued'
  handle.quiet = false
  let settle!: (r: ChildResult) => void
  const run = new Promise<ChildResult>((resolve) => (settle = resolve))
  handle.run = run
  session.track(run)
  void (async () => {
    let result: ChildResult
    try {
      result = await runOnce(session, handle, req)
    } catch (err) {
      result = notStarted(handle, 'failed', `Internal error while running the agent: ${err instanceof Error ? err.message : String(err)}`)
    }
    handle.lastResult = result
    handle.status = result.status
    if (!result.notStarted) handle.messages = result.messages
    handle.run = null
    session.runEnded(handle, result, req)
    settle(result)
  })()
  return run
}

function notStarted(handle: AgentHandle, status: 'stopped' | 'failed', error: string): ChildResult {
  return { status, result: '', error, numTurns: 0, toolUses: 0, usage: emptyUsage(), durationMs: 0, messages: handle.messages, model: handle.model, stopReason: null, notStarted: true }
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
    signal.addEventListener('abort', () => {
      for (const c of set) c.abort(signal.reason)
      set.clear()
    }, { once: true })
  }
  children.add(child)
  return () => children.delete(child)
}

async function runOnce(session: SessionContext, handle: AgentHandle, req: RunRequest): Promise<ChildResult> {
  const abort = handle.abort
  const unlink = link(req.linkTo, abort)
  const ids = { agentId: handle.id, parentAgentId: handle.parentId, parentToolUseId: handle.parentToolUseId, sessionId: session.sessionId }
  const def = handle.definition
  const label = handle.agentType
  let release: (() => void) | null = null
  let closeRun: (() => Promise<void>) | undefined
  try {
    if (session.gate.slots.running >= session.gate.limits.maxConcurrent)
      session.emit({ ...ids, ts: Date.now(), type: 'status', status: 'queued', detail: `waiting for one of ${session.gate.limits.maxConcurrent} concurrent agent slots` })
    try {
      release = await session.gate.slots.acquire(abort.signal)
    } catch {
      return notStarted(handle, 'stopped', `The ${label} agent was stopped before it started.`)
    }

    let worktree: AgentWorktree | undefined
    // A folder a WorktreeCreate hook made instead of a git worktree (another VCS, a custom layout).
    let hookWorktree: string | undefined
    if (handle.isolation) {
      const made = handle.worktree?.hookBased ? { path: handle.worktree.path } : await session.hooks?.worktreeCreate(handle, `agent-${handle.id}`)
      if (made && 'error' in made) return notStarted(handle, 'failed', `Could not isolate the agent: ${made.error}`)
      if (made) {
        if (!(await stat(made.path).catch(() => null))?.isDirectory()) return notStarted(handle, 'failed', `Could not isolate the agent: the WorktreeCreate hook printed ${made.path}, which is not a folder.`)
        hookWorktree = made.path
        handle.cwd = made.path
        handle.worktree = { path: made.path, branch: '', hookBased: true }
      } else {
        try {
          worktree = await createAgentWorktree({ repoCwd: handle.isolation.repoCwd, agentId: handle.id, agentType: label, description: handle.description ?? label, baseRef: session.worktreeBaseRef?.() })
        } catch (err) {
          return notStarted(handle, 'failed', `Could not isolate the agent: ${err instanceof Error ? err.message : String(err)}`)
        }
        handle.cwd = worktree.cwd
        handle.worktree = { path: worktree.path, branch: worktree.branch }
      }
    }

    await session.claimMailbox(handle)
    const prompt = req.prompt ?? inboxPrompt(handle)
    if (!handle.fork || !handle.systemPrompt) {
      if (!def) return notStarted(handle, 'failed', `Agent ${handle.id} has no definition to run with.`)
      handle.systemPrompt = await session.systemPrompt(def, handle, worktree)
    }
    closeRun = await session.prepareRun?.(handle, def)
    const tools = buildRunTools(session, handle)
    handle.messages = req.recordHistory ? [] : [...req.history]
    handle.status = 'running'
    // SubagentStart runs now and SubagentStop exactly once as the run ends (in finalize, or when a finished agent may stop).
    const hooks = subagentHookRun(session.hooks, handle, (message) => session.emit({ ...ids, ts: Date.now(), type: 'error', message, retrying: false }), () => session.teammateOf?.(handle) ?? null)
    const hookContext = [...(handle.startNotes ?? []).map(reminder), ...(await hooks.start())]

    let finished: ChildResult['worktree']
    const emit = eventFilter(session, handle, req)
    const stall = handle.background ? watchStall(session, handle, emit.markStalled) : null
    const result: AgentRunResult = await runAgent(
      {
        ...ids,
        agentType: label,
        ...(handle.description ? { description: handle.description } : {}),
        depth: handle.depth,
        ...(def?.color ? { color: def.color } : {}),
        ...(handle.background ? { background: true } : {}),
        ...(handle.name ? { name: handle.name } : {}),
        ...(worktree ? { worktree: { path: worktree.path, branch: worktree.branch } } : hookWorktree ? { worktree: { path: hookWorktree, branch: '' } } : {}),
        client: session.client,
        model: handle.model,
        // A handle reloaded after a restart has no effort of its own: its definition's still applies.
        ...effortRequest(handle.model, handle.effort ?? def?.effort, { thinking: session.thinking }),
        systemPrompt: handle.systemPrompt,
        messages: req.history,
        prompt,
        tools,
        cwd: handle.cwd,
        maxTurns: req.maxTurns,
        signal: abort.signal,
        ...(def?.criticalSystemReminder ? { criticalSystemReminder: def.criticalSystemReminder } : {}),
        canUseTool: session.canUseTool(handle),
        drainInbox: () => [...hookContext.splice(0), ...handle.inbox.splice(0)],
        beforeFinish: hooks.beforeFinish,
        finalize: hooks.finalize(worktree
          ? async () => {
              const done = await finishAgentWorktree({ worktree, agentType: label, description: handle.description ?? label })
              finished = { path: done.path, branch: done.branch, kept: done.kept, ...(done.commit ? { commit: done.commit } : {}), ...(done.error ? { error: done.error } : {}) }
              return { worktree: { path: done.path, branch: done.branch, kept: done.kept, ...(done.commit ? { commit: done.commit } : {}) } }
            }
          : hookWorktree
            ? async () => {
                const path = hookWorktree as string
                // Fanout cannot tell what another VCS holds: the WorktreeRemove hook decides; without one the folder stays.
                const removed = await session.hooks?.worktreeRemove(handle, path)
                const error = !removed ? `no WorktreeRemove hook is configured, so the folder ${path} made by the WorktreeCreate hook was kept` : 'error' in removed ? `${removed.error}; the folder ${path} was kept` : undefined
                if (!error) handle.worktree = undefined
                finished = { path, branch: '', kept: Boolean(error), ...(error ? { error } : {}) }
                return { worktree: { path, branch: '', kept: Boolean(error) } }
              }
            : undefined)
      },
      emit.emit
    )
    stall?.()
    const out: ChildResult = { ...result, ...(finished ? { worktree: finished } : {}) }
    if (emit.stalledAfter !== null) {
      out.status = 'failed'
      out.error = stallMessage(emit.stalledAfter)
    }
    return out
  } finally {
    release?.()
    unlink()
    await closeRun?.().catch((err: unknown) => session.onError(new Error(`Closing the MCP servers of agent ${handle.id} failed: ${err instanceof Error ? err.message : String(err)}`)))
  }
}

/** The agent's tools; a fork's follow its parent's list (see forkToolList). */
function buildRunTools(session: SessionContext, handle: AgentHandle) {
  const own = session.buildTools(handle, handle.toolNames ?? [])
  const parent = handle.fork && handle.parentId ? session.registry.get(handle.parentId) : undefined
  return parent ? forkToolList(session.buildTools(parent, parent.toolNames ?? []), own) : own
}

const stallMessage = (ms: number) => `The background agent showed no activity for ${seconds(ms)} and was stopped (its stall timeout); its output so far is kept.`

/**
 * The run's events on their way to the session: a fork's inherited history is recorded right after its
 * agent_start, and a stalled background agent ends as `failed` (with its last output) rather than `stopped`.
 */
function eventFilter(session: SessionContext, handle: AgentHandle, req: RunRequest) {
  const state = {
    stalledAfter: null as number | null,
    markStalled: (ms: number) => {
      state.stalledAfter = ms
    },
    emit: (event: AgentEvent) => {
      if (event.type === 'agent_end' && state.stalledAfter !== null) {
        session.emit({ ...event, status: 'failed', error: stallMessage(state.stalledAfter) })
        return
      }
      session.emit(event)
      if (event.type === 'agent_start' && req.recordHistory) {
        for (const message of req.history) session.emit({ agentId: event.agentId, parentAgentId: event.parentAgentId, parentToolUseId: event.parentToolUseId, sessionId: event.sessionId, ts: Date.now(), type: 'message', message })
      }
    }
  }
  return state
}

/** Stops a background agent that emits nothing for `backgroundStallMs`. Returns the function that ends the watch. */
function watchStall(session: SessionContext, handle: AgentHandle, onStall: (ms: number) => void): (() => void) | null {
  const limit = session.backgroundStallMs
  if (!Number.isFinite(limit) || limit <= 0) return null
  handle.lastEventAt = Date.now()
  const timer = setInterval(
    () => {
      const quiet = Date.now() - handle.lastEventAt
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
