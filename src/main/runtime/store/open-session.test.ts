// Reopening a session a kill cut off: a transcript opened ahead for an agent that never wrote a line is the
// recorder's own, not damage, so it is not reported; a caller holding the lock removes it. A file with a
// line that is not an event is still reported.
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { transcriptPath } from './data-dir'
import { openSession } from './open-session'
import { eventsFor, markWriterDead, strictRecorder, useTempDataDir } from './test-fixtures'

let dataDir = ''
useTempDataDir((d) => (dataDir = d))
const sessionId = 's-opened-ahead'

/** A main agent's run cut off by a kill, with a transcript the recorder opened ahead for `a1`, which never started. */
async function crashedWithFileAhead(): Promise<string> {
  const main = eventsFor({ sessionId, agentId: 'main', parentAgentId: null, parentToolUseId: null })
  const recorder = strictRecorder({ dataDir, sessionId, cwd: '/repo' })
  recorder.record(main.start())
  recorder.prepare({ agentId: 'a1', sessionId, parentAgentId: 'main', ts: Date.now() })
  await recorder.flush()
  await markWriterDead(dataDir, sessionId)
  const file = transcriptPath(dataDir, sessionId, 'a1')
  expect(existsSync(file), 'the recorder opened the file ahead').toBe(true)
  return file
}

describe('openSession after a kill', () => {
  it('says nothing of a transcript opened ahead and never written, and removes it only for a caller holding the lock', async () => {
    const file = await crashedWithFileAhead()
    const viewed = await openSession(dataDir, sessionId)
    expect(viewed.notes).toEqual([])
    expect(Object.keys(viewed.agents)).toEqual(['main'])
    expect(existsSync(file), 'a viewer leaves the folder as it is').toBe(true)

    const owned = await openSession(dataDir, sessionId, { writerGone: true })
    expect(owned.notes).toEqual([])
    expect(existsSync(file), 'the owner removes its dead writer\u2019s empty file').toBe(false)
  })

  it('still reports a transcript whose lines are not events', async () => {
    await crashedWithFileAhead()
    const broken = transcriptPath(dataDir, sessionId, 'a2')
    await writeFile(broken, 'not json\n')
    const opened = await openSession(dataDir, sessionId, { writerGone: true })
    expect(opened.notes.some((n) => n.includes(broken) && /not valid JSON|no readable events/.test(n))).toBe(true)
    expect(existsSync(broken), 'a damaged file is never removed').toBe(true)
  })
})
