// A checkpoint of a session as the UI shows it: its index and the state folded from its transcripts
// (src/shared/view), with the size of every transcript it covers. Transcripts are append-only and stay
// the source of truth: a checkpoint is used only while each transcript is exactly the size it was folded
// at (no event since, no agent added or lost) and it is in the current format. Anything else replays the
// transcripts, and a new checkpoint is written. Reopening a long session then parses one file instead of
// folding every event it ever recorded.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { errorCode, readJsonFile, writeFileAtomic } from './atomic-file'
import { agentsDir, sessionDir } from './data-dir'
import type { SessionIndex } from './session-index'

/**
 * Bump when the folded state changes shape or meaning (src/shared/view): older checkpoints are then ignored.
 * 2: runs a crash cut off end as `interrupted`; agents started in one millisecond keep their live order.
 * 3: deliveries to an agent fold into inbox items (reports, messages), never user messages.
 * 4: a "Retrying…" item goes once its model call is over (answered, failed for good, or its agent ended).
 * 5: agents keep their task across resumed runs, count their work time by run, and a crash ends runs at the session's last moment.
 */
export const VIEW_CHECKPOINT_FORMAT = 5

export interface ViewCheckpoint<S> {
  format: number
  /** Each transcript's file name and size in bytes when it was folded. */
  sizes: Record<string, number>
  index: SessionIndex
  state: S
}

export const viewCheckpointPath = (dataDir: string, sessionId: string): string => join(sessionDir(dataDir, sessionId), 'view.json')

/**
 * The byte size of each transcript of the session, by file name. On the calling thread: a stat each through the
 * thread pool added a round trip's wait to a session's close (and `fanout run`'s answer) for microseconds of work.
 * `known`: lengths the caller knows for itself (its own writers'), by file name; those files are not stat'ed.
 */
export function transcriptSizesSync(dataDir: string, sessionId: string, known?: ReadonlyMap<string, number>): Record<string, number> {
  const dir = agentsDir(dataDir, sessionId)
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'))
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return {}
    throw err
  }
  return Object.fromEntries(names.map((n) => [n, known?.get(n) ?? statSync(join(dir, n)).size] as const))
}

/** transcriptSizesSync for the callers that await it (a failure rejects). */
export const transcriptSizes = async (dataDir: string, sessionId: string): Promise<Record<string, number>> => transcriptSizesSync(dataDir, sessionId)

const sameSizes = (a: Record<string, number>, b: Record<string, number>): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, size]) => b[name] === size)

/** The checkpoint, if there is one in this format that covers the transcripts as they are; else null. */
export async function readViewCheckpoint<S>(dataDir: string, sessionId: string): Promise<ViewCheckpoint<S> | null> {
  const [raw, sizes] = await Promise.all([readJsonFile(viewCheckpointPath(dataDir, sessionId)).catch(() => null), transcriptSizes(dataDir, sessionId)])
  const cp = raw as ViewCheckpoint<S> | null
  if (!cp || cp.format !== VIEW_CHECKPOINT_FORMAT || typeof cp.sizes !== 'object' || !cp.index || !cp.state) return null
  return sameSizes(cp.sizes, sizes) ? cp : null
}

export async function writeViewCheckpoint<S>(dataDir: string, sessionId: string, cp: Omit<ViewCheckpoint<S>, 'format'>): Promise<void> {
  // Compact (it can be tens of megabytes), and no fsync: a lost checkpoint costs one replay.
  await writeFileAtomic(viewCheckpointPath(dataDir, sessionId), JSON.stringify({ format: VIEW_CHECKPOINT_FORMAT, ...cp }), { fsync: false })
}
