// Fanout against Claude Code on ~590 real agent files (../shared/corpus, see its README): each file is
// installed alone in an empty project's .claude/agents under the name Claude Code saw, loaded through the
// full loader, and compared with what Claude Code listed for it (name, description trimmed, tools string),
// or with its absence where Claude Code skipped the file.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { formatAgentLine, formatToolsForListing, loadAgents } from '../src/main/runtime/definitions'

const corpus = process.env.FANOUT_CORPUS_DIR ?? resolve(__dirname, '../../shared/corpus')
const expectedFile = join(corpus, 'expected/claude-code-listing.jsonl')
const haveCorpus = existsSync(expectedFile)

interface Expected {
  file: string
  installed_as: string
  claude_code: { name: string; description: string; tools: string } | null
}

/** Corpus files where Fanout deliberately reads differently from Claude Code, and why. None so far. */
const DELIBERATE: Record<string, string> = {}

/** Deliberate differences that no corpus file exercises (each is tested in src/main/runtime/definitions). */
const DIFFERENCES_OUTSIDE_CORPUS = [
  'a UTF-8 BOM before the opening --- is ignored (Claude Code finds no frontmatter and skips the file)',
  "CRLF files get the same YAML repair as LF files (Claude Code's line regex never matches a line ending in \\r)",
  'an empty `tools:` spawns the agent with all tools, as the listing says (Claude Code lists "All tools" but spawns it with none)',
  'files over 1 MB, frontmatter over 64 KB and YAML nested over 64 levels are refused with a diagnostic instead of being parsed (Claude Code tries to parse them)'
]

const tmp = mkdtempSync(join(tmpdir(), 'fanout-corpus-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe.skipIf(!haveCorpus)('Claude Code corpus', () => {
  it('loads the same files as Claude Code, with the same name, description and tools for at least 99%', async () => {
    const rows: Expected[] = readFileSync(expectedFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(rows.length).toBeGreaterThan(500)
    const home = join(tmp, 'home')
    mkdirSync(home)
    const mismatches: { file: string; got: unknown; want: unknown }[] = []
    const loadedDiffers: string[] = []
    let same = 0
    for (const [i, row] of rows.entries()) {
      const project = join(tmp, `p${i}`)
      mkdirSync(join(project, '.claude/agents'), { recursive: true })
      const installed = join(project, '.claude/agents', row.installed_as)
      writeFileSync(installed, readFileSync(join(corpus, row.file)))
      const { agents, diagnostics } = await loadAgents({ cwd: project, home })
      const mine = agents.find((a) => a.definition.file === installed)?.definition
      if (Boolean(mine) !== Boolean(row.claude_code)) loadedDiffers.push(row.file)
      // A skipped file always says why, at the file.
      if (!mine)
        expect(
          diagnostics.some((d) => d.file === installed && d.severity === 'error'),
          row.file
        ).toBe(true)
      const got = mine ? { name: mine.agentType, description: mine.whenToUse.trim(), tools: formatToolsForListing(mine) } : null
      const want = row.claude_code ? { ...row.claude_code, description: row.claude_code.description.trim() } : null
      if (JSON.stringify(got) === JSON.stringify(want)) {
        same++
        if (mine && want) expect(formatAgentLine(mine).trim()).toBe(`- ${want.name}: ${row.claude_code!.description} (Tools: ${want.tools})`.trim())
      } else {
        mismatches.push({ file: row.file, got, want })
      }
    }
    const percent = (100 * same) / rows.length
    console.log(
      `corpus: ${same}/${rows.length} files (${percent.toFixed(2)}%) read exactly as Claude Code read them; ` +
        `${rows.filter((r) => r.claude_code).length} loaded, ${rows.filter((r) => !r.claude_code).length} skipped by both`
    )
    for (const [file, why] of Object.entries(DELIBERATE)) console.log(`  deliberate difference: ${file}: ${why}`)
    for (const why of DIFFERENCES_OUTSIDE_CORPUS) console.log(`  deliberate difference (no corpus file has it): ${why}`)
    for (const m of mismatches)
      console.log(`  MISMATCH ${m.file}\n    fanout:      ${JSON.stringify(m.got)?.slice(0, 300)}\n    claude code: ${JSON.stringify(m.want)?.slice(0, 300)}`)

    expect(loadedDiffers).toEqual([])
    expect(percent).toBeGreaterThanOrEqual(99)
    expect(mismatches.map((m) => m.file).filter((f) => !(f in DELIBERATE))).toEqual([])
  })

  it('repairs the invalid-YAML files Claude Code repairs, and says so at the line', async () => {
    const file = join(corpus, 'agents/diet103__claude-code-infrastructure-showcase/claude__agents__auth-route-debugger.md')
    const project = join(tmp, 'repair')
    mkdirSync(join(project, '.claude/agents'), { recursive: true })
    writeFileSync(join(project, '.claude/agents/auth-route-debugger.md'), readFileSync(file))
    const { byType, diagnostics } = await loadAgents({ cwd: project, home: join(tmp, 'home') })
    const agent = byType.get('auth-route-debugger')
    expect(agent?.definition.whenToUse).toContain('\n\nExamples:\n- <example>')
    const repaired = diagnostics.filter((d) => d.code === 'yaml-repaired')
    expect(repaired).toHaveLength(1)
    expect(repaired[0]).toMatchObject({ line: 3, column: 14, severity: 'warning' })
  })
})
