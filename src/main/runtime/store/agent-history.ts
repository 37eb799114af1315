// Every run of an agent definition, and review's later verdict on its work, one line each in
// `<dataDir>/agent-history.jsonl`: what `fanout agents stats`, the agent library and the fan-out estimate
// read. Append-only, one O_APPEND write of whole lines per batch of records (as the mailbox writes), so sessions in
// several processes never interleave their lines and nothing already written is rewritten. A line that is
// not a record (cut by a crash, written by hand) is skipped, never fatal.
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { lazy } from '../../../shared/lazy'
import type { AgentRunRecord } from '../../../shared/budget'
import { errorCode } from './atomic-file'

export const AGENT_HISTORY_FILE = 'agent-history.jsonl'

export const agentHistoryPath = (dataDir: string): string => join(dataDir, AGENT_HISTORY_FILE)

// Built at first use: nothing reads the history before a run's first model request.
const recordSchema = lazy(() =>
  z.object({
    ts: z.number(),
    sessionId: z.string(),
    agentId: z.string(),
    agentType: z.string(),
    file: z.string().optional(),
    model: z.string().optional(),
    outcome: z.enum(['completed', 'failed', 'stopped', 'budget', 'max_turns', 'merged', 'discarded']),
    costUsd: z.number().min(0),
    tokens: z.number().min(0),
    turns: z.number().min(0),
    durationMs: z.number().min(0),
    promptChars: z.number().min(0).optional(),
    verdict: z.literal(true).optional()
  })
)

interface Queue {
  /** The batch being written, if any. */
  writing: Promise<void> | null
  /** Records waiting for the write under way to end: they go out together in the next one. */
  next: { lines: string; done: Promise<void> } | null
}

const queues = new Map<string, Queue>()

/**
 * Appends one record; in the file once the promise resolves. One write at a time per data folder, in the
 * order appended: the records that arrive while one is under way (sixty-four siblings ending together) go
 * out as the next one, one O_APPEND write of whole lines — one open, not an open and a mkdir per record,
 * and nothing another process writes lands inside a line.
 */
export function appendAgentRun(dataDir: string, record: AgentRunRecord): Promise<void> {
  const line = `${JSON.stringify(record)}\n`
  let queue = queues.get(dataDir)
  if (!queue) queues.set(dataDir, (queue = { writing: null, next: null }))
  if (queue.next) {
    queue.next.lines += line
    return queue.next.done
  }
  const q = queue
  const batch = { lines: line, done: Promise.resolve() }
  // Sent once the write under way has ended (or at the end of this turn of the event loop), whatever it did.
  const previous = q.writing ?? new Promise<void>((r) => setImmediate(r))
  batch.done = previous
    .catch(() => undefined)
    .then(() => {
      q.next = null
      return appendLines(dataDir, batch.lines)
    })
  q.next = batch
  q.writing = batch.done
  const forget = () => {
    if (q.writing === batch.done && !q.next) queues.delete(dataDir)
  }
  batch.done.then(forget, forget)
  return batch.done
}

async function appendLines(dataDir: string, lines: string): Promise<void> {
  const file = agentHistoryPath(dataDir)
  try {
    await appendFile(file, lines, { flag: 'a' })
  } catch (err) {
    // The data folder is made once, when the first write finds it missing.
    if (errorCode(err) !== 'ENOENT') throw err
    await mkdir(dataDir, { recursive: true })
    await appendFile(file, lines, { flag: 'a' })
  }
}

/** Every record in the store, oldest first; none when there is no store yet. */
export async function readAgentHistory(dataDir: string): Promise<AgentRunRecord[]> {
  let text: string
  try {
    text = await readFile(agentHistoryPath(dataDir), 'utf8')
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return []
    throw err
  }
  const records: AgentRunRecord[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const parsed = recordSchema().safeParse(JSON.parse(line))
      if (parsed.success) records.push(parsed.data as AgentRunRecord)
    } catch {
      // A line cut short by a crash: the records around it stand.
    }
  }
  return records
}
