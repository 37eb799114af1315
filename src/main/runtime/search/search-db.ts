// An SQLite database with an FTS5 table, through node-sqlite3-wasm: SQLite compiled to WebAssembly with a
// VFS over Node's fs, so it is the same code in Node 20 (the CLI, browser mode) and Electron, on every
// platform, with no native binary to build or download. (Chosen by measurement on 1,000,000 events: see
// docs/app.md "Search" and bench/search.ts.)
//
// An index is derived data: the transcripts stay the truth and are only ever read. SQLite's rollback
// journal makes each batch all-or-nothing across a kill -9; a file that is damaged anyway, from another
// format, or unreadable is deleted and built again from the transcripts (openSearchDb's `fresh`).
import { existsSync, lstatSync, rmdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Database as SqliteDatabase } from 'node-sqlite3-wasm'
import { errorMessage } from '../../../shared/error-message'

// A CommonJS package: required, so its exports are found the same way under Node's ESM loader, the CLI
// bundle and Electron.
const { Database } = createRequire(import.meta.url)('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm')

export type Db = SqliteDatabase

/** Bump when the schema or what goes into documents changes: an index of another format is rebuilt. */
export const SEARCH_FORMAT = 2

const TOKENIZER = `unicode61 remove_diacritics 2 tokenchars '_'`

export interface OpenedDb {
  db: Db
  /** The file was missing, of another format or damaged: it is new and empty. */
  fresh: boolean
  /** Why an existing file was thrown away, when it was. */
  reason?: string
}

/**
 * How long the VFS's lock folder may stand unchanged before it is taken as left by a process that died.
 * node-sqlite3-wasm locks a database by making the folder `<file>.lock` (its VFS has no fcntl locks), and a
 * kill -9 leaves that folder behind, where SQLite's own locks would die with the process: every later open
 * would then wait on it and fail with "database is locked", forever. A live holder keeps it only for one
 * statement or one batch's transaction (BATCH documents: milliseconds, a second on a loaded machine).
 */
export const STALE_LOCK_MS = 10_000

/** The VFS's lock folder of a database file. */
const lockOf = (file: string): string => `${file}.lock`

/** Whether an error says another connection holds the database's lock (not damage: nothing is thrown away for it). */
export function isBusy(err: unknown): boolean {
  return /database is locked|SQLITE_BUSY/i.test((err as Error)?.message ?? '')
}

/**
 * Removes the database's lock folder when it has stood longer than STALE_LOCK_MS (see there): true when it
 * did, so what failed on it can be tried again.
 */
export function breakStaleLock(file: string, now = Date.now()): boolean {
  try {
    const st = lstatSync(lockOf(file))
    if (!st.isDirectory() || now - st.mtimeMs < STALE_LOCK_MS) return false
    rmdirSync(lockOf(file))
    return true
  } catch {
    return false
  }
}

/** The error for an index another connection holds: its file is kept, and the caller may ask again later. */
class SearchBusyError extends Error {
  constructor(file: string, err: unknown) {
    super(`The search index ${file} is in use: ${errorMessage(err)}`, { cause: err })
  }
}

function removeDbFiles(file: string): void {
  for (const f of [file, `${file}-journal`, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true })
}

/**
 * Opens (creating or recreating when needed) a search database. `schema` creates the tables beyond the
 * `meta` table and the `fts` table every index has; `format` is that schema's version (SEARCH_FORMAT unless the
 * file's own tables changed alone).
 */
export function openSearchDb(file: string, schema: string, format = SEARCH_FORMAT): OpenedDb {
  let reason: string | undefined
  // A lock folder still there is another process's (this one's statements all run to their end before it
  // goes on), or a dead one's not yet old enough to let go: said at once, not after SQLite's busy wait,
  // which would hold the whole process still (the page asks again while an index is held).
  if (!breakStaleLock(file) && existsSync(lockOf(file))) throw new SearchBusyError(file, new Error('database is locked'))
  try {
    const db = new Database(file)
    try {
      db.exec('PRAGMA busy_timeout = 2000')
      const meta = db.get(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'`)
      if (meta) {
        // No full check here (it reads the whole file: seconds on a long session): a damaged page makes
        // the query or insert that reads it fail as corrupt, and the index is rebuilt then (search-service.ts).
        const row = db.get(`SELECT value FROM meta WHERE key = 'format'`)
        db.get('SELECT count(*) AS n FROM fts_config')
        if (Number(row?.value) === format) return { db, fresh: false }
        reason = 'it is from another version of Fanout'
      }
    } catch (err) {
      if (isBusy(err)) {
        db.close()
        throw new SearchBusyError(file, err)
      }
      reason = `it could not be read (${errorMessage(err)})`
    }
    db.close()
  } catch (err) {
    if (err instanceof SearchBusyError) throw err
    reason = `it could not be opened (${errorMessage(err)})`
  }
  if (reason) removeDbFiles(file)
  const db = new Database(file)
  try {
    db.exec('PRAGMA busy_timeout = 2000')
    db.exec('PRAGMA journal_mode = TRUNCATE')
    db.exec(`BEGIN;
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
      CREATE VIRTUAL TABLE fts USING fts5(body, tokenize = "${TOKENIZER}");
      ${schema}
      INSERT INTO meta (key, value) VALUES ('format', '${format}');
      COMMIT;`)
  } catch (err) {
    db.close()
    // Another connection made it meanwhile and holds it: its file is its own.
    if (isBusy(err)) throw new SearchBusyError(file, err)
    removeDbFiles(file)
    throw new Error(`Could not create the search index ${file}: ${errorMessage(err)}`, { cause: err })
  }
  return { db, fresh: true, ...(reason ? { reason } : {}) }
}

/** Runs `fn` in one transaction: all of it lands, or none. */
export function inTransaction<T>(db: Db, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE')
  try {
    const out = fn()
    db.exec('COMMIT')
    return out
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK')
    throw err
  }
}

/** Whether an error says the database file is damaged (then it is rebuilt rather than reported again and again). */
export function isCorruption(err: unknown): boolean {
  return /malformed|corrupt|not a database|SQLITE_CORRUPT|SQLITE_NOTADB/i.test((err as Error)?.message ?? '')
}

export const deleteSearchDb = removeDbFiles
