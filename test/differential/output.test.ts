// Differential: `-p --output-format json` and `stream-json --verbose` from Claude Code and Fanout on the same
// scenario. Every key Claude Code's result has must be in Fanout's (with the same type), except the ones
// docs/claude-code-differences.md lists; the stream must have the same message kinds (type/subtype), each
// with Claude Code's keys; counts (num_turns, subagent_stats) must agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claudeCode, jsonLines } from './claude-code'
import { cleanupRuns, runSide, type SideResult } from './harness'
import { HOOKS_SCENARIO } from './scenarios'

const cc = claudeCode()

/** Result keys of Claude Code's that Fanout leaves out, and why (each is in docs/claude-code-differences.md). */
export const RESULT_KEYS_NOT_SENT: Record<string, string> = {
  fast_mode_state: 'Claude Code’s fast mode is a claude.ai subscription feature Fanout does not have',
  fast_mode_disabled_reason: 'as fast_mode_state',
  safety_stops: 'counts stops by Claude Code’s own safety classifier, which Fanout does not run',
  ttft_ms: 'Claude Code’s latency telemetry (time to first token)',
  ttft_stream_ms: 'latency telemetry',
  time_to_request_ms: 'latency telemetry',
  first_content_frame_ms: 'latency telemetry',
  queued_turn_count: 'turns queued through stream-json input, which Fanout does not accept',
  result_index: 'results of a streaming-input session, which Fanout does not have',
  model_usage_since_last_result: 'as result_index: one -p run has one result, so it equals modelUsage'
}

/** Keys inside `usage` (Claude Code passes the API's usage object through) that Fanout leaves out. */
const USAGE_KEYS_NOT_SENT = ['output_tokens_details', 'cache_creation', 'inference_geo', 'iterations', 'speed', 'fallback_credit']

/** Stream message keys of Claude Code's that Fanout leaves out, by message kind, and why. */
export const STREAM_KEYS_NOT_SENT: Record<string, Record<string, string>> = {
  'system/init': {
    analytics_disabled: 'Fanout sends no analytics',
    product_feedback_disabled: 'Fanout has no feedback channel',
    capabilities: 'protocol capabilities of Claude Code’s SDK host channel',
    memory_paths: 'Claude Code’s auto-memory folder; Fanout’s agent memory is per agent (agents/*.md `memory:`)',
    original_cwd: 'equals cwd: Fanout’s main agent does not change folders',
    additional_directories: 'Fanout reads additionalDirectories from the settings files, but has no --add-dir',
    messaging_socket_path: 'Claude Code’s cross-session messaging socket',
    fast_mode_state: 'no fast mode',
    fast_mode_disabled_reason: 'no fast mode',
    per_turn_effort_active: 'Claude Code’s per-turn effort control',
    ultrathink_available: 'Claude Code’s “ultrathink” keyword',
    ultrathink_typed_raises: 'as ultrathink_available',
    view_mode: 'Claude Code’s terminal view mode',
    terminal_slash_commands: 'Claude Code’s commands that only a terminal can run; Fanout lists no terminal-only command'
  },
  assistant: { request_id: 'the API request id is not kept per message' },
  user: { tool_result_meta: 'Claude Code’s internal bookkeeping of tool results' },
  'system/task_started': { run_id: 'Claude Code’s id of one run of a task; Fanout’s task_id is the agent id' },
  'system/task_progress': { run_id: 'as task_started' },
  'system/task_updated': { run_id: 'as task_started' },
  'system/task_notification': { run_id: 'as task_started' }
}

/** Message kinds Claude Code prints that Fanout does not, and why. */
const KINDS_NOT_SENT: Record<string, string> = {
  'system/hook_started': 'SessionStart hooks: Fanout does not run SessionStart (docs/claude-code-differences.md)',
  'system/hook_response': 'as hook_started'
}

/** Message kinds only Fanout prints (docs/budgets.md), left out of the comparison of order. */
const FANOUT_ONLY_KINDS = new Set(['system/fanout_estimate', 'system/budget_warning', 'system/budget_reached'])

const kind = (l: Record<string, unknown>) => (l.subtype && l.type !== 'result' ? `${l.type}/${l.subtype}` : String(l.type))
const typeOf = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v)

let json: { claude: SideResult; fanout: SideResult }
let stream: { claude: SideResult; fanout: SideResult }

describe.skipIf(!cc.path)(`json and stream-json under Claude Code and Fanout${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  beforeAll(async () => {
    const streamed = { ...HOOKS_SCENARIO, args: ['--model', 'opus', '--output-format', 'stream-json', '--verbose'] }
    const [a, b, c, d] = await Promise.all([
      runSide('claude-code', HOOKS_SCENARIO),
      runSide('fanout', HOOKS_SCENARIO),
      runSide('claude-code', streamed),
      runSide('fanout', streamed)
    ])
    json = { claude: a, fanout: b }
    stream = { claude: c, fanout: d }
    for (const r of [a, b, c, d]) expect(r.code, `${r.side}: ${r.stderr}`).toBe(0)
  }, 180_000)
  afterAll(cleanupRuns)

  it("json: Fanout's result has every key of Claude Code's with the same type, and the same counts", () => {
    const c = JSON.parse(json.claude.stdout)
    const f = JSON.parse(json.fanout.stdout)
    const problems: string[] = []
    for (const [k, v] of Object.entries(c)) {
      if (!(k in f)) {
        if (!(k in RESULT_KEYS_NOT_SENT)) problems.push(`${k} is missing`)
      } else if (typeOf(f[k]) !== typeOf(v) && !(v === null && k === 'api_error_status'))
        problems.push(`${k} is ${typeOf(f[k])}, Claude Code's is ${typeOf(v)}`)
    }
    for (const k of Object.keys(c.usage)) if (!(k in f.usage) && !USAGE_KEYS_NOT_SENT.includes(k)) problems.push(`usage.${k} is missing`)
    const [ccModel] = Object.values(c.modelUsage) as Array<Record<string, unknown>>
    const [foModel] = Object.values(f.modelUsage) as Array<Record<string, unknown>>
    for (const k of [
      'inputTokens',
      'outputTokens',
      'cacheReadInputTokens',
      'cacheCreationInputTokens',
      'webSearchRequests',
      'costUSD',
      'contextWindow',
      'maxOutputTokens'
    ]) {
      if (!(k in ccModel)) problems.push(`Claude Code's modelUsage has no ${k} any more`)
      if (!(k in foModel)) problems.push(`modelUsage.${k} is missing`)
    }
    for (const k of Object.keys(c.subagent_stats)) if (!(k in f.subagent_stats)) problems.push(`subagent_stats.${k} is missing`)
    expect(problems).toEqual([])
    for (const k of ['type', 'subtype', 'is_error', 'num_turns', 'result', 'stop_reason', 'terminal_reason', 'permission_denials'])
      expect(f[k], k).toEqual(c[k])
    expect(f.subagent_stats).toMatchObject(c.subagent_stats)
    expect(Object.keys(f.modelUsage)).toEqual(Object.keys(c.modelUsage))
  })

  it('stream-json: the same kinds of message in the same order, each with every key of Claude Code’s', () => {
    const c = jsonLines(stream.claude.stdout, 'Claude Code stream')
    const f = jsonLines(stream.fanout.stdout, 'Fanout stream')
    // Progress lines come as the subagent works: their number may differ; their place in the order may not.
    const order = (lines: Array<Record<string, unknown>>) =>
      lines
        .map(kind)
        .filter((k) => !(k in KINDS_NOT_SENT) && !FANOUT_ONLY_KINDS.has(k))
        .filter((k, i, all) => k !== 'system/task_progress' || all[i - 1] !== k)
    expect(order(f)).toEqual(order(c))
    const problems: string[] = []
    // Compared with the same kind of line from the same kind of agent (a subagent's lines carry more keys).
    const isResult = (l: Record<string, any>) => Array.isArray(l.message?.content) && l.message.content.some((b: { type?: string }) => b.type === 'tool_result')
    const whose = (l: Record<string, unknown>) => `${kind(l)}${l.agent_id ? ' (subagent)' : ''}${isResult(l) ? ' (tool result)' : ''}`
    const byKind = new Map<string, Array<Record<string, unknown>>>()
    for (const l of f) byKind.set(whose(l), [...(byKind.get(whose(l)) ?? []), l])
    for (const l of c) {
      const k = kind(l)
      if (k in KINDS_NOT_SENT) continue
      const mine = byKind.get(whose(l))?.[0]
      if (!mine) continue
      for (const key of Object.keys(l))
        if (!(key in mine) && !(key in (STREAM_KEYS_NOT_SENT[k] ?? {})) && !(k === 'result' && key in RESULT_KEYS_NOT_SENT))
          problems.push(`${whose(l)}: ${key} is missing`)
    }
    expect([...new Set(problems)]).toEqual([])
    // A subagent's messages say whose they are, as in Claude Code.
    const sub = (lines: Array<Record<string, any>>) => lines.find((l) => l.type === 'assistant' && l.parent_tool_use_id)
    expect(Object.keys(sub(f)!).sort()).toEqual(expect.arrayContaining(['agent_id', 'parent_tool_use_id', 'subagent_type', 'task_description']))
    expect(sub(f)!.subagent_type).toBe(sub(c)!.subagent_type)
  })
})
