// The index across sessions, `<dataDir>/search.db`: every session's title and every document of its
// transcripts (prompts, replies, thinking, tool inputs and outputs — subagents' too —, messages, errors,
// reports), copied from each session's own index (session-search.ts) as that one
// grows. It remembers, per session, the last document it copied, so a copy cut short by a kill goes on
// where it stopped; damaged, it is rebuilt from the sessions' indexes, which are rebuilt from transcripts.
import { join } from 'node:path'
import type { DocKind } from './extract-docs'
import { ftsQuery } from './fts-query'
import { inTransaction, openSearchDb, type Db } from './search-db'
import type { AgentLabel, HitPlace, SessionSearch } from './session-search'

const SCHEMA = `
  CREATE TABLE sessions (session_id TEXT PRIMARY KEY, cwd TEXT NOT NULL, title TEXT NOT NULL, copied_until INTEGER NOT NULL, title_doc INTEGER);
  CREATE TABLE docs (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, agent_id TEXT, kind TEXT NOT NULL, seq INTEGER NOT NULL, ts INTEGER NOT NULL, agent TEXT, tool_use_id TEXT, tool_name TEXT, turn INTEGER);
  CREATE INDEX docs_session ON docs (session_id);`

/** What is searched across sessions (besides titles): all a session's index holds, a person looks for a word anywhere. */
export const ACROSS_KINDS: readonly DocKind[] = ['prompt', 'text', 'thinking', 'tool_input', 'tool_output', 'message', 'error', 'report']

const COPY_BATCH = 500

/** This file's own format: 3 added each document's tool call (tool_use_id), so it alone is rebuilt, not every session's index. */
const ACROSS_FORMAT = 3

export const allSessionsDbPath = (dataDir: string): string => join(dataDir, 'search.db')

export interface AcrossHit extends HitPlace {
  sessionId: string
  agentId: string | null
  kind: DocKind | 'title'
  agent: AgentLabel | null
}

export class AllSessionsSearch {
  private readonly db: Db
  readonly rebuiltBecause?: string

  constructor(readonly dataDir: string) {
    const opened = openSearchDb(allSessionsDbPath(dataDir), SCHEMA, ACROSS_FORMAT)
    this.db = opened.db
    this.rebuiltBecause = opened.reason
  }

  /** The session's title, as a document of its own (replaced when the title changes). */
  setTitle(sessionId: string, cwd: string, title: string, ts: number): void {
    const row = this.db.get('SELECT title, title_doc, cwd FROM sessions WHERE session_id = ?', [sessionId])
    if (row && row.title === title && row.cwd === cwd) return
    inTransaction(this.db, () => {
      if (!row) this.db.run('INSERT INTO sessions (session_id, cwd, title, copied_until) VALUES (?, ?, ?, 0)', [sessionId, cwd, title])
      if (row?.title_doc) {
        this.db.run('DELETE FROM fts WHERE rowid = ?', [Number(row.title_doc)])
        this.db.run('DELETE FROM docs WHERE id = ?', [Number(row.title_doc)])
      }
      let doc: number | null = null
      if (title.trim()) {
        doc = Number(this.db.run('INSERT INTO docs (session_id, agent_id, kind, seq, ts) VALUES (?, NULL, ?, 0, ?)', [sessionId, 'title', ts]).lastInsertRowid)
        this.db.run('INSERT INTO fts (rowid, body) VALUES (?, ?)', [doc, title])
      }
      this.db.run('UPDATE sessions SET title = ?, cwd = ?, title_doc = ? WHERE session_id = ?', [title, cwd, doc, sessionId])
    })
  }

  /** Copies what the session's index gained since the last copy. */
  copyFrom(index: SessionSearch): void {
    const row = this.db.get('SELECT copied_until FROM sessions WHERE session_id = ?', [index.sessionId])
    if (!row) return // setTitle first: a session is known by its folder
    let after = Number(row.copied_until)
    const labels = index.agents()
    for (;;) {
      const docs = index.docsAfter(after, ACROSS_KINDS, COPY_BATCH)
      if (!docs.length) return
      inTransaction(this.db, () => {
        const doc = this.db.prepare(
          'INSERT INTO docs (session_id, agent_id, kind, seq, ts, agent, tool_use_id, tool_name, turn) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'
        )
        const fts = this.db.prepare('INSERT INTO fts (rowid, body) VALUES (?, ?)')
        try {
          for (const d of docs) {
            const label = labels[d.agentId]
            const { lastInsertRowid } = doc.run([
              index.sessionId,
              d.agentId,
              d.kind,
              d.seq,
              d.ts,
              label ? JSON.stringify(label) : null,
              d.toolUseId,
              d.toolName,
              d.turn
            ])
            fts.run([lastInsertRowid, d.body])
          }
        } finally {
          doc.finalize()
          fts.finalize()
        }
        after = docs[docs.length - 1].id
        this.db.run('UPDATE sessions SET copied_until = ? WHERE session_id = ?', [after, index.sessionId])
      })
    }
  }

  /** Whether the session's documents were copied up to `lastDocId`. */
  copiedUpTo(sessionId: string): number {
    return Number(this.db.get('SELECT copied_until FROM sessions WHERE session_id = ?', [sessionId])?.copied_until ?? -1)
  }

  forget(sessionId: string): void {
    inTransaction(this.db, () => {
      this.db.run('DELETE FROM fts WHERE rowid IN (SELECT id FROM docs WHERE session_id = ?)', [sessionId])
      this.db.run('DELETE FROM docs WHERE session_id = ?', [sessionId])
      this.db.run('DELETE FROM sessions WHERE session_id = ?', [sessionId])
    })
  }

  knownSessions(): string[] {
    return this.db.all('SELECT session_id FROM sessions').map((r) => String(r.session_id))
  }

  /** Documents of the sessions of `cwd` (titles and transcripts) that hold every word of `text`, newest first. */
  search(text: string, cwd: string, limit = 100): AcrossHit[] {
    const match = ftsQuery(text)
    if (!match) return []
    const rows = this.db.all(
      `SELECT d.session_id, d.agent_id, d.kind, d.tool_use_id, d.tool_name, d.turn, d.seq, d.ts, d.agent, snippet(fts, 0, char(2), char(3), '…', 24) AS snippet
       FROM fts JOIN docs d ON d.id = fts.rowid JOIN sessions s ON s.session_id = d.session_id
       WHERE fts MATCH ? AND s.cwd = ? ORDER BY fts.rowid DESC LIMIT ?`,
      [match, cwd, limit]
    )
    return rows.map((r) => ({
      sessionId: String(r.session_id),
      agentId: r.agent_id ? String(r.agent_id) : null,
      kind: r.kind as AcrossHit['kind'],
      ...(r.tool_use_id ? { toolUseId: String(r.tool_use_id) } : {}),
      ...(r.tool_name ? { toolName: String(r.tool_name) } : {}),
      ...(r.turn ? { turn: Number(r.turn) } : {}),
      seq: Number(r.seq),
      ts: Number(r.ts),
      snippet: String(r.snippet),
      agent: r.agent ? (JSON.parse(String(r.agent)) as AgentLabel) : null
    }))
  }

  close(): void {
    this.db.close()
  }
}
