// The long session of issue #14, in process: 60 turns whose tool output adds up to three context windows, for
// the main agent and for a subagent. It completes with the right sum, every part read exactly once, and the
// server (which refuses any request past its window with the API's 400) never sees a request too large.
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, CompactionEvent, ToolRunEvent } from '../../../../shared/events'
import { requestTokens } from '../../model/scripted'
import { closeFixtures, makeFixture } from '../testing/session-fixture'
import { LEDGER_READER_FILE, LEDGER_TASK, ledgerModel, makeLedger, partPath } from '../testing/long-session'

afterEach(closeFixtures)

const WINDOW = 40_000
const MODEL = 'claude-sonnet-5-5'
const PARTS = 60

const reads = (events: AgentEvent[], agentId?: string) =>
  events
    .filter((e): e is ToolRunEvent => e.type === 'tool_run' && e.name === 'Read' && (!agentId || e.agentId === agentId))
    .map((e) => (e.input as { file_path: string }).file_path)
const compactions = (events: AgentEvent[]) => events.filter((e): e is CompactionEvent => e.type === 'compaction')

describe('a long session', () => {
  it('the main agent reads 60 parts (three windows of output) once each and gets the sum right, compacting on the way', async () => {
    // Clearing old tool results off: compaction alone has to carry the session.
    const ledger = makeLedger(PARTS, 8_000)
    const totalOutput = Object.values(ledger.files).reduce((n, t) => n + t.length, 0) / 4
    expect(totalOutput).toBeGreaterThan(3 * WINDOW)
    const f = await makeFixture(
      { respond: ledgerModel(PARTS), contextWindow: WINDOW },
      { permissionMode: 'bypassPermissions', files: ledger.files, context: { windows: { [MODEL]: WINDOW }, autoCompactPercent: 80, toolResultClearing: 'off' } }
    )
    const result = await f.session.run(LEDGER_TASK(PARTS))
    expect(result.status).toBe('completed')
    expect(result.result).toBe(`I read all ${PARTS} parts. The sum of their values is ${ledger.sum}.`)
    expect(reads(f.events)).toEqual(Array.from({ length: PARTS }, (_, i) => partPath(i + 1)))
    const done = compactions(f.events)
    expect(done.length).toBeGreaterThanOrEqual(2)
    for (const c of done) {
      expect(c.error).toBeUndefined()
      expect(c.trigger).toBe('auto')
      expect(c.tokensAfter).toBeLessThan(c.tokensBefore / 2)
    }
    // After a compaction the request opens with the summary, then the kept turns, starting with a reply.
    const after = f.model.server.messageRequests().filter((r) => !r.isSummaryRequest && r.firstUserText.startsWith('This conversation was compacted:'))
    expect(after.length).toBeGreaterThan(0)
    for (const r of after) {
      expect(r.messages[0].role).toBe('user')
      expect(r.firstUserText).toMatch(/<summary>\n[\s\S]*Running total after part \d+: \d+\.[\s\S]*<\/summary>/)
      if (r.messages.length > 1) expect(r.messages[1].role).toBe('assistant')
    }
    // The task was summarised, so the summary message quotes it word for word.
    expect(after[0].firstUserText).toContain(`<latest-request>\n${LEDGER_TASK(PARTS)}\n</latest-request>`)
    const biggest = Math.max(...f.model.server.messageRequests().map((r) => r.inputTokens))
    expect(biggest).toBeLessThanOrEqual(WINDOW)
    // The meter's figure: the last usage against the window the agent was started with.
    const start = f.events.find((e) => e.type === 'agent_start')
    expect(start).toMatchObject({ context: { window: WINDOW, threshold: 32_000, autoCompact: true } })
    expect(requestTokens(f.model.server.messageRequests().at(-1)!.body)).toBeLessThan(32_000)
  }, 60_000)

  it('a subagent does the same with the default settings (old results cleared too), and its parent gets its answer', async () => {
    const ledger = makeLedger(PARTS, 8_000)
    const f = await makeFixture(
      { respond: ledgerModel(PARTS, 'subagent'), contextWindow: WINDOW },
      {
        permissionMode: 'bypassPermissions',
        files: { ...ledger.files, [LEDGER_READER_FILE.path]: LEDGER_READER_FILE.content },
        context: { windows: { [MODEL]: WINDOW } }
      }
    )
    await f.session.reload()
    const result = await f.session.run('Have the ledger summed up for me.')
    expect(result.status).toBe('completed')
    expect(result.result).toContain(`The sum of their values is ${ledger.sum}.`)
    const child = f.events.find((e) => e.type === 'agent_start' && e.agentType === 'ledger-reader')!
    expect(reads(f.events, child.agentId)).toEqual(Array.from({ length: PARTS }, (_, i) => partPath(i + 1)))
    const own = compactions(f.events).filter((c) => c.agentId === child.agentId)
    expect(own.length).toBeGreaterThanOrEqual(2)
    expect(own.every((c) => !c.error)).toBe(true)
  }, 60_000)
})

describe('clearing old tool results', () => {
  it('keeps a long session under the threshold by itself: results past the last five become stubs in what is sent, never in the transcript', async () => {
    const ledger = makeLedger(PARTS, 8_000)
    const f = await makeFixture(
      { respond: ledgerModel(PARTS), contextWindow: WINDOW },
      {
        permissionMode: 'bypassPermissions',
        files: ledger.files,
        context: { windows: { [MODEL]: WINDOW }, autoCompactPercent: 90, toolResultClearing: 'local', keepToolResults: 5 }
      }
    )
    const result = await f.session.run(LEDGER_TASK(PARTS))
    expect(result.result).toBe(`I read all ${PARTS} parts. The sum of their values is ${ledger.sum}.`)
    expect(reads(f.events)).toHaveLength(PARTS)
    expect(compactions(f.events)).toHaveLength(0)
    const last = f.model.server.messageRequests().at(-1)!
    const results = last.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_result') : []))
    const stubs = results.filter((b: any) => String(b.content).startsWith('[Old tool result cleared to keep the context small: this Read call returned'))
    expect(stubs.length).toBeGreaterThan(40)
    // The last five whole, whatever else was cleared.
    expect(results.slice(-5).every((b: any) => !String(b.content).startsWith('[Old tool result cleared'))).toBe(true)
    // The agent's own conversation still has every result whole.
    const main = f.session.mainHandle()
    const kept = main.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : []))
    expect(kept).toHaveLength(PARTS)
    expect(kept.every((b) => b.type === 'tool_result' && !String(b.content).startsWith('[Old tool result'))).toBe(true)
  }, 60_000)
})
