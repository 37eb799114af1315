// An SQLite database with an FTS5 table, through node-sqlite3-wasm: SQLite compiled to WebAssembly with a
// VFS over Node's fs, so it is the same code in Node 20 (the CLI, browser mode) and Electron, on every
// platform, with no native binary to build or download. (Chosen by measurement on 1,000,000 events: see
// docs/app.md "Search" and bench/search.ts.)
//
// An index is derived data: the transcripts stay the truth and are only ever read. SQLite's rollback
// journal makes each batch all-or-nothing across a kill -9; a file that is damaged anyway, from another
// format, or unreadable is deleted and built again from the transcripts (openSearchDb's `fresh`).
import { rmSync } from 'node:fs'
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
      reason = `it could not be read (${errorMessage(err)})`
    }
    db.close()
  } catch (err) {
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
