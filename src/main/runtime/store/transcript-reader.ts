// Reads an agent transcript back: every complete event line, in order. A torn last line (the writer
// stopped mid-line) is skipped with a note; a corrupt line elsewhere is reported with its line number
// and skipped. Only a file that cannot be opened at all is an exception.
import type { AgentEvent } from '../../../shared/events'
import { parseLine, readRawLines, type RawLine } from './jsonl-reader'
import { isEventLike, isHeader, streamEnd, TRANSCRIPT_VERSION, type TranscriptHeader } from './transcript-format'
import { errorMessage } from '../../../shared/error-message'

export type TranscriptIssueKind = 'torn-last-line' | 'corrupt-line' | 'not-an-event' | 'missing-header' | 'unsupported-version'

export interface TranscriptIssue {
  /** 1-based line number in the file. */
  line: number
  kind: TranscriptIssueKind
  /** A sentence naming the file and line. */
  message: string
}

export interface Transcript {
  file: string
  header: TranscriptHeader | null
  events: AgentEvent[]
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
  const out: Transcript = { file, header: null, events: [], issues: [] }
  const issue = (line: number, kind: TranscriptIssueKind, message: string) => out.issues.push({ line, kind, message: `${file}:${line}: ${message}` })
  let first = true
  // With skipSettledDeltas: what came after the last event that ended a stream, deltas still unparsed.
  let since: Array<AgentEvent | RawLine> = []

  const take = (raw: RawLine) => {
    const entry = parseLine(raw)
    if (!entry.ok) {
      if (!entry.terminated) {
        issue(entry.line, 'torn-last-line', `incomplete last line (${entry.text.length} characters) skipped: the writer stopped mid-line, probably a crash`)
      } else {
        issue(entry.line, 'corrupt-line', `line is not valid JSON (${entry.error}), skipped`)
      }
      first = false
      return null
    }
    if (first && isHeader(entry.value)) {
      first = false
      out.header = entry.value
      if (entry.value.version !== TRANSCRIPT_VERSION) {
        issue(
          entry.line,
          'unsupported-version',
          `transcript format version ${String(entry.value.version)} is not ${TRANSCRIPT_VERSION}; events read as best effort`
        )
      }
      return null
    }
    if (first) {
      first = false
      issue(entry.line, 'missing-header', 'no header line; reading events without it')
    }
    if (isEventLike(entry.value)) return entry.value
    issue(entry.line, 'not-an-event', 'line is JSON but not an agent event (no "type" and "agentId"), skipped')
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
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`Transcript not found: ${file}`, { cause: err })
    throw new Error(`Cannot read transcript ${file}: ${errorMessage(err)}`, { cause: err })
  }
  return out
}
