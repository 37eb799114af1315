// Differential: what reaches the Messages API. The "Available agent types" lines of project agents read as
// Claude Code's do, and the request settings (model, max_tokens, thinking type, output_config.effort) are the
// same for the main agent and for subagents, with no effort set, with --effort, with a definition's own
// effort and model, and with effortLevel in .claude/settings.json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RecordedRequest } from '../../src/main/runtime/model/scripted'
import { claudeCode } from './claude-code'
import { agentListingLines, cleanupRuns, conversation, runSide, type Scenario, type SideResult } from './harness'
import { LISTING_SCENARIO, REQUEST_SCENARIO } from './scenarios'

const cc = claudeCode()

/** Built-in agents differ on purpose (docs/claude-code-differences.md); project agents must read the same. */
const PROJECT_AGENTS = ['anything', 'lead', 'no-web', 'quoted', 'reader']

const who = (req: RecordedRequest) => {
  const t = conversation(req)
  return t.includes('MAIN TASK')
    ? 'main'
    : t.includes('PLAIN TASK')
      ? 'plain'
      : t.includes('CAREFUL TASK')
        ? 'careful'
        : t.includes('LEAD TASK')
          ? 'lead'
          : 'other'
}
/** The settings of each agent's first request, in the order the agents first called. */
const settings = (r: SideResult) => {
  const out: Record<string, unknown> = {}
  for (const q of r.requests) {
    const w = who(q)
    out[w] ??= { model: q.body.model, max_tokens: q.body.max_tokens, thinking: q.body.thinking?.type, output_config: q.body.output_config }
  }
  return out
}

const both = (s: Scenario) => Promise.all([runSide('claude-code', s), runSide('fanout', s)])

let listing: SideResult[]
let runs: Record<string, SideResult[]>

describe.skipIf(!cc.path)(`requests under Claude Code and Fanout${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  beforeAll(async () => {
    const withEffort = { ...REQUEST_SCENARIO, args: [...REQUEST_SCENARIO.args!, '--effort', 'high'] }
    const fromSettings = { ...REQUEST_SCENARIO, settings: { effortLevel: 'low' } }
    const [l, plain, flag, file] = await Promise.all([both(LISTING_SCENARIO), both(REQUEST_SCENARIO), both(withEffort), both(fromSettings)])
    listing = l
    runs = { 'no effort set': plain, '--effort high': flag, 'effortLevel: low in .claude/settings.json': file }
    for (const r of [...l, ...plain, ...flag, ...file]) expect(r.code, `${r.side}: ${r.stderr}`).toBe(0)
  }, 240_000)
  afterAll(cleanupRuns)

  it("project agents' listing lines are Claude Code's, in the same order", () => {
    const [claude, fanout] = listing.map((r) => agentListingLines(r.requests.find((q) => who(q) === 'main')!))
    const project = (lines: string[]) => lines.filter((l) => PROJECT_AGENTS.some((n) => l.startsWith(`- ${n}: `)))
    expect(project(claude)).toHaveLength(PROJECT_AGENTS.length)
    expect(project(fanout)).toEqual(project(claude))
  })

  it('an agent whose tools allow only Agent(Explore) is offered only Explore (Claude Code offers it no listing at all)', () => {
    const [claude, fanout] = listing.map((r) => r.requests.find((q) => who(q) === 'lead')!)
    expect(claude.toolNames).toContain('Agent')
    expect(agentListingLines(claude)).toEqual([])
    expect(fanout.toolNames).toContain('Agent')
    expect(agentListingLines(fanout).map((l) => l.split(':')[0])).toEqual(['- Explore'])
  })

  it('model, max_tokens, thinking and effort are the same for every agent', () => {
    for (const [what, [claude, fanout]] of Object.entries(runs)) expect(settings(fanout), what).toEqual(settings(claude))
    // What they are, so a change on either side is seen here first.
    expect(settings(runs['no effort set'][0])).toEqual({
      main: { model: 'claude-opus-5-5', max_tokens: 128_000, thinking: 'adaptive', output_config: { effort: 'medium' } },
      plain: { model: 'claude-opus-5-5', max_tokens: 128_000, thinking: 'adaptive', output_config: { effort: 'medium' } },
      careful: { model: 'claude-sonnet-5-5', max_tokens: 128_000, thinking: 'adaptive', output_config: { effort: 'low' } }
    })
  })
})
