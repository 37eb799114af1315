// Batches runtime events for a UI sink (an Electron webContents, a WebSocket): about one send per frame,
// with consecutive deltas of the same agent merged into one event, so 16 agents streaming 50 deltas a
// second cost the renderer ~16 small events per frame instead of 800. Events that change what an agent
// *is doing* (start, end, status, permission, tool run/end, error) are sent at once, together with whatever
// text preceded them, so a status never waits behind text and order is kept.
// With many agents streaming at once, a batch gathers for two frames instead of one. The page applies what came
// at the next animation frame, and most of what a frame of the overview costs is paid once per frame whatever
// changed (applying the events, React's renders, the lifecycle's walks of the page): a batch every other frame
// leaves every other frame with nothing to do. In the UI bench (64 agents, 50 deltas a second each, a 2-core
// machine), three interleaved pairs: the renderer's main thread 488-570 ms/s against 690-710, its whole process
// 797-948 against 1128-1151, p95 frame 16.7 ms in two of three against 33.3 in all, and event→painted p95 no
// worse (76-93 against 77-113 ms): the text waits up to a frame more, and the frames that draw it wait less.
// With few agents streaming a frame costs little, and text keeps its one-frame pace.
// Pure (no Node, no Electron): both adapters share it. Lives in src/shared because src/main/web may not
// import src/main/ipc.
import type { AgentEvent, AgentEventType } from './events'

export const IMMEDIATE_EVENT_TYPES: ReadonlySet<AgentEventType> = new Set<AgentEventType>([
  'agent_start',
  'agent_end',
  'status',
  'permission_request',
  'permission_response',
  'tool_run',
  'tool_end',
  'error',
  // "Waiting for the model" starts now; the reply's first text must not overtake it (order is kept anyway).
  'model_request'
])

type Delta = Extract<AgentEvent, { type: 'text_delta' | 'thinking_delta' | 'tool_input_delta' }>

function isDelta(e: AgentEvent): e is Delta {
  return e.type === 'text_delta' || e.type === 'thinking_delta' || e.type === 'tool_input_delta'
}

function sameStream(a: AgentEvent, b: Delta): a is Delta {
  if (a.type !== b.type || a.sessionId !== b.sessionId) return false
  return a.type !== 'tool_input_delta' || a.toolUseId === (b as Extract<Delta, { type: 'tool_input_delta' }>).toolUseId
}

export interface EventPumpOptions {
  /** Receives each batch; called once per flush, never with an empty batch. */
  send(batch: AgentEvent[]): void
  /** How long a batch may gather; ~one frame. */
  intervalMs?: number
  /** How long it may gather while many agents stream (more than `busyStreams` in the last batch the timer sent); ~two frames. */
  busyIntervalMs?: number
  /** Agents streaming in one batch above which the next gathers for `busyIntervalMs`. */
  busyStreams?: number
  /** Timer injection for tests; returns a cancel function. */
  schedule?: (fn: () => void, ms: number) => () => void
  /** A batch this large is sent without waiting (a replay, a burst). */
  maxBatch?: number
}

export interface EventPump {
  /**
   * Queues events. An empty list is a barrier: what is queued is sent now, so no merged delta spans the
   * moment (a session opened mid-stream is joined to the live events there, see sessions.open).
   */
  push(events: AgentEvent | readonly AgentEvent[]): void
  /** Sends whatever is queued now. */
  flush(): void
  /** Flushes, then ignores further events. */
  close(): void
}

const defaultSchedule = (fn: () => void, ms: number): (() => void) => {
  const t = setTimeout(fn, ms)
  return () => clearTimeout(t)
}

/** Agents streaming at once above which a batch gathers for two frames; the page's "many" too (text-cadence.ts). */
export const BUSY_STREAMS = 12

export function createEventPump(options: EventPumpOptions): EventPump {
  const intervalMs = options.intervalMs ?? 16
  const busyIntervalMs = options.busyIntervalMs ?? 33
  const busyStreams = options.busyStreams ?? BUSY_STREAMS
  const schedule = options.schedule ?? defaultSchedule
  const maxBatch = options.maxBatch ?? 5000
  let queue: AgentEvent[] = []
  // Index in `queue` of each agent's latest event: only a delta directly after a delta of the same
  // stream (for that agent) is merged, so an agent's own order is never changed.
  let tailByAgent = new Map<string, number>()
  // Merged events are our own copies and may be extended in place; originals are never mutated.
  let owned = new WeakSet<AgentEvent>()
  let cancelTimer: (() => void) | null = null
  let closed = false
  // Agents with deltas since the timer last sent a batch, and whether that batch had many. Counted from timer to
  // timer: a status sent at once carries a part of a batch, which says nothing of how many stream.
  let streams = new Set<string>()
  let busy = false

  function flush(byTimer = false): void {
    if (cancelTimer) {
      cancelTimer()
      cancelTimer = null
    }
    if (!queue.length) return
    const batch = queue
    queue = []
    tailByAgent = new Map()
    owned = new WeakSet()
    if (byTimer) {
      busy = streams.size > busyStreams
      streams = new Set()
    }
    options.send(batch)
  }

  function add(e: AgentEvent): void {
    if (isDelta(e)) {
      const key = `${e.sessionId}\u0000${e.agentId}`
      const idx = tailByAgent.get(key)
      const prev = idx === undefined ? undefined : queue[idx]
      if (prev && sameStream(prev, e)) {
        const field = e.type === 'tool_input_delta' ? 'partialJson' : 'text'
        const addition = (e as any)[field] as string
        let merged = prev as AgentEvent
        if (owned.has(prev)) (prev as any)[field] += addition
        else {
          merged = { ...prev, [field]: (prev as any)[field] + addition } as AgentEvent
          owned.add(merged)
          queue[idx!] = merged
        }
        if (e.seq !== undefined) merged.seq = e.seq // the last delta's place in the stream (EventBase.seq)
        return
      }
      // Counted where a stream's delta joins the queue: one merged into it was counted with the first.
      streams.add(key)
      queue.push(e)
      tailByAgent.set(key, queue.length - 1)
      return
    }
    queue.push(e)
    tailByAgent.set(`${e.sessionId}\u0000${e.agentId}`, queue.length - 1)
  }

  return {
    push(events) {
      if (closed) return
      const list = Array.isArray(events) ? events : [events as AgentEvent]
      let urgent = list.length === 0
      for (const e of list) {
        add(e)
        if (IMMEDIATE_EVENT_TYPES.has(e.type)) urgent = true
      }
      if (urgent || queue.length >= maxBatch) flush()
      else if (queue.length && !cancelTimer) {
        cancelTimer = schedule(
          () => {
            cancelTimer = null
            flush(true)
          },
          busy ? busyIntervalMs : intervalMs
        )
      }
    },
    flush: () => flush(),
    close() {
      flush()
      closed = true
    }
  }
}
