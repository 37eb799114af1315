// The chain of migrations between transcript format versions: each takes a transcript of version N to
// N+1, as pure functions over its header and its events. A reader migrates in memory (decode.ts); the file
// on disk is never rewritten (see format.ts, "Appending to an older file", for why that is safe).
//
// Each step maps one event at a time, so a reader that tails a file from an offset (search, a follower)
// migrates exactly as one that reads it whole. A future step that needs more than the event itself (lines
// around it) has to give those readers a way to carry it.
import type { AgentEvent } from '../../../../shared/events'
import type { FormatVersion } from './schema'

/** What a reader hands the rest of Fanout: every event has its place in the session's stream. */
export type RecordedEvent = AgentEvent & { seq: number }

export interface Migration {
  from: number
  to: number
  /** Why the format changed, in a few words (migratedNote says it when a file is read migrated). */
  why: string
  /** An event line valid in `from`, as `to` writes it. */
  event(e: AgentEvent): AgentEvent
}

/**
 * v1 -> v2: `seq` (the event's place in the session's stream, in microseconds since the epoch) came in
 * c02a7cd; v1 lines written before it lack it, and every reader made it up as `ts * 1000`. That is now
 * done once, here, and readers rely on `seq`. Lines of a v1 file that have one keep it.
 */
export const v1ToV2: Migration = {
  from: 1,
  to: 2,
  why: 'events written before Fanout recorded their place in the stream (seq) get it from their time',
  event: (e) => (e.seq === undefined ? { ...e, seq: e.ts * 1000 } : e)
}

/** In order: MIGRATIONS[i] takes version i+1 to i+2. */
export const MIGRATIONS: readonly Migration[] = [v1ToV2]

/** The format this Fanout writes: one past the last migration's source. */
export const TRANSCRIPT_VERSION = (MIGRATIONS.length + 1) as FormatVersion

/** The steps from `version` up to the current one (none for the current version). */
export function migrationsFrom(version: number): readonly Migration[] {
  return MIGRATIONS.filter((m) => m.from >= version)
}

/**
 * What a reader says of the files it read migrated (their versions as written), in one sentence: nothing
 * is lost, but a person looking at the files on disk should know they are not in today's format.
 */
export function migratedNote(versions: readonly number[]): string {
  const from = [...new Set(versions)].sort((a, b) => a - b)
  const why = MIGRATIONS.filter((m) => m.from >= from[0]).map((m) => `${m.from} -> ${m.to}: ${m.why}`)
  const n = versions.length
  return `${n} transcript${n === 1 ? '' : 's'} of format version ${from.join(', ')} ${n === 1 ? 'was' : 'were'} read as version ${TRANSCRIPT_VERSION} (${why.join('; ')}); the files are left as they are.`
}

/** An event of a `version` file as the current version writes it. */
export function migrateEvent(steps: readonly Migration[], e: AgentEvent): RecordedEvent {
  let out = e
  for (const m of steps) out = m.event(out)
  return out as RecordedEvent
}

/** A whole transcript of `version` (header and events) as the current version writes it. */
export function migrateTranscript<H extends { version: number }>(
  header: H,
  events: readonly AgentEvent[]
): { header: H & { version: FormatVersion }; events: RecordedEvent[] } {
  const steps = migrationsFrom(header.version)
  return { header: { ...header, version: TRANSCRIPT_VERSION }, events: events.map((e) => migrateEvent(steps, e)) }
}
