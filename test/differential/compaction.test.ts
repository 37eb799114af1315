// Differential: an automatic compaction under Claude Code and Fanout (COMPACT_SCENARIO). Both fire PreCompact
// then PostCompact with the same fields (no permission_mode, trigger "auto", custom_instructions null, the
// summary), and mark it in stream-json with a system/compact_boundary line whose compact_metadata has Claude
// Code's trigger and token counts.
import { describe, expect, it } from 'vitest'
import { claudeCode, jsonLines } from './claude-code'
import { runBothSides, type SideResult } from './harness'
import { COMPACT_SCENARIO } from './scenarios'

const cc = claudeCode()
const PER_RUN = new Set(['session_id', 'transcript_path', 'prompt_id', 'cwd', 'compact_summary'])
const typeOf = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v)

/** compact_metadata keys of Claude Code's that Fanout leaves out, and why. */
const METADATA_NOT_SENT: Record<string, string> = {
  preserved_segment: 'uuids of Claude Code’s own transcript entries; Fanout’s messages have no uuids',
  preserved_messages: 'as preserved_segment',
  messages_summarized: 'internal (Fanout’s own events carry `summarized`)',
  user_context: 'internal: focus text of Claude Code’s “summarize from here”'
}

/** Keys of Claude Code's compact_boundary line that Fanout leaves out, and why. */
const BOUNDARY_NOT_SENT: Record<string, string> = {
  logical_parent_uuid: 'the uuid of Claude Code’s last transcript entry before the boundary; Fanout’s stream lines before it have their own uuids but no chain'
}

let claude: SideResult
let fanout: SideResult

describe.skipIf(!cc.path)(`compaction under Claude Code and Fanout${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  runBothSides(COMPACT_SCENARIO, (c, f) => ([claude, fanout] = [c, f]))

  it('PreCompact and PostCompact fire with the same fields, types and (where not per run) values', () => {
    const events = (r: SideResult) => r.hooks.map((h) => h.input.hook_event_name as string)
    for (const r of [claude, fanout]) {
      expect(events(r), r.side).toContain('PreCompact')
      expect(events(r), r.side).toContain('PostCompact')
    }
    const problems: string[] = []
    for (const name of ['PreCompact', 'PostCompact']) {
      const c = claude.hooks.find((h) => h.input.hook_event_name === name)!.input
      const f = fanout.hooks.find((h) => h.input.hook_event_name === name)!.input
      expect(Object.keys(f).sort(), name).toEqual(Object.keys(c).sort())
      for (const [k, v] of Object.entries(c)) {
        if (typeOf(f[k]) !== typeOf(v)) problems.push(`${name}: ${k} is ${JSON.stringify(f[k])}, Claude Code sends ${JSON.stringify(v)}`)
        else if (!PER_RUN.has(k) && JSON.stringify(f[k]) !== JSON.stringify(v))
          problems.push(`${name}: ${k} is ${JSON.stringify(f[k])}, Claude Code sends ${JSON.stringify(v)}`)
      }
    }
    expect(problems).toEqual([])
    expect(fanout.hooks.find((h) => h.input.hook_event_name === 'PostCompact')!.input.compact_summary).toContain('SUMMARY OF THE READS')
  })

  it('stream-json marks the compaction with a compact_boundary line carrying Claude Code’s keys', () => {
    const boundary = (r: SideResult) => jsonLines(r.stdout, `${r.side} stream`).find((l) => l.type === 'system' && l.subtype === 'compact_boundary')
    const c = boundary(claude)
    const f = boundary(fanout)
    expect(c, 'Claude Code compacted').toBeDefined()
    expect(f, 'Fanout compacted').toBeDefined()
    expect(Object.keys(f).sort()).toEqual(
      Object.keys(c)
        .filter((k) => !(k in BOUNDARY_NOT_SENT))
        .sort()
    )
    const missing = Object.keys(c.compact_metadata).filter((k) => !(k in f.compact_metadata) && !(k in METADATA_NOT_SENT))
    expect(missing).toEqual([])
    for (const k of Object.keys(f.compact_metadata)) expect(typeOf(f.compact_metadata[k]), k).toBe(typeOf(c.compact_metadata[k]))
    expect(f.compact_metadata.trigger).toBe(c.compact_metadata.trigger)
    expect(f.compact_metadata.post_tokens).toBeLessThan(f.compact_metadata.pre_tokens)
  })
})
