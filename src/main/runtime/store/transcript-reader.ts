// Reads an agent transcript back: every complete event line, in order. A torn last line (the writer
// stopped mid-line) is skipped with a note; a corrupt line elsewhere is reported with its line number
// and skipped. Only a file that cannot be opened at all is an exception.
import type { AgentEvent } from '../../../shared/events'
import { readJsonlLines } from './jsonl-reader'
import { isEventLike, isHeader, TRANSCRIPT_VERSION, type TranscriptHeader } from './transcript-format'

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

export async function readTranscript(file: string): Promise<Transcript> {
  const out: Transcript = { file, header: null, events: [], issues: [] }
  const issue = (line: number, kind: TranscriptIssueKind, message: string) =>
    out.issues.push({ line, kind, message: `${file}:${line}: ${message}` })
  let first = true
  try {
    for await (const entry of readJsonlLines(file)) {
      if (!entry.ok) {
        if (!entry.terminated) {
          issue(entry.line, 'torn-last-line', `incomplete last line (${entry.text.length} characters) skipped: the writer stopped mid-line, probably a crash`)
        } else {
          issue(entry.line, 'corrupt-line', `line is not valid JSON (${entry.error}), skipped`)
        }
        first = false
        continue
      }
      if (first && isHeader(entry.value)) {
        first = false
        out.header = entry.value
        if (entry.value.version !== TRANSCRIPT_VERSION) {
          issue(entry.line, 'unsupported-version', `transcript format version ${String(entry.value.version)} is not ${TRANSCRIPT_VERSION}; events read as best effort`)
        }
        continue
      }
      if (first) {
        first = false
        issue(entry.line, 'missing-header', 'no header line; reading events without it')
      }
      if (isEventLike(entry.value)) out.events.push(entry.value)
      else issue(entry.line, 'not-an-event', 'line is JSON but not an agent event (no "type" and "agentId"), skipped')
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`Transcript not found: ${file}`, { cause: err })
    throw new Error(`Cannot read transcript ${file}: ${(err as Error).message}`, { cause: err })
  }
  return out
}
