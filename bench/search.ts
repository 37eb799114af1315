// The search figures: a recorded session of 1,000,000 events (BENCH_SEARCH_EVENTS), written by the store's
// own recorder, indexed from its transcripts as a first open would (the index catches up as events are
// written in the app, so this is the worst case), then questions answered from the index: a rare word,
// common words, a prefix, a phrase, no match, and across sessions. Prints figures; never fails on time.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { allSessionsDbPath } from '../src/main/runtime/search/all-sessions-search'
import { SearchService } from '../src/main/runtime/search/search-service'
import { searchDbPath } from '../src/main/runtime/search/session-search'
import { writeBigSession } from './ui-big-session'
import { pct, sortNum } from './percentile'

const EVENTS = Number(process.env.BENCH_SEARCH_EVENTS ?? 1_000_000)
const RUNS = 15

export async function benchSearch(): Promise<void> {
  console.log(`\n== search: ${EVENTS.toLocaleString('en-US')} events in one session (load average ${loadavg()[0].toFixed(2)}) ==`)
  const dataDir = mkdtempSync(join(tmpdir(), 'fanout-bench-search-'))
  try {
    let t = performance.now()
    const big = await writeBigSession({ dataDir, cwd: '/bench/project', events: EVENTS })
    console.log(`recorded the session through the store's recorder: ${((performance.now() - t) / 1000).toFixed(1)} s`)
    const service = new SearchService({ dataDir, describe: async () => ({ title: big.title, cwd: '/bench/project', updatedAt: Date.now() }), waitMs: 1e9 })
    t = performance.now()
    await service.catchUp(big.sessionId)
    const buildMs = performance.now() - t
    const size = statSync(searchDbPath(dataDir, big.sessionId)).size
    const transcript = statSync(join(dataDir, 'sessions', big.sessionId, 'agents', `${big.agentId}.jsonl`)).size
    console.log(
      `index built from the transcripts: ${(buildMs / 1000).toFixed(1)} s (${Math.round(EVENTS / (buildMs / 1000)).toLocaleString('en-US')} events/s), ${(size / 1e6).toFixed(0)} MB for ${(transcript / 1e6).toFixed(0)} MB of transcript; across sessions: ${(statSync(allSessionsDbPath(dataDir)).size / 1e6).toFixed(1)} MB`
    )
    t = performance.now()
    await service.catchUp(big.sessionId)
    console.log(`catching up when nothing is new: ${(performance.now() - t).toFixed(1)} ms`)

    const questions: Array<[string, string]> = [
      ['rare word (in the last message only)', 'every module checked'],
      ['common word (~270,000 documents)', 'module'],
      ['word start', 'modu'],
      ['two common words', 'export function'],
      ['phrase', '"looks consistent so far"'],
      ['identifier', 'f4242'],
      ['no match', 'zyzzyva'],
      ['punctuation only', '::']
    ]
    for (const [what, text] of questions) {
      const times: number[] = []
      let hits = 0
      for (let i = 0; i < RUNS; i++) {
        const q = performance.now()
        hits = (await service.inSession(big.sessionId, text, 100)).hits.length
        times.push(performance.now() - q)
      }
      console.log(
        `  in the session, ${what.padEnd(38)} ${String(hits).padStart(3)} hits  p50 ${pct(sortNum(times), 50).toFixed(1)} ms  p95 ${pct(sortNum(times), 95).toFixed(1)} ms  (target < 200 ms)`
      )
    }
    const across: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const q = performance.now()
      await service.acrossSessions([big.sessionId], '/bench/project', 'read every module', 100)
      across.push(performance.now() - q)
    }
    console.log(
      `  across sessions, title and prompt words                 p50 ${pct(sortNum(across), 50).toFixed(1)} ms  p95 ${pct(sortNum(across), 95).toFixed(1)} ms`
    )
    await service.close()
    // Opened again (a restart): the index is read, not rebuilt.
    const reopened = new SearchService({ dataDir, describe: async () => ({ title: big.title, cwd: '/bench/project', updatedAt: Date.now() }), waitMs: 1e9 })
    t = performance.now()
    const first = await reopened.inSession(big.sessionId, 'module', 100)
    console.log(`after a restart, the first answer (opening the index): ${(performance.now() - t).toFixed(1)} ms, ${first.hits.length} hits`)
    await reopened.close()
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
