// Differential: the same settings.json hooks under Claude Code and under Fanout, on one scripted scenario (the
// main agent runs Bash, then starts a subagent of a project agent type that runs Bash and a failing ls, then
// answers). Which hook entries fire for which tool and agent must be the same, and every field Claude Code
// sends must reach Fanout's hooks with the same type (and, where deterministic, the same value).
import { describe, expect, it } from 'vitest'
import { claudeCode } from './claude-code'
import { runBothSides, type RecordedHook, type SideResult } from './harness'
import { HOOKS_SCENARIO } from './scenarios'

const cc = claudeCode()

/**
 * Fields Claude Code sends that Fanout's hooks do not get, each with the reason (docs/claude-code-differences.md).
 * Empty: every field reaches them.
 */
const NOT_SENT: Record<string, string> = {}

/** Fields whose values are per run (ids, paths, times): compared by type only. */
const PER_RUN = new Set(['session_id', 'transcript_path', 'agent_transcript_path', 'prompt_id', 'agent_id', 'tool_use_id', 'duration_ms', 'cwd'])

let claude: SideResult
let fanout: SideResult

const isSub = (h: RecordedHook) => 'agent_id' in h.input
const key = (h: RecordedHook) => `${h.label} ${h.input.tool_name ?? ''} ${isSub(h) ? 'subagent' : 'main'}`

describe.skipIf(!cc.path)(`hooks under Claude Code and Fanout${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  runBothSides(HOOKS_SCENARIO, (c, f) => ([claude, fanout] = [c, f]))

  it('the same hook entries fire for the same tools and agents (a Task matcher runs on the Agent tool)', () => {
    const fired = (r: SideResult) => r.hooks.map(key).sort()
    expect(fired(fanout)).toEqual(fired(claude))
    expect(claude.hooks.filter((h) => h.label === 'PreToolUse:Task').map((h) => h.input.tool_name)).toEqual(['Agent'])
  })

  it("every field Claude Code sends reaches Fanout's hooks, with the same type, and the same value where it is not per run", () => {
    const unmatched = [...fanout.hooks]
    const problems: string[] = []
    for (const c of claude.hooks) {
      const at = unmatched.findIndex((f) => key(f) === key(c))
      if (at < 0) continue // reported by the test above
      const f = unmatched.splice(at, 1)[0]
      for (const [k, v] of Object.entries(c.input)) {
        const where = `${key(c)}: ${k}`
        if (!(k in f.input)) {
          if (!(k in NOT_SENT)) problems.push(`${where} is missing`)
          continue
        }
        if (typeof f.input[k] !== typeof v || Array.isArray(f.input[k]) !== Array.isArray(v))
          problems.push(`${where} is ${JSON.stringify(f.input[k])}, Claude Code sends ${JSON.stringify(v)}`)
        else if (!PER_RUN.has(k) && k !== 'tool_response' && JSON.stringify(f.input[k]) !== JSON.stringify(v))
          problems.push(`${where} is ${JSON.stringify(f.input[k])}, Claude Code sends ${JSON.stringify(v)}`)
      }
      // The main agent's hooks carry no agent_id/agent_type in Claude Code; Fanout must not add them.
      if (!isSub(c))
        for (const k of ['agent_id', 'agent_type'])
          if (k in f.input && !(k in c.input)) problems.push(`${key(c)}: ${k} is sent for the main agent; Claude Code leaves it out`)
      if (c.input.cwd !== claude.project) problems.push(`Claude Code's cwd is not its project (${c.input.cwd})`)
      if (f.input.cwd !== fanout.project) problems.push(`${key(c)}: cwd is ${f.input.cwd}, not the project folder`)
    }
    expect(problems).toEqual([])
  })

  it("tool_response: Bash's is the same object, the Agent tool's has every key of Claude Code's", () => {
    const post = (r: SideResult, tool: string) =>
      r.hooks.filter((h) => h.input.hook_event_name === 'PostToolUse' && h.input.tool_name === tool).map((h) => h.input.tool_response)
    expect(post(fanout, 'Bash')).toEqual(post(claude, 'Bash'))
    expect(post(claude, 'Bash')).toEqual([
      { stdout: 'hi', stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
      { stdout: 'sub', stderr: '', interrupted: false, isImage: false, noOutputExpected: false }
    ])
    const [ccAgent] = post(claude, 'Agent')
    const [foAgent] = post(fanout, 'Agent')
    // Claude Code's bookkeeping of its own prompt harness has no counterpart in Fanout.
    const internal = ['harnessNoteCount', 'harnessTailCount', 'harnessSectionHash', 'toolStats']
    expect(Object.keys(ccAgent).filter((k) => !(k in foAgent) && !internal.includes(k))).toEqual([])
    expect(foAgent).toMatchObject({
      status: 'completed',
      prompt: 'HELPER TASK',
      agentType: 'helper',
      toolsUsed: ['Bash'],
      content: [{ type: 'text', text: 'helper done' }],
      totalToolUseCount: 2
    })
    expect(Object.keys(foAgent.usage).sort()).toEqual(
      expect.arrayContaining(['cache_creation_input_tokens', 'cache_read_input_tokens', 'input_tokens', 'output_tokens'])
    )
  })

  it('PostToolUseFailure gets the error the model saw; SubagentStop and Stop get the last message', () => {
    const fail = (r: SideResult) => r.hooks.find((h) => h.input.hook_event_name === 'PostToolUseFailure')!.input
    expect(fail(claude).error).toMatch(/^Exit code 2\n.*nonexistent-fanout-kit/)
    expect(fail(fanout).error).toContain('nonexistent-fanout-kit')
    expect(fail(fanout).error).toContain('Exit code 2')
    expect(fail(fanout).is_interrupt).toBe(false)
    const last = (r: SideResult, event: string) => r.hooks.find((h) => h.input.hook_event_name === event)!.input.last_assistant_message
    expect(last(fanout, 'SubagentStop')).toBe(last(claude, 'SubagentStop'))
    expect(last(fanout, 'Stop')).toBe(last(claude, 'Stop'))
  })
})
