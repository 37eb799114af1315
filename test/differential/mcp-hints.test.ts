// Differential: an MCP tool whose server claims readOnlyHint, called by the main agent in plan mode and in
// default mode under Claude Code and under Fanout (`-p`, nobody to ask). Neither may run it: the hint is the
// server's claim, not a grant. In default mode both deny it and the model relays why; in plan mode Claude Code
// refuses it through its auto-mode check (and ends the run), Fanout with its plan-mode refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reply, type ParsedRequest } from '../../src/main/runtime/model/scripted'
import { stdioServerEntry } from '../../src/main/runtime/mcp/testing/servers'
import { claudeCode } from './claude-code'
import { cleanupRuns, conversation, runBothSides, runSide, type Scenario, type SideResult } from './harness'

const cc = claudeCode()

function respond(req: ParsedRequest) {
  if (!conversation(req).includes('MCP TASK')) return reply.text('ok')
  if (req.turn === 0) return reply.toolUse('mcp__notes__echo', { text: 'ran' })
  return reply.text(`RESULT: ${req.toolResults[0]?.content ?? '(none)'}`)
}

const scenario = (mode: string): Scenario => ({
  files: { '.mcp.json': JSON.stringify({ mcpServers: { notes: stdioServerEntry(['--label', 'notes']) } }) },
  settings: { enabledMcpjsonServers: ['notes'] },
  respond,
  prompt: 'MCP TASK',
  args: ['--output-format', 'json', '--permission-mode', mode]
})

const result = (r: SideResult): string => JSON.parse(r.stdout).result as string

describe.skipIf(!cc.path)(`an MCP tool with readOnlyHint in default mode${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  let claude: SideResult
  let fanout: SideResult
  runBothSides(scenario('default'), (c, f) => ([claude, fanout] = [c, f]))

  it('runs on neither side: both deny it for want of a grant, and say how to give one', () => {
    expect(result(claude)).toMatch(/^RESULT: Claude requested permissions to use mcp__notes__echo, but you haven't granted it yet/)
    expect(result(fanout)).toMatch(/^RESULT: mcp__notes__echo needs approval and this run is headless, so it was denied/)
  })
})

describe.skipIf(!cc.path)(`an MCP tool with readOnlyHint in plan mode${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  let claude: SideResult
  let fanout: SideResult
  beforeAll(async () => {
    ;[claude, fanout] = await Promise.all([runSide('claude-code', scenario('plan')), runSide('fanout', scenario('plan'))])
  }, 180_000)
  afterAll(cleanupRuns)

  it('runs on neither side: Claude Code refuses it (and ends the run), Fanout refuses it as plan mode does', () => {
    // Claude Code 2.1.328 sends plan-mode permission checks to its server-side auto-mode check, which a
    // scripted endpoint does not pass through: it refuses the call and exits 1 (docs/claude-code-differences.md).
    expect(claude.stdout + claude.stderr).not.toContain('notes echo: ran')
    expect(claude.stderr).toMatch(/did not run/)
    expect(fanout.code, fanout.stderr).toBe(0)
    expect(result(fanout)).toMatch(/^RESULT: mcp__notes__echo is not available in plan mode/)
  })
})
