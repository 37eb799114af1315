// The search indexes on real transcripts written by the store's recorder: documents of every kind, built
// as lines are appended (only the new ones read), never a duplicate after a restart in the middle of a
// stream, rebuilt when the file is damaged, missing or from another format, and never touching a transcript.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { recordClosed, tempDataDir } from '../store/test-fixtures'
import { agentsDir, transcriptPath } from '../store/data-dir'
import { ftsQuery } from './fts-query'
import { SearchService } from './search-service'
import { searchDbPath, SessionSearch } from './session-search'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const SID = 'sess-1'
let seq = 1_700_000_000_000_000
const withSeq = (e: AgentEvent): AgentEvent => ({ ...e, seq: ++seq })

/** The kinds of hit a search finds, in a fixed order (hits come ranked). */
const kindsFound = (index: SessionSearch, query: string) =>
  index
    .search(query)
    .map((h) => h.kind)
    .sort()

const record = (events: AgentEvent[], sessionId = SID) => recordClosed({ dataDir, sessionId, cwd: '/work/project' }, events.map(withSeq))

function fanOut(clock = manualClock()) {
  const main = agentEvents(SID, 'main', clock)
  const sub = agentEvents(SID, 'a1', clock, { agentId: 'main', toolUseId: 'tu-agent' })
  return { main, sub, clock }
}

describe('ftsQuery', () => {
  it('quotes every word, so no input is FTS5 syntax, and reads quoted runs as phrases', () => {
    expect(ftsQuery('ENOENT: no such')).toBe('"enoent"* AND "no"* AND "such"*')
    expect(ftsQuery('"no such file" x')).toBe('"no" + "such" + "file" AND "x"*')
    expect(ftsQuery('NEAR( OR AND * ^ :')).toBe('"near"* AND "or"* AND "and"*')
    expect(ftsQuery('  ')).toBeNull()
    expect(ftsQuery('a"b')).toBe('"a"* AND "b"*')
  })
})

describe('SessionSearch', () => {
  it('finds prompts, text, thinking, tool inputs and outputs, messages, errors and reports, each in its agent', async () => {
    const { main, sub, clock } = fanOut()
    const events: AgentEvent[] = [
      main.start({ prompt: 'Audit the parser for zebras', description: 'Audit the parser' }),
      main.assistant([
        { type: 'text', text: 'Starting a subagent' },
        { type: 'tool_use', id: 'tu-agent', name: 'Agent', input: {} }
      ]),
      sub.start({ agentType: 'Explore', prompt: 'Look for giraffes in src', description: 'Find giraffes' }),
      sub.thinking('pondering okapis'),
      sub.assistant([
        { type: 'thinking', thinking: 'pondering okapis' },
        { type: 'text', text: 'Reading the lexer' },
        { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'grep -rn quokka src' } }
      ]),
      sub.toolRun('t1', 'Bash', { command: 'grep -rn quokka src' }),
      sub.toolEnd('t1', 'Bash', 'src/lexer.ts:12: const wombat_count = 3'),
      sub.received('main', 'please also check narwhals'),
      sub.error('model overloaded: capybara', false),
      sub.end('completed', { result: 'Found a pangolin in the lexer' })
    ]
    clock.advance(1)
    await record(events)
    const index = new SessionSearch(dataDir, SID)
    await index.catchUp()
    const one = (q: string) => index.search(q).map((h) => `${h.agentId}:${h.kind}${h.toolUseId ? `:${h.toolUseId}` : ''}`)
    expect(one('zebras')).toEqual(['main:prompt'])
    expect(one('giraffes')).toEqual(['a1:prompt'])
    expect(one('okapis')).toEqual(['a1:thinking']) // the thinking delta's text is the message's: one document
    expect(one('lexer reading')).toEqual(['a1:text'])
    expect(one('quokka')).toEqual(['a1:tool_input:t1'])
    expect(one('wombat_count')).toEqual(['a1:tool_output:t1'])
    expect(one('wombat_c')).toEqual(['a1:tool_output:t1']) // a word's start finds it
    expect(one('narwhals')).toEqual(['a1:message'])
    expect(one('capybara')).toEqual(['a1:error'])
    expect(one('pangolin')).toEqual(['a1:report'])
    const [hit] = index.search('wombat_count')
    expect(hit.snippet).toContain('\u0002wombat_count\u0003')
    expect(index.agents().a1).toMatchObject({ agentType: 'Explore', description: 'Find giraffes', parentAgentId: 'main' })
    index.close()
  })

  it('indexes only what was appended since, and a reply cut off mid-stream by its deltas, once', async () => {
    const { main, clock } = fanOut()
    await record([main.start({ prompt: 'first prompt alpha' }), main.turnStart(1), main.text('half a reply about '), main.text('bananas')])
    const index = new SessionSearch(dataDir, SID)
    await index.catchUp()
    expect(index.search('bananas')).toEqual([]) // its stream may still end with a message: held
    // The process stops here (the index is closed mid-stream) and another goes on writing.
    index.close()
    clock.advance(5)
    const file = transcriptPath(dataDir, SID, 'main')
    const before = readFileSync(file, 'utf8')
    const more = [main.turnEnd(1), main.user('second prompt bananas too')].map(withSeq)
    appendFileSync(file, more.map((e) => JSON.stringify(e)).join('\n') + '\n')
    const again = new SessionSearch(dataDir, SID)
    expect((await again.behind()).bytes).toBe(Buffer.byteLength(readFileSync(file, 'utf8')) - Buffer.byteLength(before) + (await heldBytes(before)))
    await again.catchUp()
    expect(kindsFound(again, 'bananas')).toEqual(['prompt', 'text'])
    expect(again.search('alpha').length).toBe(1)
    await again.catchUp() // nothing new: nothing added
    expect(again.search('bananas').length).toBe(2)
    expect(readFileSync(file, 'utf8').startsWith(before)).toBe(true)
    again.close()
  })

  it('rebuilds a damaged index from the transcripts, never changing them', async () => {
    const { main } = fanOut()
    await record([main.start({ prompt: 'find the marmot' }), main.end('completed', { result: 'marmot found' })])
    const file = transcriptPath(dataDir, SID, 'main')
    const transcript = readFileSync(file)
    const index = new SessionSearch(dataDir, SID)
    await index.catchUp()
    index.close()
    // A torn or overwritten file (a disk fault, a half-copied folder): garbage where pages were.
    const db = searchDbPath(dataDir, SID)
    const bytes = readFileSync(db)
    bytes.fill(0x5a, 100, Math.min(bytes.length, 8000))
    writeFileSync(db, bytes)
    const rebuilt = new SessionSearch(dataDir, SID)
    expect(rebuilt.rebuiltBecause).toBeTruthy()
    await rebuilt.catchUp()
    expect(kindsFound(rebuilt, 'marmot')).toEqual(['prompt', 'report'])
    rebuilt.close()
    expect(readFileSync(file).equals(transcript)).toBe(true)
  })

  it('an index that is not SQLite at all, or a stray journal, is replaced', async () => {
    const { main } = fanOut()
    await record([main.start({ prompt: 'lemur business' })])
    writeFileSync(searchDbPath(dataDir, SID), 'this is not a database')
    const index = new SessionSearch(dataDir, SID)
    await index.catchUp()
    expect(index.search('lemur').length).toBe(1)
    index.close()
  })
})

describe('SearchService', () => {
  it('rebuilds an index whose pages were damaged behind its back and answers as before (a disk fault, a torn copy)', async () => {
    const clock = manualClock()
    const main = agentEvents(SID, 'main', clock)
    const events: AgentEvent[] = [main.start({ prompt: 'many tools' })]
    for (let i = 0; i < 1500; i++)
      events.push(
        main.toolRun(`t${i}`, 'Read', { file_path: `f${i}.ts` }),
        main.toolEnd(`t${i}`, 'Read', `line ${i} of a longish output ${'x'.repeat(200)} token${i}`)
      )
    events.push(main.toolEnd('tz', 'Bash', 'the unique ocelot line'))
    await record(events)
    const describe = async () => ({ title: 't', cwd: '/work/project', updatedAt: 1 })
    const first = new SearchService({ dataDir, describe, waitMs: 60_000 })
    expect((await first.inSession(SID, 'ocelot', 10)).hits).toHaveLength(1)
    await first.close()
    const db = searchDbPath(dataDir, SID)
    const bytes = readFileSync(db)
    expect(bytes.length).toBeGreaterThan(200_000)
    bytes.fill(0xa5, Math.floor(bytes.length * 0.3), Math.floor(bytes.length * 0.9))
    writeFileSync(db, bytes)
    const errors: string[] = []
    const second = new SearchService({ dataDir, describe, waitMs: 60_000, onError: (e) => errors.push(e.message) })
    expect((await second.inSession(SID, 'ocelot', 10)).hits).toHaveLength(1)
    expect((await second.inSession(SID, 'token1499', 10)).hits).toHaveLength(1)
    expect(errors.join('\n')).toMatch(/rebuilt/)
    await second.close()
  })

  it("across sessions finds a word of a subagent's tool output, saying whose, which tool and which turn; no markup in snippets", async () => {
    const { main, sub, clock } = fanOut()
    await record([
      main.start({ prompt: 'Audit the parser', description: 'Audit the parser' }),
      main.assistant([{ type: 'tool_use', id: 'tu-agent', name: 'Agent', input: {} }]),
      sub.start({ agentType: 'Explore', prompt: 'Look in src', description: 'Find the lexer bug' }),
      sub.turnStart(1),
      sub.toolRun('t1', 'Bash', { command: 'grep -rn tokens src' }),
      sub.turnStart(2),
      sub.toolRun('t2', 'Read', { file_path: 'src/lexer.ts' }),
      sub.toolEnd('t2', 'Read', 'const marmoset_tokens = split(src)'),
      main.received('a1', '<agent-message from="a1" summary="done">\nthe tapir is fixed\n</agent-message>'),
      main.toolEnd(
        'tu-agent',
        'Agent',
        'The lexer loses the okapi positions.\n\nagentId: a1b2c3d4e5f60718 — to continue it, use SendMessage with to: a1b2c3d4e5f60718\n<usage>total_tokens: 12</usage>'
      )
    ])
    clock.advance(1)
    const service = new SearchService({ dataDir, describe: async () => ({ title: 'Parser audit', cwd: '/work/project', updatedAt: 1 }), waitMs: 10_000 })
    const [hit, ...rest] = (await service.acrossSessions([SID], '/work/project', 'marmoset', 50)).hits
    expect(rest).toEqual([])
    // The tool call itself, so opening the hit lands on that call, not on whatever was nearest in time.
    expect(hit).toMatchObject({ sessionId: SID, agentId: 'a1', kind: 'tool_output', toolUseId: 't2', toolName: 'Read', turn: 2 })
    expect(hit.agent).toMatchObject({ agentType: 'Explore', description: 'Find the lexer bug' })
    expect(hit.snippet).toContain('\u0002marmoset_tokens\u0003')
    const [message] = (await service.acrossSessions([SID], '/work/project', 'tapir', 50)).hits
    expect(message).toMatchObject({ agentId: 'main', kind: 'message' })
    expect(message.snippet).not.toMatch(/agent-message|from=|summary=/)
    // A subagent's report as its Agent call returned it: its words, not the lines for the model.
    const [report] = (await service.acrossSessions([SID], '/work/project', 'okapi', 50)).hits
    expect(report).toMatchObject({ kind: 'tool_output', toolUseId: 'tu-agent', toolName: 'Agent' })
    expect((await service.acrossSessions([SID], '/work/project', 'SendMessage', 50)).hits).toEqual([])
    await service.close()
  })

  it('searches across sessions by title, prompt, transcript and report, and a question catches a session up first', async () => {
    const clock = manualClock()
    const a = agentEvents('s-a', 'main-a', clock)
    const b = agentEvents('s-b', 'main-b', clock)
    await record([a.start({ prompt: 'Tidy the flamingo module' }), a.end('completed', { result: 'flamingo tidied' })], 's-a')
    await record([b.start({ prompt: 'Unrelated' }), b.toolRun('t', 'Bash', { command: 'echo flamingo' })], 's-b')
    const titles: Record<string, string> = { 's-a': 'Flamingo work', 's-b': 'Other work' }
    const service = new SearchService({ dataDir, describe: async (id) => ({ title: titles[id], cwd: '/work/project', updatedAt: 1 }), waitMs: 10_000 })
    const across = await service.acrossSessions(['s-a', 's-b'], '/work/project', 'flamingo', 50)
    expect(across.indexing).toBeUndefined()
    expect(across.hits.map((h) => `${h.sessionId}:${h.kind}`).sort()).toEqual(['s-a:prompt', 's-a:report', 's-a:title', 's-b:tool_input'])
    // Another folder's sessions are not this folder's answer.
    expect((await service.acrossSessions(['s-a'], '/elsewhere', 'flamingo', 50)).hits).toEqual([])
    expect((await service.inSession('s-b', 'flamingo', 50)).hits.map((h) => h.kind)).toEqual(['tool_input'])
    titles['s-a'] = 'Renamed pelican'
    await service.retitle('s-a')
    expect((await service.acrossSessions(['s-a', 's-b'], '/work/project', 'pelican', 50)).hits.map((h) => h.kind)).toEqual(['title'])
    service.forget('s-a')
    expect(existsSync(join(dataDir, 'search.db'))).toBe(true)
    await service.close()
  })
})

/** Bytes of the held deltas at the end of `text` (the index reads them again with what follows). */
async function heldBytes(text: string): Promise<number> {
  const lines = text.split('\n').filter(Boolean)
  let n = 0
  for (let i = lines.length - 1; i >= 0 && JSON.parse(lines[i]).type === 'text_delta'; i--) n += Buffer.byteLength(lines[i]) + 1
  return n
}

describe('SessionSearch across transcript versions', () => {
  const fixture = (name: string, sessionId: string) => {
    mkdirSync(agentsDir(dataDir, sessionId), { recursive: true })
    copyFileSync(join(__dirname, '../store/transcript/fixtures', name), transcriptPath(dataDir, sessionId, 'main-1'))
  }

  it('finds the words of a version 1 session at their migrated place, and indexes nothing of a newer one', async () => {
    fixture('v1-before-seq.jsonl', 's-old')
    const old = new SessionSearch(dataDir, 's-old')
    await old.catchUp()
    // The assistant message, 5 ms into the fixture, written before events had a seq: its time in µs.
    expect(old.search('hello').map((h) => [h.kind, h.seq])).toContainEqual(['text', (1763726400000 + 5) * 1000])
    old.close()
    fixture('v3-newer.jsonl', 's-new')
    const newer = new SessionSearch(dataDir, 's-new')
    await newer.catchUp()
    expect(newer.search('hello')).toEqual([])
    newer.close()
  })
})
