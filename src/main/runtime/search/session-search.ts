// One session's search index, `sessions/<id>/search.db`, next to the transcripts it is built from. It
// remembers, per transcript, how far it has read: catching up reads only the lines appended since, so it
// is built as events are written and, when it is missing, stale (a session another process wrote) or
// damaged, from the transcripts. Each batch of documents and the offsets it reaches are one transaction:
// a kill -9 at any point leaves an index that is consistent and knows where to go on.
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { agentsDir, sessionDir } from '../store/data-dir'
import { errorCode } from '../store/atomic-file'
import { openTranscriptDecoder, type TranscriptDecoder } from '../store/transcript/decode'
import { DocExtractor, type DocKind, type SearchDoc } from './extract-docs'
import { ftsQuery } from './fts-query'
import { inTransaction, openSearchDb, type Db } from './search-db'
import { tailLines } from './tail-lines'

const SCHEMA = `
  CREATE TABLE sources (file TEXT PRIMARY KEY, resume_at INTEGER NOT NULL, indexed_until INTEGER NOT NULL, state TEXT, agent TEXT);
  CREATE TABLE docs (id INTEGER PRIMARY KEY, agent_id TEXT NOT NULL, kind TEXT NOT NULL, tool_use_id TEXT, tool_name TEXT, seq INTEGER NOT NULL, ts INTEGER NOT NULL, turn INTEGER);`

/** Documents per transaction: small enough that the main process never waits long on one. */
const BATCH = 400

export const searchDbPath = (dataDir: string, sessionId: string): string => join(sessionDir(dataDir, sessionId), 'search.db')

/** Where a hit is, in one session's index or across sessions, and what of it matched. */
export interface HitPlace {
  /** The tool call a hit in its input or output belongs to, so opening the hit lands on that call. */
  toolUseId?: string
  toolName?: string
  /** The agent's turn (of its run) the hit is from. */
  turn?: number
  seq: number
  ts: number
  /** Fragments of the document with each matched word between \u0002 and \u0003. */
  snippet: string
}

export interface SessionHit extends HitPlace {
  docId: number
  agentId: string
  kind: DocKind
}

/** The agent a transcript belongs to, as the index remembers it from its agent_start. */
export interface AgentLabel {
  agentType: string
  description: string
  name?: string
  parentAgentId: string | null
}

interface Source {
  resumeAt: number
  indexedUntil: number
  state: string | null
  agent: AgentLabel | null
}

export interface CatchUpProgress {
  /** Bytes of transcript read in this catch-up and to read in all. */
  done: number
  total: number
}

export class SessionSearch {
  private readonly db: Db
  /** Why an earlier index file was thrown away, when it was (said once, in the answer that rebuilt it). */
  readonly rebuiltBecause?: string
  private closed = false
  /** Each transcript's version, once its header was read: its lines are checked and migrated as any reader's. */
  private readonly decoders = new Map<string, TranscriptDecoder>()

  constructor(
    readonly dataDir: string,
    readonly sessionId: string
  ) {
    const opened = openSearchDb(searchDbPath(dataDir, sessionId), SCHEMA)
    this.db = opened.db
    this.rebuiltBecause = opened.reason
  }

  /** Bytes of transcript not indexed yet (0 when the index is current). */
  async behind(): Promise<{ files: Array<{ name: string; size: number; source: Source }>; bytes: number }> {
    const dir = agentsDir(this.dataDir, this.sessionId)
    let names: string[]
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort()
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return { files: [], bytes: 0 }
      throw err
    }
    const files: Array<{ name: string; size: number; source: Source }> = []
    let bytes = 0
    for (const name of names) {
      const size = (await stat(join(dir, name)).catch(() => null))?.size ?? 0
      const source = this.source(name)
      // A file smaller than what was read is not the one that was indexed (rewritten): read it again.
      if (size < source.indexedUntil) {
        this.forget(name)
        Object.assign(source, { resumeAt: 0, indexedUntil: 0, state: null })
      }
      if (size > source.resumeAt) {
        files.push({ name, size, source })
        bytes += size - source.resumeAt
      }
    }
    return { files, bytes }
  }

  /**
   * Indexes whatever the transcripts gained since the last catch-up. `onProgress` hears after each batch;
   * `shouldStop` ends it early between batches (what was committed stays).
   */
  async catchUp(onProgress?: (p: CatchUpProgress) => void, shouldStop?: () => boolean): Promise<void> {
    const { files, bytes: total } = await this.behind()
    let done = 0
    for (const { name, size, source } of files) {
      if (this.closed || shouldStop?.()) return
      const extractor = new DocExtractor()
      extractor.state = source.state
      let agent = source.agent
      let heldFrom: { at: number; state: string | null } | null = null
      let docs: Array<SearchDoc & { agent: AgentLabel | null }> = []
      let lastEnd = source.resumeAt
      const commit = () => {
        if (this.closed) return
        const resumeAt = heldFrom ? heldFrom.at : lastEnd
        const state = heldFrom ? heldFrom.state : extractor.state
        const until = Math.max(lastEnd, source.indexedUntil)
        this.insert(name, docs, { resumeAt, indexedUntil: until, state, agent })
        docs = []
      }
      const file = join(agentsDir(this.dataDir, this.sessionId), name)
      // Lines are checked and migrated as every transcript reader does; a newer Fanout's file is not indexed.
      const decoder = this.decoders.get(name) ?? (await openTranscriptDecoder(file).catch(() => null))
      if (!decoder) continue
      this.decoders.set(name, decoder)
      for await (const lines of tailLines(file, source.resumeAt)) {
        for (const line of lines) {
          if (line.start >= size) break
          let value: unknown
          try {
            value = JSON.parse(line.text)
          } catch {
            lastEnd = line.end // a damaged line: the transcript reader reports it; the index skips it
            continue
          }
          const read = decoder.event(value)
          if (!read.ok) {
            lastEnd = line.end // the header, or a line the transcript reader reports
            continue
          }
          const e = read.event
          if (e.type === 'agent_start')
            agent = { agentType: e.agentType, description: e.description, ...(e.name ? { name: e.name } : {}), parentAgentId: e.parentAgentId }
          const wasHolding = extractor.holding
          const stateBefore = extractor.state
          const made = extractor.line(e)
          if (!wasHolding && extractor.holding) heldFrom = { at: line.start, state: stateBefore }
          else if (!extractor.holding) heldFrom = null
          // Lines read again (after deltas that were held) made their documents the first time.
          if (line.end > source.indexedUntil) for (const d of made) docs.push({ ...d, agent })
          lastEnd = line.end
          if (docs.length >= BATCH) {
            commit()
            await new Promise((r) => setImmediate(r))
            if (this.closed) return
          }
        }
        done += lines.length ? lines[lines.length - 1].end - lines[0].start : 0
        onProgress?.({ done: Math.min(done, total), total })
        if (lastEnd >= size) break
      }
      commit()
    }
  }

  private source(name: string): Source {
    const row = this.db.get('SELECT resume_at, indexed_until, state, agent FROM sources WHERE file = ?', [name])
    if (!row) return { resumeAt: 0, indexedUntil: 0, state: null, agent: null }
    return {
      resumeAt: Number(row.resume_at),
      indexedUntil: Number(row.indexed_until),
      state: (row.state as string | null) ?? null,
      agent: row.agent ? (JSON.parse(String(row.agent)) as AgentLabel) : null
    }
  }

  private forget(name: string): void {
    this.decoders.delete(name)
    const agentId = name.replace(/\.jsonl$/, '')
    inTransaction(this.db, () => {
      this.db.run('DELETE FROM fts WHERE rowid IN (SELECT id FROM docs WHERE agent_id = ?)', [agentId])
      this.db.run('DELETE FROM docs WHERE agent_id = ?', [agentId])
      this.db.run('DELETE FROM sources WHERE file = ?', [name])
    })
  }

  private insert(name: string, docs: ReadonlyArray<SearchDoc & { agent: AgentLabel | null }>, s: Source): void {
    inTransaction(this.db, () => {
      if (docs.length) {
        const doc = this.db.prepare('INSERT INTO docs (agent_id, kind, tool_use_id, tool_name, seq, ts, turn) VALUES (?, ?, ?, ?, ?, ?, ?)')
        const fts = this.db.prepare('INSERT INTO fts (rowid, body) VALUES (?, ?)')
        try {
          for (const d of docs) {
            const { lastInsertRowid } = doc.run([d.agentId, d.kind, d.toolUseId ?? null, d.toolName ?? null, d.seq, d.ts, d.turn ?? null])
            fts.run([lastInsertRowid, d.body])
          }
        } finally {
          doc.finalize()
          fts.finalize()
        }
      }
      this.db.run('INSERT OR REPLACE INTO sources (file, resume_at, indexed_until, state, agent) VALUES (?, ?, ?, ?, ?)', [
        name,
        s.resumeAt,
        s.indexedUntil,
        s.state,
        s.agent ? JSON.stringify(s.agent) : null
      ])
    })
  }

  /** The newest documents that hold every word of `text` (see fts-query.ts), newest first; [] for no word. */
  search(text: string, limit = 100, kinds?: readonly DocKind[]): SessionHit[] {
    const match = ftsQuery(text)
    if (!match) return []
    const kindFilter = kinds?.length ? `AND d.kind IN (${kinds.map(() => '?').join(', ')})` : ''
    const rows = this.db.all(
      `SELECT d.id, d.agent_id, d.kind, d.tool_use_id, d.tool_name, d.turn, d.seq, d.ts, snippet(fts, 0, char(2), char(3), '…', 24) AS snippet
       FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ? ${kindFilter} ORDER BY fts.rowid DESC LIMIT ?`,
      [match, ...(kinds ?? []), limit]
    )
    return rows.map((r) => ({
      docId: Number(r.id),
      agentId: String(r.agent_id),
      kind: r.kind as DocKind,
      ...(r.tool_use_id ? { toolUseId: String(r.tool_use_id) } : {}),
      ...(r.tool_name ? { toolName: String(r.tool_name) } : {}),
      ...(r.turn ? { turn: Number(r.turn) } : {}),
      seq: Number(r.seq),
      ts: Number(r.ts),
      snippet: String(r.snippet)
    }))
  }

  /** Documents after `afterId` of the given kinds, with their bodies (for the index of every session). */
  docsAfter(
    afterId: number,
    kinds: readonly DocKind[],
    limit: number
  ): Array<{
    id: number
    agentId: string
    kind: DocKind
    toolUseId: string | null
    toolName: string | null
    turn: number | null
    seq: number
    ts: number
    body: string
  }> {
    return this.db
      .all(
        `SELECT d.id, d.agent_id, d.kind, d.tool_use_id, d.tool_name, d.turn, d.seq, d.ts, fts.body FROM docs d JOIN fts ON fts.rowid = d.id WHERE d.id > ? AND d.kind IN (${kinds.map(() => '?').join(', ')}) ORDER BY d.id LIMIT ?`,
        [afterId, ...kinds, limit]
      )
      .map((r) => ({
        id: Number(r.id),
        agentId: String(r.agent_id),
        kind: r.kind as DocKind,
        toolUseId: r.tool_use_id ? String(r.tool_use_id) : null,
        toolName: r.tool_name ? String(r.tool_name) : null,
        turn: r.turn ? Number(r.turn) : null,
        seq: Number(r.seq),
        ts: Number(r.ts),
        body: String(r.body)
      }))
  }

  /** The highest document id (documents are only ever added, so ids only grow). */
  lastDocId(): number {
    return Number(this.db.get('SELECT max(id) AS id FROM docs')?.id ?? 0)
  }

  /** Each agent's label as its transcript's agent_start gave it. */
  agents(): Record<string, AgentLabel> {
    const out: Record<string, AgentLabel> = {}
    for (const r of this.db.all('SELECT file, agent FROM sources WHERE agent IS NOT NULL'))
      out[String(r.file).replace(/\.jsonl$/, '')] = JSON.parse(String(r.agent)) as AgentLabel
    return out
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.db.close()
  }
}
