// The UI benchmark's event source: a RuntimeHost that is the real host for everything (workspace,
// settings, sessions, agents) except that `session.start` begins a synthetic fan-out: a main agent that
// starts N subagents, each of which then streams text deltas at a fixed rate when the bench says go.
// Every delta ends with a `‹seq›` marker and its send time is kept, so the page can tell when each one
// reached the screen. A synthetic source is what a measurement needs: a steady, known load.
import { randomUUID } from 'node:crypto'
import type { AgentEvent, EventPayload } from '../src/shared/events'
import type { HostHandlers, RuntimeHost } from '../src/shared/host'
import type { HostNotice, SessionSummary } from '../src/shared/ipc-contract'
import { HostListeners } from '../src/main/runtime/host/host-listeners'
import { changesSessionRow } from '../src/main/runtime/host/live-sessions'
import { createSessionRecorder, type SessionRecorder } from '../src/main/runtime/store'
import { hostNow } from './ui-clock'

export interface StreamPlan {
  agents: number
  deltasPerSecond: number
  /**
   * A data folder to record every event in, as browser mode's host does in the same process (transcripts,
   * the session's index and view fold): the runtime's own work shares the machine with the page.
   */
  recordTo?: string
  /**
   * How the main agent's reply brings the Agent calls, as a model writes them: its first token after
   * `firstTokenMs`, then one call after another, `callsPerSecond`, each subagent started as its call has
   * streamed whole (as the runtime starts them: loop/early-calls.ts). Without it, every call and every
   * subagent's start come at once with the session's first events, which no model's reply does: the worst case.
   * Paced, each subagent's own reply also begins `firstTokenMs` after its start, as its model call answers; at
   * once, every subagent's reply begins when the bench says go.
   */
  reply?: { firstTokenMs: number; callsPerSecond: number }
}

export interface StreamRun {
  /** Per agent id, the epoch ms each delta (by seq) was handed to the event pump. */
  sent: Record<string, number[]>
  durationMs: number
}

const COLORS = ['blue', 'green', 'purple', 'orange', 'pink', 'cyan', 'yellow', 'red']
const WORDS = 'the parser reads each token and the lexer keeps its position so that errors can say where they happened while callers'.split(' ')

/** A delta of realistic shape: a few words, sometimes inline code or bold, a paragraph break now and then. */
function deltaText(seq: number): string {
  const n = 2 + (seq % 3)
  const words = Array.from({ length: n }, (_, i) => WORDS[(seq * 7 + i * 3) % WORDS.length])
  if (seq % 11 === 5) words[0] = `\`${words[0]}()\``
  if (seq % 13 === 7) words[1] = `**${words[1]}**`
  const end = seq % 40 === 39 ? '\n\n' : seq % 97 === 50 ? '\n\n- ' : ' '
  return ` ${words.join(' ')} ‹${seq}›${end}`
}

export class StreamHost implements RuntimeHost {
  private readonly listeners = new HostListeners()
  private session: { id: string; mainId: string; childIds: string[]; cwd: string; title: string; createdAt: number } | null = null
  private timers: Array<ReturnType<typeof setInterval>> = []
  private recorder: SessionRecorder | null = null
  /** What the session's row says, as the real host keeps it: its agents and the cost of their model calls so far. */
  private row = { agents: new Set<string>(), costUsd: 0 }
  /** Epoch ms when the fan-out's start burst began (every agent's start events, one after another). */
  burstAt = 0
  /** Each subagent's stream: when it began (performance.now(); unset until then), when each of its deltas was sent, and when it has ended. */
  private streams = new Map<string, { sent: number[]; firstAt?: number; ended: Promise<void>; end: () => void }>()
  /** When every stream ends (performance.now()); none ends before `stream` sets it. */
  private endAt = Number.POSITIVE_INFINITY
  /** The real host's handlers, but for the list, starting a session and stopping an agent. */
  readonly handlers: HostHandlers

  constructor(
    private readonly inner: RuntimeHost,
    private readonly plan: StreamPlan
  ) {
    this.handlers = {
      // Everything the real host serves (as its header says), but for the three below.
      ...this.inner.handlers,
      'agent.stop': async () => ({}),
      'sessions.list': async (r) => {
        const { sessions } = await this.inner.handlers['sessions.list'](r)
        return { sessions: this.session ? [this.summary(), ...sessions] : sessions }
      },
      'session.start': async ({ prompt, cwd }) => {
        const id = randomUUID()
        const mainId = `main-${id.slice(0, 8)}`
        const childIds = Array.from({ length: this.plan.agents }, (_, i) => `agent-${i + 1}-${id.slice(0, 6)}`)
        this.session = { id, mainId, childIds, cwd, title: prompt.split('\n')[0].slice(0, 80), createdAt: Date.now() }
        this.row = { agents: new Set(), costUsd: 0 }
        this.endAt = Number.POSITIVE_INFINITY
        this.streams = new Map(
          childIds.map((child) => {
            let end = () => {}
            const ended = new Promise<void>((resolve) => (end = resolve))
            return [child, { sent: [], ended, end }]
          })
        )
        // Its row, as the real host sends it when it adopts the session (live-sessions.ts).
        this.notify({ type: 'session_updated', session: this.summary() })
        if (this.plan.recordTo) this.recorder = createSessionRecorder({ dataDir: this.plan.recordTo, sessionId: id, cwd, title: this.session.title })
        // After the answer, as the real host does: the renderer marks the session live when it gets the id.
        setTimeout(() => this.fanOut(prompt), 0)
        return { sessionId: id }
      }
    }
  }

  onEvents(listener: (events: AgentEvent[]) => void): () => void {
    return this.listeners.onEvents(listener)
  }

  onNotice(listener: (notice: HostNotice) => void): () => void {
    return this.listeners.onNotice(listener)
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t)
    await this.recorder?.close()
    await this.inner.close()
  }

  get childIds(): string[] {
    return this.session?.childIds ?? []
  }

  /**
   * Streams until `seconds` from now: every agent sends `deltasPerSecond` deltas. Paced, each agent's reply
   * began `firstTokenMs` after its start (so some may not have begun yet); at once, they begin now, staggered
   * across one interval.
   */
  async stream(seconds: number): Promise<StreamRun> {
    const s = this.session
    if (!s) throw new Error('No session was started: submit a prompt first.')
    const called = performance.now()
    this.endAt = called + seconds * 1000
    if (!this.plan.reply) s.childIds.forEach((_, i) => this.timers.push(setTimeout(() => this.beginStreaming(i), (i * this.period) / s.childIds.length)))
    await Promise.all([...this.streams.values()].map((st) => st.ended))
    const sent = Object.fromEntries([...this.streams.entries()].map(([id, st]) => [id, st.sent]))
    // From the first delta sent (paced, during the start burst) to the last.
    const first = Math.min(called, ...[...this.streams.values()].map((st) => st.firstAt ?? called))
    return { sent, durationMs: performance.now() - first }
  }

  /** Agent `i`'s reply: a text delta every interval (now and then its model call's usage) until the stream ends. */
  private beginStreaming(i: number): void {
    const s = this.session!
    const id = s.childIds[i]
    const st = this.streams.get(id)!
    if (st.firstAt !== undefined) return
    st.firstAt = performance.now()
    const t = setInterval(() => {
      if (performance.now() >= this.endAt) {
        clearInterval(t)
        return st.end()
      }
      const seq = st.sent.length
      st.sent.push(hostNow())
      this.emit(id, s.mainId, `toolu_${i}`, { type: 'text_delta', text: deltaText(seq) })
      // Now and then a model call ends, as in a real run: the tile's figures (turn, tokens, cost,
      // context) change with the text.
      if (seq % 100 === 99) {
        const usage = { inputTokens: 900 + seq, outputTokens: 120, cacheReadTokens: 4000 + seq * 8, cacheWriteTokens: 0, costUsd: 0.0009 }
        this.emit(id, s.mainId, `toolu_${i}`, { type: 'usage', usage, model: 'claude-haiku-4-5' })
      }
    }, this.period)
    this.timers.push(t)
  }

  /** The interval between an agent's deltas (ms). */
  private get period(): number {
    return 1000 / this.plan.deltasPerSecond
  }

  /** Ends every agent, so the page settles before the next measurement. */
  finish(): void {
    const s = this.session
    if (!s) return
    const usage = { inputTokens: 1200, outputTokens: 800, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.012 }
    s.childIds.forEach((id, i) => {
      this.emit(id, s.mainId, `toolu_${i}`, {
        type: 'agent_end',
        status: 'completed',
        result: 'Streamed for the benchmark.',
        numTurns: 1,
        toolUses: 0,
        durationMs: 1,
        usage
      })
      this.emit(s.mainId, null, null, {
        type: 'tool_end',
        toolUseId: `toolu_${i}`,
        name: 'Agent',
        isError: false,
        output: 'Streamed for the benchmark.',
        durationMs: 1
      })
    })
    this.emit(s.mainId, null, null, { type: 'agent_end', status: 'completed', result: 'done', numTurns: 2, toolUses: s.childIds.length, durationMs: 1, usage })
  }

  private fanOut(prompt: string): void {
    const s = this.session!
    this.burstAt = hostNow()
    const main = (p: EventPayload) => this.emit(s.mainId, null, null, p)
    main({
      type: 'agent_start',
      agentType: 'general-purpose',
      description: s.title,
      prompt,
      model: 'claude-sonnet-4-5',
      cwd: s.cwd,
      depth: 0,
      tools: ['Agent', 'Read', 'Grep', 'Glob']
    })
    main({ type: 'message', message: { role: 'user', content: prompt } })
    main({ type: 'turn_start', turn: 1 })
    const inputs = s.childIds.map((_, i) => ({ description: `Stream part ${i + 1}`, subagent_type: 'Explore', prompt: `Part ${i + 1} of the benchmark load.` }))
    const pace = this.plan.reply
    if (!pace) {
      main({ type: 'text_delta', text: `I will split this across ${s.childIds.length} parallel agents.` })
      inputs.forEach((input, i) => {
        main({ type: 'tool_start', toolUseId: `toolu_${i}`, name: 'Agent' })
        main({ type: 'tool_run', toolUseId: `toolu_${i}`, name: 'Agent', input })
      })
      s.childIds.forEach((_, i) => this.startChild(i, inputs[i]))
      return
    }
    main({ type: 'model_request', model: 'claude-sonnet-4-5', attempt: 1 })
    // The reply, on a schedule from its first token (not a chain of timers, which would drift later and later).
    const timer = setTimeout(() => {
      this.burstAt = hostNow()
      const t0 = performance.now()
      main({ type: 'text_delta', text: `I will split this across ${s.childIds.length} parallel agents.` })
      let i = 0
      const writeCall = () => {
        const input = inputs[i]
        const id = `toolu_${i}`
        const json = JSON.stringify(input)
        main({ type: 'tool_start', toolUseId: id, name: 'Agent' })
        main({ type: 'tool_input_delta', toolUseId: id, partialJson: json.slice(0, json.length >> 1) })
        main({ type: 'tool_input_delta', toolUseId: id, partialJson: json.slice(json.length >> 1) })
        main({ type: 'tool_run', toolUseId: id, name: 'Agent', input })
        this.startChild(i, input)
        if (++i < inputs.length) this.timers.push(setTimeout(writeCall, Math.max(0, t0 + (i * 1000) / pace.callsPerSecond - performance.now())))
      }
      writeCall()
    }, pace.firstTokenMs)
    this.timers.push(timer)
  }

  /** A subagent's first events, as the runtime sends them when its Agent call starts it. */
  private startChild(i: number, p: { description: string; subagent_type: string; prompt: string }): void {
    const s = this.session!
    const id = s.childIds[i]
    this.emit(id, s.mainId, `toolu_${i}`, {
      type: 'agent_start',
      agentType: p.subagent_type,
      description: p.description,
      prompt: p.prompt,
      model: 'claude-haiku-4-5',
      cwd: s.cwd,
      depth: 1,
      maxTurns: 30,
      color: COLORS[i % COLORS.length],
      tools: ['Read', 'Grep', 'Glob']
    })
    this.emit(id, s.mainId, `toolu_${i}`, { type: 'message', message: { role: 'user', content: p.prompt } })
    this.emit(id, s.mainId, `toolu_${i}`, { type: 'turn_start', turn: 1 })
    // The request is out: the tile waits on the model. Paced, its reply begins after the model's first-token
    // wait, as the calls' starts are spread, so are their replies; at once, when the bench says go.
    this.emit(id, s.mainId, `toolu_${i}`, { type: 'model_request', model: 'claude-haiku-4-5', attempt: 1 })
    const pace = this.plan.reply
    if (pace) this.timers.push(setTimeout(() => this.beginStreaming(i), pace.firstTokenMs))
  }

  private emit(agentId: string, parentAgentId: string | null, parentToolUseId: string | null, payload: EventPayload): void {
    const event = { ...payload, agentId, parentAgentId, parentToolUseId, sessionId: this.session!.id, ts: Date.now() } as AgentEvent
    // One event per call, as the runtime's bus delivers them: the pump does the batching.
    this.recorder?.record(event)
    this.listeners.events([event])
    // The row in the session list, sent again at each event that changes it, as the real host does
    // (live-sessions.ts): at the start burst one per agent, and one per model call's usage.
    if (event.type === 'agent_start') this.row.agents.add(event.agentId)
    if (event.type === 'usage') this.row.costUsd += event.usage.costUsd
    if (changesSessionRow(event)) this.notify({ type: 'session_updated', session: this.summary() })
  }

  private notify(notice: HostNotice): void {
    this.listeners.notify(notice)
  }

  private summary(): SessionSummary {
    const s = this.session!
    return {
      sessionId: s.id,
      title: s.title,
      cwd: s.cwd,
      status: 'running',
      createdAt: s.createdAt,
      updatedAt: Date.now(),
      costUsd: this.row.costUsd,
      agentCount: this.row.agents.size
    }
  }
}
