// Every run of an agent definition, and review's later verdict on its work, one line each in
// `<dataDir>/agent-history.jsonl`: what `fanout agents stats`, the agent library and the fan-out estimate
// read. Append-only, one O_APPEND write of whole lines per batch of records (as the mailbox writes), so sessions in
// several processes never interleave their lines and nothing already written is rewritten. A line that is
// not a record (cut by a crash, written by hand) is skipped, never fatal.
import { appendFile, mkdir, open, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentRunRecord } from '../../../shared/budget'
import { errorCode } from './atomic-file'

export const AGENT_HISTORY_FILE = 'agent-history.jsonl'

export const agentHistoryPath = (dataDir: string): string => join(dataDir, AGENT_HISTORY_FILE)

const OUTCOMES: ReadonlySet<unknown> = new Set<AgentRunRecord['outcome']>(['completed', 'failed', 'stopped', 'budget', 'max_turns', 'merged', 'discarded'])
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0
const isText = (x: unknown): x is string => typeof x === 'string'

/**
 * The record a parsed line holds, with only the fields a record has; null when it is not one (a line written
 * by hand, or by a newer Fanout). Checked by hand rather than with a zod schema: a fan-out's estimate reads
 * the history on the turn its calls are made, and a schema took ~50 µs a line, 0.5 s for a history of 10,000.
 */
function recordOf(v: unknown): AgentRunRecord | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  if (typeof o.ts !== 'number' || !Number.isFinite(o.ts) || !isText(o.sessionId) || !isText(o.agentId) || !isText(o.agentType)) return null
  if (!OUTCOMES.has(o.outcome) || !isCount(o.costUsd) || !isCount(o.tokens) || !isCount(o.turns) || !isCount(o.durationMs)) return null
  if (o.file !== undefined && !isText(o.file)) return null
  if (o.model !== undefined && !isText(o.model)) return null
  if (o.promptChars !== undefined && !isCount(o.promptChars)) return null
  if (o.verdict !== undefined && o.verdict !== true) return null
  return {
    ts: o.ts,
    sessionId: o.sessionId,
    agentId: o.agentId,
    agentType: o.agentType,
    ...(o.file !== undefined ? { file: o.file } : {}),
    ...(o.model !== undefined ? { model: o.model } : {}),
    outcome: o.outcome as AgentRunRecord['outcome'],
    costUsd: o.costUsd,
    tokens: o.tokens,
    turns: o.turns,
    durationMs: o.durationMs,
    ...(o.promptChars !== undefined ? { promptChars: o.promptChars } : {}),
    ...(o.verdict ? { verdict: true as const } : {})
  }
}

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

/** What this process has read of a data folder's history: its whole lines up to `size` bytes. */
interface ReadSoFar {
  dev: number
  ino: number
  size: number
  records: AgentRunRecord[]
}

const readSoFar = new Map<string, ReadSoFar>()

/**
 * Every record in the store, oldest first; none when there is no store yet. The file only grows (appends of
 * whole lines, by any process), so what was read before is kept and only the lines added since are read: a
 * fan-out's estimate reads it on every turn that starts agents, and a long history would otherwise be read and
 * checked in full each time. A file that was replaced or cut shorter is read again from its start.
 */
export async function readAgentHistory(dataDir: string): Promise<AgentRunRecord[]> {
  let handle: FileHandle
  try {
    handle = await open(agentHistoryPath(dataDir), 'r')
  } catch (err) {
    if (errorCode(err) === 'ENOENT') {
      readSoFar.delete(dataDir)
      return []
    }
    throw err
  }
  try {
    const st = await handle.stat()
    let known = readSoFar.get(dataDir)
    if (!known || known.dev !== st.dev || known.ino !== st.ino || st.size < known.size) known = { dev: st.dev, ino: st.ino, size: 0, records: [] }
    let tail: AgentRunRecord[] = []
    if (st.size > known.size) {
      const buf = Buffer.alloc(st.size - known.size)
      const { bytesRead } = await handle.read(buf, 0, buf.length, known.size)
      // Whole lines are kept; a last line without its newline (being written, or cut by a crash) is read
      // this time only, and again with what follows it.
      const whole = bytesRead ? buf.lastIndexOf(0x0a, bytesRead - 1) + 1 : 0
      known = { ...known, size: known.size + whole, records: known.records.concat(parseLines(buf.toString('utf8', 0, whole))) }
      tail = parseLines(buf.toString('utf8', whole, bytesRead))
    }
    readSoFar.set(dataDir, known)
    return known.records.concat(tail)
  } finally {
    await handle.close()
  }
}

function parseLines(text: string): AgentRunRecord[] {
  const records: AgentRunRecord[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const record = recordOf(JSON.parse(line))
      if (record) records.push(record)
    } catch {
      // A line cut short by a crash: the records around it stand.
    }
  }
  return records
}
