// Differential: agent files in the YAML shapes people write (yaml-variants.ts, beyond the shared corpus), all
// installed in one project: Claude Code's "Available agent types" listing against Fanout's loader. Every file
// Claude Code loads, Fanout loads with the same line; every file it skips, Fanout skips and says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatAgentLine, loadAgents } from '../../src/main/runtime/definitions'
import { reply } from '../../src/main/runtime/model/scripted'
import { claudeCode } from './claude-code'
import { agentListingLines, cleanupRuns, runSide, type SideResult } from './harness'
import { YAML_VARIANTS } from './yaml-variants'

const cc = claudeCode()
let claude: SideResult

describe.skipIf(!cc.path)(`YAML variants under Claude Code and Fanout${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  beforeAll(async () => {
    const files = Object.fromEntries(YAML_VARIANTS.map((v) => [`.claude/agents/${v.name}.md`, v.text]))
    claude = await runSide('claude-code', { files, respond: () => reply.text('ok'), prompt: 'hi', args: ['--output-format', 'json'] })
    expect(claude.code, claude.stderr).toBe(0)
  }, 120_000)
  afterAll(cleanupRuns)

  it('loads the same files, each listed with the same line; a skipped file says why', async () => {
    const listed = agentListingLines(claude.requests[0])
    const { agents, diagnostics } = await loadAgents({ cwd: claude.project, home: claude.home })
    const rows = YAML_VARIANTS.map((v) => {
      const theirs = listed.find((l) => l.startsWith(`- ${v.name}:`)) ?? null
      const def = agents.find((a) => a.definition.file?.endsWith(`/${v.name}.md`))?.definition
      const why = diagnostics.filter((d) => d.file.endsWith(`/${v.name}.md`) && d.severity === 'error')
      return { name: v.name, claudeCode: theirs, fanout: def ? formatAgentLine(def) : null, said: why.length > 0 }
    })
    const loadedByClaudeCode = rows.filter((r) => r.claudeCode).length
    console.log(
      `YAML variants: ${rows.length}, Claude Code loads ${loadedByClaudeCode}, Fanout reads ${rows.filter((r) => r.claudeCode === r.fanout).length} the same`
    )
    expect(loadedByClaudeCode).toBeGreaterThan(30)
    expect(rows.filter((r) => r.claudeCode !== r.fanout)).toEqual([])
    expect(rows.filter((r) => !r.fanout && !r.said).map((r) => r.name)).toEqual([])
  })
})
