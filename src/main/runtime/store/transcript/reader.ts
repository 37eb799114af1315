// Reads an agent transcript back: every complete event line, in order, checked against its version's schema
// and migrated to the current version (decode.ts). A torn last line (the writer stopped mid-line) is skipped
// with a note; a corrupt line elsewhere is reported with its line number and skipped. A file that cannot be
// opened, or that a newer Fanout wrote (NewerTranscriptError), is an exception.
import { errorMessage } from '../../../../shared/error-message'
import { parseLine, readRawLines, type RawLine } from '../jsonl-reader'
import { NewerTranscriptError, readHeader, TranscriptDecoder } from './decode'
import { streamEnd, TRANSCRIPT_VERSION, type TranscriptHeader } from './format'
import type { RecordedEvent } from './migrations'
import type { FormatVersion } from './schema'

export type TranscriptIssueKind = 'torn-last-line' | 'corrupt-line' | 'not-an-event' | 'missing-header' | 'corrupt-header'

export interface TranscriptIssue {
  /** 1-based line number in the file. */
  line: number
  kind: TranscriptIssueKind
  /** A sentence naming the file and line. */
  message: string
}

export interface Transcript {
  file: string
  /** As migrated: `version` is the current one (see `writtenIn`). */
  header: TranscriptHeader | null
  /** The version the file was written in (1 for a file without a usable header); below the current one, its events were migrated. */
  writtenIn: FormatVersion
  events: RecordedEvent[]
  issues: TranscriptIssue[]
}

export interface ReadTranscriptOptions {
  /**
   * Leave out the streamed deltas that a later assistant `message` repeats in full or a retrying error
   * voids (what a replay of the UI needs); they are not even parsed. Deltas of a reply that ended
   * otherwise (its turn ended first: it failed half-way) or is still streaming are kept (see streamEnd).
   */
  skipSettledDeltas?: boolean
}

const DELTA_TYPES: ReadonlySet<string> = new Set(['text_delta', 'thinking_delta', 'tool_input_delta'])
// The recorder writes `type` first, so most deltas are known by their first bytes and never parsed. A
// delta written otherwise is parsed, then dropped all the same: the check only saves work.
const DELTA_PREFIXES = [...DELTA_TYPES].map((t) => `{"type":"${t}"`)
const looksLikeDelta = (text: string) => text.startsWith('{"type":"') && DELTA_PREFIXES.some((p) => text.startsWith(p))

export async function readTranscript(file: string, options: ReadTranscriptOptions = {}): Promise<Transcript> {
  const out: Transcript = { file, header: null, writtenIn: TRANSCRIPT_VERSION, events: [], issues: [] }
  const issue = (line: number, kind: TranscriptIssueKind, message: string) => out.issues.push({ line, kind, message: `${file}:${line}: ${message}` })
  let first = true
  // Lines before the header is read (none: it is the first line) are read as the oldest version.
  let decoder = new TranscriptDecoder(1)
  // With skipSettledDeltas: what came after the last event that ended a stream, deltas still unparsed.
  let since: Array<RecordedEvent | RawLine> = []

  const take = (raw: RawLine) => {
    const entry = parseLine(raw)
    if (!entry.ok) {
      if (!entry.terminated) {
        issue(entry.line, 'torn-last-line', `incomplete last line (${entry.text.length} characters) skipped: the writer stopped mid-line, probably a crash`)
      } else {
        issue(entry.line, 'corrupt-line', `line is not valid JSON (${entry.error}), skipped`)
      }
      if (first) out.writtenIn = 1 // whatever the lost header said: the rest is read by the loosest schema
      first = false
      return null
    }
    if (first) {
      first = false
      const head = readHeader(file, entry.value) // throws for a newer version: nothing of it is read
      if (head.kind !== 'none') {
        out.writtenIn = head.version
        decoder = new TranscriptDecoder(head.version)
        if (head.kind === 'ok') out.header = head.header
        else issue(entry.line, 'corrupt-header', `the header line is damaged (${head.problem}); events read as version ${head.version}`)
        return null
      }
      out.writtenIn = 1
      issue(entry.line, 'missing-header', 'no header line; reading events without it')
    }
    const read = decoder.event(entry.value)
    if (read.ok) return read.event
    issue(entry.line, 'not-an-event', `line is JSON but not an agent event of transcript version ${decoder.version} (${read.problem}), skipped`)
    return null
  }

  const settle = (keepDeltas: boolean) => {
    for (const x of since) {
      const e = 'type' in x ? x : keepDeltas ? take(x) : null
      if (e && (keepDeltas || !DELTA_TYPES.has(e.type))) out.events.push(e)
    }
    since = []
  }

  try {
    for await (const lines of readRawLines(file)) {
      for (const raw of lines) {
        if (!options.skipSettledDeltas) {
          const e = take(raw)
          if (e) out.events.push(e)
        } else if (!first && looksLikeDelta(raw.text)) since.push(raw)
        else {
          const e = take(raw)
          if (!e) continue
          // Deltas that an assistant message repeats (or a retry voids) are dropped unparsed.
          const end = streamEnd(e)
          if (end) {
            settle(end === 'kept')
            out.events.push(e)
          } else since.push(e)
        }
      }
    }
    settle(true)
  } catch (err) {
    if (err instanceof NewerTranscriptError) throw err
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`Transcript not found: ${file}`, { cause: err })
    throw new Error(`Cannot read transcript ${file}: ${errorMessage(err)}`, { cause: err })
  }
  return out
}
