// Compaction across a session's life: asked for (idle and running, main agent and subagent, `/compact`), and
// what a compacted agent does next: a follow-up, a message, a reopen after a restart. The transcript keeps
// everything from before each compaction; the conversation restarts from the compaction's boundary.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ChatMessage, CompactionEvent } from '../../../../shared/events'
import { reply, scriptByAgent, type ParsedRequest } from '../../model/scripted'
import { readTranscript } from '../../store'
import { parseCompactCommand } from './compact-agent'
import { AgentSession } from '../session/session'
import { closeFixtures, latch, makeFixture, waitForEvent } from '../testing/session-fixture'
import { LEDGER_READER_FILE, LEDGER_TASK, ledgerModel, makeLedger } from '../testing/long-session'
import { heldUntil, mainAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const MODEL = 'claude-sonnet-5-5'
const compactions = (events: AgentEvent[]) => events.filter((e): e is CompactionEvent => e.type === 'compaction')
const firstText = (m: ChatMessage | undefined) =>
  m && Array.isArray(m.content) && m.content[0].type === 'text' ? m.content[0].text : typeof m?.content === 'string' ? m.content : ''

// A main agent that reads the files it is told about, one per turn, and answers with their first lines.
const readsFiles = (req: ParsedRequest) => {
  const asked = [...req.lastUserText.matchAll(/read (\S+\.txt)/g)].map((m) => m[1])
  const seen = new Set(req.toolResults.map((r) => r.content))
  if (asked.length && !seen.size) return reply.toolUse('Read', { file_path: asked[0] })
  const lines = req.toolResults.map((r) => r.content.split('\n')[0].replace(/^\s*\d+\t/, ''))
  return reply.text(lines.length ? `First lines: ${lines.join(', ')}` : `Noted: ${req.lastUserText.slice(0, 60)}`)
}
const reader = () =>
  scriptByAgent([
    { ...mainAgent([], readsFiles), summarize: (req) => reply.text(`Summary: ${req.messages.length} messages so far; the files read were a.txt and b.txt.`) }
  ])

describe('compaction asked for', () => {
  it('compacts an idle main agent now; its next prompt starts from the summary, and a reopen rebuilds the same conversation', async () => {
    const f = await makeFixture({ respond: reader() }, { permissionMode: 'bypassPermissions', files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } })
    await f.session.run('Please read a.txt')
    await f.session.run('Please read b.txt')
    const before = [...f.session.mainHandle().messages]
    const outcome = await f.session.compact(undefined, 'Keep the file names.')
    expect(outcome).toMatchObject({ status: 'compacted' })
    const [done] = compactions(f.events)
    expect(done).toMatchObject({ trigger: 'manual', summary: expect.stringContaining('the files read were a.txt and b.txt') })
    // The fold took the compaction's conversation; nothing of it was written directly.
    expect(f.session.mainHandle().messages).toEqual(done.messages)
    expect(f.model.server.messageRequests().find((r) => r.isSummaryRequest)!.lastUserText).toContain('added: Keep the file names.')

    await f.session.run('Thanks. Anything else?')
    const next = f.model.server
      .messageRequests()
      .filter((r) => !r.isSummaryRequest)
      .at(-1)!
    expect(next.firstUserText).toMatch(/^This conversation was compacted:/)
    expect(next.lastUserText).toBe('Thanks. Anything else?')
    await f.session.flush()

    // The transcript keeps every message from before the boundary, then the boundary, then what followed.
    const file = join(f.dataDir, 'sessions', f.session.sessionId, 'agents', `${f.session.mainAgentId}.jsonl`)
    const { events } = await readTranscript(file)
    const boundary = events.findIndex((e) => e.type === 'compaction')
    const earlier = events.slice(0, boundary).flatMap((e) => (e.type === 'message' ? [e.message] : []))
    expect(earlier).toEqual(before)

    // One owner per session: this one lets it go before it is opened again.
    await f.session.close()
    const again = await f.reopen((base) => AgentSession.open({ ...base, sessionId: f.session.sessionId }))
    expect(again.mainHandle().messages).toEqual(f.session.mainHandle().messages)
  })

  it('a running agent compacts before its next request; `/compact` parses with or without instructions', async () => {
    const hold = latch()
    const respond = scriptByAgent([
      mainAgent([reply.toolUse('Read', { file_path: 'a.txt' }), heldUntil(hold, reply.toolUse('Read', { file_path: 'b.txt' })), reply.text('Both read.')])
    ])
    const f = await makeFixture({ respond }, { permissionMode: 'bypassPermissions', files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } })
    const run = f.session.run('Read both files.')
    await waitForEvent(f.session, f.events, (e) => e.type === 'tool_end' && e.name === 'Read')
    // The second request is being answered (the script holds it); the compaction comes before the one after it.
    while (f.model.server.messageRequests().length < 2) await new Promise((r) => setImmediate(r))
    expect(await f.session.compact(undefined, parseCompactCommand('/compact   focus on b')?.instructions)).toEqual({ status: 'scheduled' })
    hold.open()
    const result = await run
    expect(result.result).toBe('Both read.')
    const requests = f.model.server.messageRequests()
    const at = requests.findIndex((r) => r.isSummaryRequest)
    expect(at).toBe(2)
    expect(requests[at].lastUserText).toContain('added: focus on b')
    expect(requests[at + 1].firstUserText).toMatch(/^This conversation was compacted:/)
    expect(parseCompactCommand('/compact')).toEqual({})
    expect(parseCompactCommand('/compactor')).toBeNull()
    expect(parseCompactCommand('please /compact')).toBeNull()
  })

  it('an idle subagent is compacted on its own; a message to it waits for the compaction, then resumes it from its summary', async () => {
    const ledger = makeLedger(12, 2_000)
    const f = await makeFixture(
      { respond: ledgerModel(12, 'subagent') },
      { permissionMode: 'bypassPermissions', files: { ...ledger.files, [LEDGER_READER_FILE.path]: LEDGER_READER_FILE.content } }
    )
    await f.session.reload()
    await f.session.run('Have the ledger summed.')
    const child = f.session.registry.all().find((a) => a.agentType === 'ledger-reader')!
    const compacting = f.session.compact(child.id)
    // Sent while it compacts: delivered after, from the compacted conversation.
    await f.session.sendMessage(child.id, 'What was the total again?')
    expect(await compacting).toMatchObject({ status: 'compacted' })
    await f.session.idle()
    const own = f.model.server.messageRequests().filter((r) => r.system.includes('You are the ledger reader') && !r.isSummaryRequest)
    const last = own.at(-1)!
    expect(last.firstUserText).toMatch(/^This conversation was compacted:/)
    expect(last.lastUserText).toContain('What was the total again?')
    expect(compactions(f.events).filter((c) => c.agentId === child.id)).toHaveLength(1)
  })
})

describe('a compacted agent after a restart', () => {
  it('is rebuilt from its last compaction, answers a message with its summary in view, and its transcript keeps every earlier message', async () => {
    const ledger = makeLedger(30, 6_000)
    const settings = { context: { windows: { [MODEL]: 30_000 }, toolResultClearing: 'off' as const } }
    const f = await makeFixture(
      { respond: ledgerModel(30, 'subagent'), contextWindow: 30_000 },
      { permissionMode: 'bypassPermissions', files: { ...ledger.files, [LEDGER_READER_FILE.path]: LEDGER_READER_FILE.content }, ...settings }
    )
    await f.session.reload()
    const first = await f.session.run('Have the ledger summed.')
    expect(first.result).toContain(`is ${ledger.sum}.`)
    const child = f.session.registry.all().find((a) => a.agentType === 'ledger-reader')!
    const childCompactions = compactions(f.events).filter((c) => c.agentId === child.id && !c.error)
    expect(childCompactions.length).toBeGreaterThanOrEqual(1)
    const compacted = [...child.messages]
    expect(firstText(compacted[0])).toMatch(/^This conversation was compacted:/)
    await f.session.close()

    const again = await f.reopen((base) => AgentSession.open({ ...base, sessionId: f.session.sessionId, permissionMode: 'bypassPermissions', ...settings }))
    const events: AgentEvent[] = []
    again.subscribe((e) => events.push(e))
    await again.sendMessage(child.id, 'Please confirm the total.')
    await again.idle()
    const dormant = again.registry.get(child.id)!
    expect(dormant.messages.slice(0, compacted.length)).toEqual(compacted)
    const asked = f.model.server
      .messageRequests()
      .filter((r) => r.system.includes('You are the ledger reader') && !r.isSummaryRequest)
      .at(-1)!
    expect(asked.firstUserText).toMatch(/^This conversation was compacted:/)
    expect(asked.inputTokens).toBeLessThan(30_000)
    // It still knows the total (from its summary and kept turns) and reads nothing again.
    expect(events.filter((e) => e.type === 'tool_run')).toHaveLength(0)
    expect(dormant.lastResult?.result).toContain(`is ${ledger.sum}.`)
    // Every message it ever had is in its transcript, before the boundaries.
    await again.flush()
    const { events: recorded } = await readTranscript(join(f.dataDir, 'sessions', f.session.sessionId, 'agents', `${child.id}.jsonl`))
    const reads = recorded.filter((e) => e.type === 'tool_run')
    expect(reads).toHaveLength(30)
    expect(recorded.filter((e) => e.type === 'message' && e.message.role === 'user').length).toBeGreaterThan(30)
    expect(LEDGER_TASK(30)).toContain('part-30')
  }, 60_000)
})
