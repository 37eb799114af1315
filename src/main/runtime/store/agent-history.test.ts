import { readFileSync } from 'node:fs'
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
