// Compaction asked for by the person: the Compact action on an agent, or `/compact [instructions]`. A running
// agent compacts before its next model request (its loop takes the request); an idle one is compacted now,
// with a run that starts meanwhile waiting until it is done, so its conversation never changes under a run.
import type { EventPayload } from '../../../../shared/events'
import { compactConversation } from '../../compaction/compact'
import { contextOptionsFor } from '../../compaction/context-settings'
import { estimateFixedTokens, estimateMessagesTokens } from '../../compaction/estimate-tokens'
import { compactionHooks } from '../../hooks/wiring'
import { fullModelId } from '../../model/aliases'
import { apiToolSpecs } from '../../loop'
import { repairedHistory } from '../../store/rebuild-conversation'
import type { AgentHandle } from './agent-registry'
import { runTools } from '../spawn/fork'
import { MAIN_DEFINITION } from '../prompts/main-prompt'
import type { SessionContext } from '../types'

/** What compacting an agent needs from its session: the model, the context settings, the agent's prompt, tools and hooks, and where events go. */
export type CompactHost = Pick<
  SessionContext,
  'sessionId' | 'client' | 'aliases' | 'contextSettings' | 'emit' | 'extensions' | 'systemPrompt' | 'registry' | 'tools'
>

export type CompactOutcome = { status: 'scheduled' } | { status: 'compacted'; tokensBefore: number; tokensAfter: number }

export { parseCompactCommand } from '../../../../shared/compact-command'

/**
 * Compacts `handle` (see the file comment). `busy`: whether a run of it is going; `exclusive` runs the
 * compaction so that no run starts before it ends (the main agent's queue, or the subagent's `compacting`).
 */
export async function compactAgent(
  session: CompactHost,
  handle: AgentHandle,
  opts: { instructions?: string; busy: boolean; exclusive: <T>(work: () => Promise<T>) => Promise<T> }
): Promise<CompactOutcome> {
  if (opts.busy) {
    handle.compactRequest = opts.instructions ? { instructions: opts.instructions } : {}
    return { status: 'scheduled' }
  }
  return opts.exclusive(() => compactIdle(session, handle, opts.instructions))
}

/** Compacts an agent that no run is using now (the caller makes sure of it). */
/**
 * Compacts an agent by id or name (`main` or the main agent's id: the main agent, whose own run queue `main`
 * holds it while it compacts); see compactAgent.
 */
export async function compactById(
  session: CompactHost & Pick<SessionContext, 'mainAgentId' | 'main' | 'findAgent' | 'track'>,
  main: { readonly busy: boolean; exclusive<T>(work: () => Promise<T>): Promise<T> },
  agentId: string,
  instructions?: string
): Promise<CompactOutcome> {
  const isMain = agentId === session.mainAgentId || agentId === 'main'
  // A live agent is found without waiting, so that the compaction holds it before anything else can start a run.
  const handle = isMain ? session.main.getHandle() : (session.registry.find(agentId) ?? (await session.findAgent(agentId)))
  if (!handle) throw new Error(`There is no agent '${agentId}' in this session.`)
  const opts = instructions ? { instructions } : {}
  if (isMain) return compactAgent(session, handle, { ...opts, busy: main.busy, exclusive: (work) => main.exclusive(work) })
  return compactAgent(session, handle, {
    ...opts,
    busy: handle.run !== null || handle.compacting !== undefined,
    exclusive: (work) => {
      const done = work()
      handle.compacting = done
      const clear = () => {
        if (handle.compacting === done) handle.compacting = undefined
      }
      done.then(clear, clear)
      session.track(done)
      return done
    }
  })
}

export async function compactIdle(session: CompactHost, handle: AgentHandle, instructions: string | undefined): Promise<CompactOutcome> {
  const messages = repairedHistory(handle.messages)
  if (messages.filter((m) => m.role === 'assistant').length < 1) throw new Error(`Agent ${handle.id} has no conversation to compact yet.`)
  // A reopened session's agent may hold the alias it was configured with; the API takes only a full id.
  handle.model = fullModelId(handle.model, session.aliases)
  const def = handle.definition ?? MAIN_DEFINITION
  const system = handle.systemPrompt ?? (await session.systemPrompt(def, handle))
  // The tools its requests carry (a fork's are its parent's list), so the summary request's prefix is the cached one.
  const tools = apiToolSpecs(runTools(session, handle, handle.toolNames ?? []))
  const options = contextOptionsFor(handle.model, session.contextSettings, { baseURL: session.client.baseURL })
  const hooks = compactionHooks(session.extensions.hooks, handle)
  const fixed = estimateFixedTokens(system, tools)
  const ids = { agentId: handle.id, parentAgentId: handle.parentId, parentToolUseId: handle.parentToolUseId, sessionId: session.sessionId }
  const emit = (payload: EventPayload) => session.emit({ ...ids, ts: Date.now(), ...payload } as Parameters<CompactHost['emit']>[0])
  // Stopping the agent (its Stop button) stops the compaction too.
  const abort = new AbortController()
  if (handle.run === null && handle.abort.signal.aborted) handle.abort = abort
  const stop = () => abort.abort()
  handle.abort.signal.addEventListener('abort', stop, { once: true })
  let failure: string | undefined
  const tokensBefore = fixed + estimateMessagesTokens(messages)
  try {
    const next = await compactConversation(messages, {
      trigger: 'manual',
      tokensBefore,
      keepTokens: options.keepTokens,
      fixedTokens: fixed,
      ...(hooks ? { hooks } : {}),
      emit: (payload) => {
        if (payload.type === 'compaction' && payload.error) failure = payload.error
        emit(payload)
      },
      summarizer: {
        client: session.client,
        model: handle.model,
        system,
        tools,
        window: options.limits.window,
        maxTokens: options.summaryMaxTokens,
        ...(instructions ? { instructions } : {}),
        signal: abort.signal,
        calibration: { scale: 1 },
        onUsage: (usage, model) => emit({ type: 'usage', usage, model, purpose: 'compaction' })
      }
    })
    if (!next) throw new Error(failure ?? 'Compaction failed.')
    return { status: 'compacted', tokensBefore, tokensAfter: fixed + estimateMessagesTokens(next) }
  } finally {
    handle.abort.signal.removeEventListener('abort', stop)
  }
}
