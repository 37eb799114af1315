// What Fanout did with agents' branches (merged, squashed, discarded), kept in the repository's git dir
// (`.git/fanout/landed.jsonl`, one JSON line each) so that a session's Changes view can still say what
// became of an agent whose branch is gone, in this process or the next one.
import { appendFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { LandedRecord } from '../../../shared/review'
import { readConfigFile } from '../store/read-config'

/** Far more than years of merges; a larger file is not read. */
const MAX_LOG_BYTES = 64 * 1024 * 1024

const file = (commonDir: string) => join(commonDir, 'fanout', 'landed.jsonl')

export async function recordLanded(commonDir: string, record: LandedRecord): Promise<void> {
  await mkdir(join(commonDir, 'fanout'), { recursive: true })
  await appendFile(file(commonDir), JSON.stringify(record) + '\n', 'utf8')
}

/** The latest record of each agent; a damaged line is skipped (the log only explains, it decides nothing). */
export async function readLanded(commonDir: string): Promise<Map<string, LandedRecord>> {
  const out = new Map<string, LandedRecord>()
  let text: string
  try {
    // Bounded, regular files only: a pipe planted in the repository's git folder must not hang Review.
    const read = readConfigFile(file(commonDir), MAX_LOG_BYTES)
    if (!('text' in read)) return out
    text = read.text
  } catch {
    return out
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const r = JSON.parse(line) as LandedRecord
      if (typeof r.agentId === 'string' && typeof r.commit === 'string' && ['merged', 'squashed', 'discarded'].includes(r.action)) out.set(r.agentId, r)
    } catch {}
  }
  return out
}
