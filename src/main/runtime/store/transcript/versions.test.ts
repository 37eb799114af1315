// A transcript of every version Fanout has written, read end to end (fixtures/), and one a newer Fanout
// wrote: refused with the file and both versions named, never read as best effort, never written to.
import { copyFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { agentsDir, sessionDir, transcriptPath } from '../data-dir'
import { openSession } from '../open-session'
import { createSessionRecorder } from '../session-recorder'
import { eventsFor, tempDataDir } from '../test-fixtures'
import { NewerTranscriptError, openTranscriptDecoder } from './decode'
import { TRANSCRIPT_VERSION } from './format'
import { readTranscript } from './reader'

let dir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const FIXTURES = join(__dirname, 'fixtures')
const T0 = 1763726400000
const TYPES = ['agent_start', 'message', 'turn_start', 'text_delta', 'text_delta', 'message', 'usage', 'turn_end', 'agent_end']

/** A fixture as agent main-1's transcript of a session (s-old) in the data folder. */
async function placed(fixture: string, sessionId = 's-old'): Promise<string> {
  const file = transcriptPath(dir, sessionId, 'main-1')
  await mkdir(agentsDir(dir, sessionId), { recursive: true })
  await copyFile(join(FIXTURES, fixture), file)
  return file
}

describe('every version read end to end', () => {
  it.each([
    ['v1-before-seq.jsonl', 1, (i: number) => (T0 + i) * 1000],
    ['v1.jsonl', 1, (i: number) => (T0 + i) * 1000 + 7],
    ['v2.jsonl', 2, (i: number) => (T0 + i) * 1000 + 7]
  ])('%s: every event, migrated to the current version, with its place', async (fixture, written, seqOf) => {
    const file = await placed(fixture)
    const t = await readTranscript(file)
    expect(t.issues).toEqual([])
    expect(t.writtenIn).toBe(written)
    expect(t.header).toEqual({ type: 'header', version: TRANSCRIPT_VERSION, agentId: 'main-1', sessionId: 's-old', parentAgentId: null, createdAt: T0 })
    expect(t.events.map((e) => e.type)).toEqual(TYPES)
    expect(t.events.map((e) => e.seq)).toEqual(TYPES.map((_, i) => seqOf(i)))
    // A replay's read leaves out the deltas the assistant message repeats, and migrates alike.
    const replay = await readTranscript(file, { skipSettledDeltas: true })
    expect(replay.events.map((e) => e.seq)).toEqual(t.events.filter((e) => e.type !== 'text_delta').map((e) => e.seq))
  })

  it('a session of the oldest version opens whole: its index, its agent, its order', async () => {
    await placed('v1-before-seq.jsonl')
    const opened = await openSession(dir, 's-old')
    expect(opened.notes).toEqual([
      'session.json is missing; the session was rebuilt from its transcripts',
      '1 transcript of format version 1 was read as version 2 (1 -> 2: events written before Fanout recorded their place in the stream (seq) get it from their time); the files are left as they are.'
    ])
    expect(opened.index.agents['main-1']).toMatchObject({ status: 'completed', turnCount: 1 })
    expect(opened.agents['main-1'].events.every((e, i, all) => i === 0 || e.seq > all[i - 1].seq)).toBe(true)
  })
})

describe('a transcript a newer Fanout wrote', () => {
  it('is refused by name and version, and the file is left byte for byte', async () => {
    const file = await placed('v3-newer.jsonl')
    const before = await readFile(file)
    const refused = await readTranscript(file).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(NewerTranscriptError)
    expect((refused as Error).message).toBe(
      `${file} was written by a newer Fanout: transcript version 3, this Fanout reads up to ${TRANSCRIPT_VERSION}. Update Fanout to open this session; the file was left as it is.`
    )
    await expect(readTranscript(file, { skipSettledDeltas: true })).rejects.toThrow(NewerTranscriptError)
    // The session is refused whole, not opened without that agent.
    await expect(openSession(dir, 's-old')).rejects.toThrow(`${file} was written by a newer Fanout: transcript version 3`)
    expect(await readFile(file)).toEqual(before)
  })

  it('a recorder on that session writes nothing: not to that file, not a new agent’s', async () => {
    const file = await placed('v3-newer.jsonl')
    const before = await readFile(file)
    const errors: string[] = []
    const recorder = createSessionRecorder({ dataDir: dir, sessionId: 's-old', cwd: '/repo', owned: true, onError: (e) => errors.push(e.message) })
    const main = eventsFor({ sessionId: 's-old', agentId: 'main-1', parentAgentId: null, parentToolUseId: null })
    const sub = eventsFor({ sessionId: 's-old', agentId: 'sub-1', parentAgentId: 'main-1', parentToolUseId: 't1' })
    recorder.record(main.turn(2))
    recorder.record(sub.start())
    await recorder.close()
    expect(errors[0]).toContain('was written by a newer Fanout: transcript version 3')
    expect(await readFile(file)).toEqual(before)
    expect(await readdir(agentsDir(dir, 's-old'))).toEqual(['main-1.jsonl'])
    expect(await readdir(sessionDir(dir, 's-old'))).toEqual(['agents'])
  })
})

describe('an older file appended to', () => {
  it('keeps its header and reads whole: old lines migrated, new lines as written', async () => {
    const file = await placed('v1-before-seq.jsonl')
    const recorder = createSessionRecorder({ dataDir: dir, sessionId: 's-old', cwd: '/repo', owned: true, onError: (e) => expect.fail(e.message) })
    const main = eventsFor({ sessionId: 's-old', agentId: 'main-1', parentAgentId: null, parentToolUseId: null })
    const added = [main.start({ prompt: 'Again' }), main.turn(1)]
    for (const e of added) recorder.record(e)
    await recorder.close()
    const text = await readFile(file, 'utf8')
    expect(JSON.parse(text.slice(0, text.indexOf('\n')))).toMatchObject({ type: 'header', version: 1 })
    const t = await readTranscript(file)
    expect(t.writtenIn).toBe(1)
    expect(t.issues).toEqual([])
    expect(t.events.slice(0, TYPES.length).map((e) => e.seq)).toEqual(TYPES.map((_, i) => (T0 + i) * 1000))
    expect(t.events.slice(TYPES.length)).toEqual(added)
  })
})

describe('a damaged header', () => {
  const event = JSON.stringify(eventsFor({ sessionId: 's', agentId: 'a', parentAgentId: null, parentToolUseId: null }).start())

  it.each([
    ['a version that is no number', '{"type":"header","version":"two","agentId":"a","sessionId":"s","parentAgentId":null,"createdAt":1}', 'version: '],
    ['a field missing', '{"type":"header","version":2,"sessionId":"s","parentAgentId":null,"createdAt":1}', 'agentId: ']
  ])('%s: said with file and line, every event still read', async (_what, header, problem) => {
    const file = join(dir, 'h.jsonl')
    await writeFile(file, `${header}\n${event}\n`)
    const t = await readTranscript(file)
    expect(t.header).toBeNull()
    expect(t.events).toHaveLength(1)
    expect(t.issues).toHaveLength(1)
    expect(t.issues[0]).toMatchObject({ line: 1, kind: 'corrupt-header' })
    expect(t.issues[0].message).toContain(`${file}:1: the header line is damaged (${problem}`)
  })

  it('a header that is not JSON: reported as a corrupt line, the events read as the oldest version', async () => {
    const file = join(dir, 'h.jsonl')
    await writeFile(file, `{"type":"header","vers\n${event}\n`)
    const t = await readTranscript(file)
    expect(t.issues.map((i) => [i.line, i.kind])).toEqual([[1, 'corrupt-line']])
    expect(t.events).toHaveLength(1)
    expect(t.writtenIn).toBe(1)
  })

  it('an event line that fails its version’s schema is skipped with file, line and why; the others are kept', async () => {
    const f = eventsFor({ sessionId: 's', agentId: 'a', parentAgentId: null, parentToolUseId: null })
    const [a, b] = [f.start(), f.end()]
    const { seq: _dropped, ...noSeq } = f.turn(1)
    const file = join(dir, 'v2.jsonl')
    const header = { type: 'header', version: 2, agentId: 'a', sessionId: 's', parentAgentId: null, createdAt: a.ts }
    await writeFile(file, [header, a, noSeq, { ...b, ts: 'late' }, b].map((l) => JSON.stringify(l)).join('\n') + '\n')
    const t = await readTranscript(file)
    expect(t.events).toEqual([a, b])
    expect(t.issues.map((i) => i.message)).toEqual([
      `${file}:3: line is JSON but not an agent event of transcript version 2 (seq: Invalid input: expected number, received undefined), skipped`,
      `${file}:4: line is JSON but not an agent event of transcript version 2 (ts: Invalid input: expected number, received string), skipped`
    ])
  })
})

describe('readers that tail a file from an offset (search, a follower) decode it alike (search: search-index.test.ts)', () => {
  it('the decoder comes from the first line alone: its version, none yet, or a refusal', async () => {
    const v1 = await openTranscriptDecoder(await placed('v1-before-seq.jsonl'))
    expect(v1?.version).toBe(1)
    expect(v1?.migrated).toBe(true)
    const line = JSON.parse((await readFile(join(FIXTURES, 'v1-before-seq.jsonl'), 'utf8')).split('\n')[2])
    expect(v1?.event(line)).toEqual({ ok: true, event: { ...line, seq: line.ts * 1000 } })
    const file = join(dir, 'growing.jsonl')
    await writeFile(file, '')
    expect(await openTranscriptDecoder(file)).toBeNull()
    await writeFile(file, '{"type":"header","version":2')
    expect(await openTranscriptDecoder(file)).toBeNull() // the header is still being written
    await writeFile(file, `{"type":"header","version":2,"agentId":"a","sessionId":"s","parentAgentId":null,"createdAt":1}\n`)
    expect((await openTranscriptDecoder(file))?.migrated).toBe(false)
    await expect(openTranscriptDecoder(await placed('v3-newer.jsonl'))).rejects.toThrow(NewerTranscriptError)
  })
})
