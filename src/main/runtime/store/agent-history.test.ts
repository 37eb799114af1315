import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AgentRunRecord } from '../../../shared/budget'
import { makeTempDir } from '../tools/test-kit'
import { agentHistoryPath, appendAgentRun, readAgentHistory } from './agent-history'

const { dir, cleanup } = makeTempDir('fanout-history-')
afterAll(() => cleanup())

const run = (i: number): AgentRunRecord => ({
  ts: i,
  sessionId: 's',
  agentId: `a${i}`,
  agentType: 'Explore',
  outcome: 'completed',
  costUsd: 0.01,
  tokens: 100,
  turns: 2,
  durationMs: 10
})

describe('appendAgentRun', () => {
  it('sixty-four siblings ending at once: every record whole, in order, each promise resolved once its line is in the file', async () => {
    const dataDir = join(dir, 'new-data-dir') // not there yet: made by the first write
    await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        appendAgentRun(dataDir, run(i)).then(() => expect(readFileSync(agentHistoryPath(dataDir), 'utf8')).toContain(`"agentId":"a${i}"`))
      )
    )
    await appendAgentRun(dataDir, run(64))
    expect((await readAgentHistory(dataDir)).map((r) => r.agentId)).toEqual(Array.from({ length: 65 }, (_, i) => `a${i}`))
    expect(readFileSync(agentHistoryPath(dataDir), 'utf8').split('\n')).toHaveLength(66) // 65 lines and the last newline
  })

  it('records appended in later turns, while a write is under way, land after it in the order appended', async () => {
    const dataDir = join(dir, 'staggered')
    const writes: Promise<void>[] = []
    for (let i = 0; i < 20; i++) {
      writes.push(appendAgentRun(dataDir, run(i)))
      if (i % 3 === 0) await new Promise((r) => setImmediate(r))
    }
    await Promise.all(writes)
    expect((await readAgentHistory(dataDir)).map((r) => r.agentId)).toEqual(Array.from({ length: 20 }, (_, i) => `a${i}`))
  })

  it('a write that fails fails the records it carried, and the next write goes on', async () => {
    const blocked = join(dir, 'blocked')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(blocked, 'a file where the data folder should be')
    await expect(appendAgentRun(blocked, run(1))).rejects.toThrow()
    const ok = join(dir, 'ok')
    await appendAgentRun(ok, run(2))
    expect((await readAgentHistory(ok)).map((r) => r.agentId)).toEqual(['a2'])
  })
})

describe('readAgentHistory', () => {
  const line = (r: object) => `${JSON.stringify(r)}\n`

  it('reads what other processes append after it read, a line being written only once it is whole', async () => {
    const dataDir = join(dir, 'growing')
    mkdirSync(dataDir)
    const file = agentHistoryPath(dataDir)
    writeFileSync(file, line(run(1)) + line(run(2)))
    expect((await readAgentHistory(dataDir)).map((r) => r.agentId)).toEqual(['a1', 'a2'])
    // Another process is in the middle of its write: half a line, then the rest.
    const third = line(run(3))
    appendFileSync(file, third.slice(0, 20))
    expect((await readAgentHistory(dataDir)).map((r) => r.agentId)).toEqual(['a1', 'a2'])
    appendFileSync(file, third.slice(20) + line({ ...run(4), model: 'claude-haiku-4-5', promptChars: 120 }))
    const all = await readAgentHistory(dataDir)
    expect(all.map((r) => r.agentId)).toEqual(['a1', 'a2', 'a3', 'a4'])
    expect(all[3]).toEqual({ ...run(4), model: 'claude-haiku-4-5', promptChars: 120 })
    // A last line written by hand without its newline is read as it is.
    appendFileSync(file, JSON.stringify(run(5)))
    expect((await readAgentHistory(dataDir)).map((r) => r.agentId)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5'])
  })

  it('reads lines once: those read before are not read again, and a file replaced or cut shorter is read from its start', async () => {
    const dataDir = join(dir, 'once')
    mkdirSync(dataDir)
    const file = agentHistoryPath(dataDir)
    writeFileSync(file, line(run(1)) + line(run(2)))
    await readAgentHistory(dataDir)
    // Changed in place, same length: what was read stands (the file is append-only; this shows it is not re-read).
    writeFileSync(file, line(run(1)) + line(run(2)).replace('"a2"', '"b2"'))
    expect((await readAgentHistory(dataDir)).map((r) => r.agentId)).toEqual(['a1', 'a2'])
    // Replaced by a shorter file: read again from its start.
    rmSync(file)
    writeFileSync(file, line(run(7)))
    expect((await readAgentHistory(dataDir)).map((r) => r.agentId)).toEqual(['a7'])
    rmSync(file)
    expect(await readAgentHistory(dataDir)).toEqual([])
  })

  it('skips what is not a record, and keeps only a record’s fields', async () => {
    const dataDir = join(dir, 'mixed')
    mkdirSync(dataDir)
    writeFileSync(
      agentHistoryPath(dataDir),
      [
        line({ ...run(1), extra: 'dropped' }),
        'not json\n',
        line({ ...run(2), outcome: 'exploded' }),
        line({ ...run(3), costUsd: -1 }),
        line({ ...run(4), turns: '2' }),
        line({ ...run(5), verdict: false }),
        line([run(6)]),
        '{"ts":1,"sessionId":"s"\n',
        line({ ...run(8), outcome: 'merged', verdict: true })
      ].join('')
    )
    const records = await readAgentHistory(dataDir)
    expect(records).toEqual([run(1), { ...run(8), outcome: 'merged', verdict: true }])
  })
})
