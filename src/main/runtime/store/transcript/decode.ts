// The one place a transcript line becomes an event: the header says which version the file is, each line
// is checked against that version's schema (schema.ts) and migrated to the current one (migrations.ts).
// readTranscript (reader.ts) reads a file whole through it; search and a follower of another process's
// session tail a file from an offset through it (openTranscriptDecoder).
import type { AgentEvent } from '../../../../shared/events'
import { open } from 'node:fs/promises'
import { parseLine } from '../jsonl-reader'
import type { TranscriptHeader } from './format'
import { TRANSCRIPT_VERSION, migrateEvent, migrationsFrom, type Migration, type RecordedEvent } from './migrations'
import { anyHeader, problemOf, SCHEMAS, type FormatVersion } from './schema'

/**
 * The file was written by a newer Fanout, in a format this one does not know. It is refused, never read as
 * best effort, and never written to: appending this version's lines would make it a file neither reads.
 */
export class NewerTranscriptError extends Error {
  override name = 'NewerTranscriptError'
  constructor(
    readonly file: string,
    readonly version: number
  ) {
    super(
      `${file} was written by a newer Fanout: transcript version ${version}, this Fanout reads up to ${TRANSCRIPT_VERSION}. Update Fanout to open this session; the file was left as it is.`
    )
  }
}

export type HeaderRead =
  /** Not a header line at all: the file has none (its lines are read as the oldest version). */
  | { kind: 'none' }
  | { kind: 'ok'; header: TranscriptHeader; version: FormatVersion }
  /** A header that fails its version's schema (or has no usable version): its lines are read by `version`'s. */
  | { kind: 'damaged'; version: FormatVersion; problem: string }

const isHeaderLine = (value: unknown): boolean => typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'header'

/** Reads a first line as a header. Throws NewerTranscriptError for a version past this Fanout's. */
export function readHeader(file: string, value: unknown): HeaderRead {
  if (!isHeaderLine(value)) return { kind: 'none' }
  const any = anyHeader().safeParse(value)
  if (!any.success) return { kind: 'damaged', version: 1, problem: problemOf(any.error) }
  const version = any.data.version
  if (version > TRANSCRIPT_VERSION) throw new NewerTranscriptError(file, version)
  const v = version as FormatVersion
  const checked = SCHEMAS()[v].header.safeParse(value)
  if (!checked.success) return { kind: 'damaged', version: v, problem: problemOf(checked.error) }
  return { kind: 'ok', header: { ...(value as TranscriptHeader), version: TRANSCRIPT_VERSION }, version: v }
}

/** Turns the event lines of a file of one version into current events. */
export class TranscriptDecoder {
  private readonly steps: readonly Migration[]
  private readonly schema: ReturnType<typeof SCHEMAS>[FormatVersion]['event']

  constructor(
    /** The version the file was written in (1 for a file without a header: the loosest schema). */
    readonly version: FormatVersion
  ) {
    this.steps = migrationsFrom(version)
    this.schema = SCHEMAS()[version].event
  }

  /** Whether the file's lines are migrated on read. */
  get migrated(): boolean {
    return this.steps.length > 0
  }

  /** An event line, checked and migrated; or what is wrong with it. The value is kept as written, not copied. */
  event(value: unknown): { ok: true; event: RecordedEvent } | { ok: false; problem: string } {
    const checked = this.schema.safeParse(value)
    if (!checked.success) return { ok: false, problem: problemOf(checked.error) }
    return { ok: true, event: migrateEvent(this.steps, value as AgentEvent) }
  }
}

/** A header is a few hundred bytes: a first line longer than this is an event, and the file has none. */
const HEADER_MAX = 64 * 1024

/**
 * For a reader that starts mid-file: the decoder its first line (the header) calls for; null while the file
 * has no complete line (ask again later). A file without a header is read as the oldest version. Reads
 * the first line alone. Throws NewerTranscriptError, and what opening the file throws.
 */
export async function openTranscriptDecoder(file: string): Promise<TranscriptDecoder | null> {
  const handle = await open(file, 'r')
  try {
    const buf = Buffer.alloc(HEADER_MAX)
    const { bytesRead } = await handle.read(buf, 0, HEADER_MAX, 0)
    const nl = buf.subarray(0, bytesRead).indexOf(0x0a)
    if (nl === -1) return bytesRead === HEADER_MAX ? new TranscriptDecoder(1) : null
    const first = parseLine({ line: 1, text: buf.toString('utf8', 0, nl), terminated: true })
    const read = first.ok ? readHeader(file, first.value) : ({ kind: 'none' } as const)
    return new TranscriptDecoder(read.kind === 'none' ? 1 : read.version)
  } finally {
    await handle.close()
  }
}
