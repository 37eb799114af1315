// PreCompact and PostCompact hooks, end to end with real hook commands, as Claude Code 2.1.328 runs them: the
// input (trigger manual|auto, custom_instructions, compact_summary), the matcher on the trigger, a hook's
// printed text added to the summary's instructions, exit 2 blocking a compaction (except when the API has
// already refused the conversation as too long: then it must run), PostCompact only for the main agent.
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, CompactionEvent } from '../../../shared/events'
import { reply, scriptByAgent, type ParsedRequest } from '../model/scripted'
import { LEDGER_READER_FILE, LEDGER_TASK, ledgerModel, makeLedger } from '../orchestration/testing/long-session'
import { closeFixtures, makeFixture } from '../orchestration/testing/session-fixture'
import { hookCommand, hooksSettings, readHookLog, type HookBehaviour } from './testing/fixture'

afterEach(closeFixtures)

const MAIN = 'lead agent in Fanout'
const MODEL = 'claude-sonnet-5-5'
const compactions = (events: AgentEvent[]) => events.filter((e): e is CompactionEvent => e.type === 'compaction')

function hookDir() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-compact-hooks-')))
  const log = join(dir, 'hooks.log')
  return {
    cmd: (b: HookBehaviour = {}) => hookCommand(dir, log, b),
    events: (name: string) =>
      readHookLog(log)
        .filter((l) => l.input.hook_event_name === name)
        .map((l) => l.input)
  }
}

// A main agent that reads a.txt, then b.txt, then answers; its summaries say what they were asked to keep.
const reader = () =>
  scriptByAgent([
    {
      name: 'main',
      match: MAIN,
      turns: [],
      then: (req: ParsedRequest) => {
        const asked = /read (\S+\.txt)/.exec(req.lastUserText)?.[1]
        return asked && !req.toolResults.length ? reply.toolUse('Read', { file_path: asked }) : reply.text(`Done with ${asked ?? 'that'}.`)
      },
      summarize: () => reply.text('Summary: a.txt and b.txt were read.')
    }
  ])

describe('PreCompact and PostCompact', () => {
  it('Compact asked for: PreCompact gets trigger manual and the instructions, its printed text joins them; PostCompact gets the summary', async () => {
    const h = hookDir()
    const settings = hooksSettings([
      { event: 'PreCompact', matcher: 'manual', command: h.cmd({ stdout: 'Keep every number you saw.' }) },
      { event: 'PreCompact', matcher: 'auto', command: h.cmd({ stdout: 'never asked' }) },
      { event: 'PostCompact', command: h.cmd() },
      { event: 'SessionStart', matcher: 'compact', command: h.cmd({ stdout: 'AFTER-COMPACT' }) }
    ])
    const f = await makeFixture(
      { respond: reader() },
      {
        trustProject: true,
        permissionMode: 'bypassPermissions',
        files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n', '.claude/settings.json': JSON.stringify(settings) }
      }
    )
    await f.session.run('Please read a.txt')
    await f.session.run('Please read b.txt')
    const outcome = await f.session.compact(undefined, 'Keep the file names.')
    expect(outcome).toMatchObject({ status: 'compacted' })

    const pre = h.events('PreCompact')
    expect(pre).toHaveLength(1)
    expect(pre[0]).toMatchObject({
      session_id: f.session.sessionId,
      cwd: f.cwd,
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: 'Keep the file names.'
    })
    // As Claude Code sends it: no agent fields for the main agent, and no permission_mode on this event.
    for (const k of ['agent_id', 'agent_type', 'permission_mode']) expect(k in pre[0], k).toBe(false)
    const summaryAsk = f.model.server.messageRequests().find((r) => r.isSummaryRequest)!.lastUserText
    expect(summaryAsk).toContain('Keep the file names.')
    expect(summaryAsk).toContain('Keep every number you saw.')
    expect(summaryAsk).not.toContain('never asked')

    const [done] = compactions(f.events)
    expect(h.events('PostCompact')).toEqual([expect.objectContaining({ hook_event_name: 'PostCompact', trigger: 'manual', compact_summary: done.summary })])
    // Then SessionStart with source "compact" (not "startup": its matcher says compact): its context opens the next run.
    expect(h.events('SessionStart').map((e) => e.source)).toEqual(['compact'])
    await f.session.run('Please read a.txt')
    const next = f.model.server
      .messageRequests()
      .filter((r) => !r.isSummaryRequest)
      .at(-1)!
    expect(JSON.stringify(next.messages)).toContain('SessionStart:compact hook success: AFTER-COMPACT')
  })

  it('a PreCompact hook that exits 2 blocks a compaction asked for: it says why, nothing is summarised, the conversation stays whole', async () => {
    const h = hookDir()
    const settings = hooksSettings([
      { event: 'PreCompact', command: h.cmd({ stderr: 'not while the release is open', exit: 2 }) },
      { event: 'PostCompact', command: h.cmd() }
    ])
    const f = await makeFixture(
      { respond: reader() },
      { trustProject: true, permissionMode: 'bypassPermissions', files: { 'a.txt': 'alpha\n', '.claude/settings.json': JSON.stringify(settings) } }
    )
    await f.session.run('Please read a.txt')
    const before = [...f.session.mainHandle().messages]
    await expect(f.session.compact()).rejects.toThrow(
      /^Compaction blocked by a PreCompact hook: not while the release is open\. The conversation was kept whole\.$/
    )
    expect(h.events('PreCompact')).toEqual([expect.objectContaining({ trigger: 'manual', custom_instructions: null })])
    expect(f.model.server.messageRequests().some((r) => r.isSummaryRequest)).toBe(false)
    expect(f.session.mainHandle().messages).toEqual(before)
    expect(compactions(f.events)).toEqual([expect.objectContaining({ error: expect.stringContaining('not while the release is open') })])
    expect(h.events('PostCompact')).toHaveLength(0)
  })

  it('blocked automatic compactions wait until the API refuses the prompt as too long; then it compacts anyway and the run finishes', async () => {
    const WINDOW = 30_000
    const PARTS = 14
    const ledger = makeLedger(PARTS, 8_000)
    const h = hookDir()
    const settings = hooksSettings([{ event: 'PreCompact', matcher: 'auto', command: h.cmd({ stderr: 'keep it all', exit: 2 }) }])
    const f = await makeFixture(
      { respond: ledgerModel(PARTS), contextWindow: WINDOW },
      {
        trustProject: true,
        permissionMode: 'bypassPermissions',
        files: { ...ledger.files, '.claude/settings.json': JSON.stringify(settings) },
        context: { windows: { [MODEL]: WINDOW }, autoCompactPercent: 60, toolResultClearing: 'off' }
      }
    )
    const result = await f.session.run(LEDGER_TASK(PARTS))
    expect(result.status).toBe('completed')
    expect(result.result).toBe(`I read all ${PARTS} parts. The sum of their values is ${ledger.sum}.`)
    const done = compactions(f.events)
    // Each request past the threshold asked the hook, and was refused; the API's 400 then made it run.
    expect(done.filter((c) => c.error).every((c) => c.trigger === 'auto' && c.error!.includes('blocked by a PreCompact hook: keep it all'))).toBe(true)
    expect(done.filter((c) => c.error).length).toBeGreaterThanOrEqual(1)
    expect(done.filter((c) => !c.error).map((c) => c.trigger)).toContain('overflow')
    expect(h.events('PreCompact').every((e) => e.trigger === 'auto')).toBe(true)
    expect(f.events.some((e) => e.type === 'error' && e.message.includes('it ran anyway, since the API refuses the conversation as too long'))).toBe(true)
  })

  it("a subagent's compaction fires PreCompact with its agent_id (its printed text is not read, as in Claude Code) and no PostCompact", async () => {
    const WINDOW = 30_000
    const ledger = makeLedger(12, 8_000)
    const h = hookDir()
    const settings = hooksSettings([
      { event: 'PreCompact', command: h.cmd({ stdout: 'ignored for subagents' }) },
      { event: 'PostCompact', command: h.cmd() }
    ])
    const f = await makeFixture(
      { respond: ledgerModel(12, 'subagent'), contextWindow: WINDOW },
      {
        trustProject: true,
        permissionMode: 'bypassPermissions',
        files: { ...ledger.files, [LEDGER_READER_FILE.path]: LEDGER_READER_FILE.content, '.claude/settings.json': JSON.stringify(settings) },
        context: { windows: { [MODEL]: WINDOW }, toolResultClearing: 'off' }
      }
    )
    const result = await f.session.run('Have the ledger summed up for me.')
    expect(result.result).toContain(`The sum of their values is ${ledger.sum}.`)
    const pre = h.events('PreCompact')
    expect(pre.length).toBeGreaterThanOrEqual(1)
    expect(pre.every((e) => e.trigger === 'auto' && e.agent_type === 'ledger-reader' && typeof e.agent_id === 'string')).toBe(true)
    expect(
      f.model.server
        .messageRequests()
        .filter((r) => r.isSummaryRequest)
        .every((r) => !r.lastUserText.includes('ignored for subagents'))
    ).toBe(true)
    expect(h.events('PostCompact')).toHaveLength(0)
  })
})
