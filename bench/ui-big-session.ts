// A long recorded session for the "open a 100,000-event transcript" figure, written through the store's
// own session recorder so the files are exactly what the app would have on disk. One main agent works
// through many turns; each turn thinks, writes a paragraph, streams and runs a tool call, and records its
// usage. No two deltas of one stream are adjacent, so the recorder keeps every event as written.
import type { AgentEvent, EventPayload } from '../src/shared/events'
import { createSessionRecorder } from '../src/main/runtime/store'

export interface BigSession {
  sessionId: string
  /** The main agent's id (its transcript's name). */
  agentId: string
  title: string
  events: number
  /** Text only the last assistant message contains. */
  lastText: string
}

const TOOLS = ['Read', 'Grep', 'Glob', 'Bash'] as const

function toolInput(name: (typeof TOOLS)[number], turn: number): Record<string, unknown> {
  if (name === 'Read') return { file_path: `src/module-${turn % 120}.ts` }
  if (name === 'Grep') return { pattern: `export function f${turn % 50}`, path: 'src', output_mode: 'content' }
  if (name === 'Glob') return { pattern: `src/**/*${turn % 9}.ts` }
  return { command: `npm test -- module-${turn % 120}`, description: 'Run one module’s tests' }
}

function toolOutput(name: (typeof TOOLS)[number], turn: number): string {
  const lines = Array.from({ length: 12 }, (_, i) => `${String(i + 1).padStart(4)}\texport function f${turn + i}(x: number) { return x * ${i + 2} }`)
  if (name === 'Bash') return `✓ module-${turn % 120} parses\n✓ module-${turn % 120} reports positions\n\n2 passed`
  if (name === 'Glob') return lines.map((_, i) => `src/dir${i}/module-${turn % 9}${i}.ts`).join('\n')
  return lines.join('\n')
}

/**
 * `resumable` names the main agent as the runtime names a session's main agent, so a follow-up prompt
 * continues it; the default keeps the benchmark's files as they have always been.
 */
export async function writeBigSession(opts: { dataDir: string; cwd: string; events: number; resumable?: boolean }): Promise<BigSession> {
  const sessionId = `bench-open-${opts.events}`
  const title = `Long session with ${opts.events.toLocaleString('en-US')} events`
  const recorder = createSessionRecorder({ dataDir: opts.dataDir, sessionId, cwd: opts.cwd })
  const agentId = opts.resumable ? `main-${sessionId.slice(0, 8)}` : 'main-bench-open'
  const startedAt = Date.now() - 48 * 3600_000
  let ts = startedAt
  let count = 0
  let calls = 0
  const emit = (p: EventPayload) => {
    ts += 7
    count++
    recorder.record({ ...p, agentId, parentAgentId: null, parentToolUseId: null, sessionId, ts } as AgentEvent)
  }
  const usage = { inputTokens: 2400, outputTokens: 180, cacheReadTokens: 20_000, cacheWriteTokens: 0, costUsd: 0.0021 }
  const call = () => {
    calls++
    emit({ type: 'usage', usage, model: 'claude-sonnet-4-5-20250929' })
  }
  emit({
    type: 'agent_start',
    agentType: 'general-purpose',
    description: title,
    prompt: title,
    model: 'claude-sonnet-4-5',
    cwd: opts.cwd,
    depth: 0,
    tools: [...TOOLS]
  })
  emit({ type: 'message', message: { role: 'user', content: `${title}: read every module and check its tests.` } })
  // Per turn: 11 events. Leave room for the closing message and agent_end.
  const turns = Math.floor((opts.events - count - 5) / 11)
  for (let turn = 1; turn <= turns; turn++) {
    const name = TOOLS[turn % TOOLS.length]
    const input = toolInput(name, turn)
    const id = `toolu_${turn}`
    const thought = `Module ${turn % 120} next; checking whether its exports match the tests.`
    const text = `**Turn ${turn}.** Module \`module-${turn % 120}\` looks consistent so far: its exports are used by the callers I found, and the tests cover the error paths. Next I ${name === 'Bash' ? 'run its tests' : 'look at the next file'}.`
    const output = toolOutput(name, turn)
    emit({ type: 'turn_start', turn })
    emit({ type: 'thinking_delta', text: thought })
    emit({ type: 'text_delta', text })
    emit({ type: 'tool_start', toolUseId: id, name })
    emit({ type: 'tool_input_delta', toolUseId: id, partialJson: JSON.stringify(input) })
    emit({
      type: 'message',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: thought, signature: 'sig' },
          { type: 'text', text },
          { type: 'tool_use', id, name, input }
        ]
      }
    })
    emit({ type: 'tool_run', toolUseId: id, name, input })
    call()
    emit({ type: 'tool_end', toolUseId: id, name, isError: false, output, durationMs: 40 + (turn % 200) })
    emit({ type: 'message', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] } })
    emit({ type: 'turn_end', turn, stopReason: 'tool_use' })
  }
  const lastText = `All ${turns} turns done: every module checked.`
  emit({ type: 'turn_start', turn: turns + 1 })
  emit({ type: 'text_delta', text: lastText })
  emit({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: lastText }] } })
  while (count < opts.events - 1) call()
  const total = Object.fromEntries(Object.entries(usage).map(([k, v]) => [k, v * calls])) as typeof usage
  emit({ type: 'agent_end', status: 'completed', result: lastText, numTurns: turns + 1, toolUses: turns, durationMs: ts - startedAt, usage: total })
  await recorder.close()
  return { sessionId, agentId, title, events: count, lastText }
}
