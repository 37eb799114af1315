// search.query for the host: in one session or across the sessions of a folder (titles, and every
// transcript: tool inputs and outputs, subagents' too), through the search indexes (src/main/runtime/search),
// which catch up as the host's sessions record events.
import type { CallHandler } from '../../../shared/call-handlers'
import { resolve } from 'node:path'
import type { SearchHit } from '../../../shared/search-replay-contract'
import { HostCallError } from '../../../shared/host-call-error'
import { readSessionIndex } from '../store'
import { isSafeId } from '../store/data-dir'
import { SearchService } from '../search/search-service'
import type { AgentLabel, SessionHit } from '../search/session-search'
import type { AcrossHit } from '../search/all-sessions-search'
import type { LiveSessions } from './live-sessions'
import { sessionName, storedSession } from './session-files'

export interface SearchCallsOptions {
  dataDir: string
  live: LiveSessions
  cwd(): string
  /** The folder's sessions, newest first (the sidebar's list). */
  listSessions: CallHandler<'sessions.list'>
}

/** A hit as the page reads it, in one session or across sessions: the agent it is in, where, and its snippet. */
function hitFields(h: SessionHit | AcrossHit, agent: AgentLabel | null | undefined): Omit<SearchHit, 'sessionId' | 'sessionTitle'> {
  return {
    agentId: h.agentId,
    ...(agent ? { agentType: agent.agentType, agentDescription: agent.description } : {}),
    kind: h.kind,
    ...(h.toolUseId ? { toolUseId: h.toolUseId } : {}),
    ...(h.toolName ? { toolName: h.toolName } : {}),
    ...(h.turn ? { turn: h.turn } : {}),
    seq: h.seq,
    ts: h.ts,
    snippet: h.snippet
  }
}

export class SearchCalls {
  readonly service: SearchService

  constructor(private readonly o: SearchCallsOptions) {
    this.service = new SearchService({
      dataDir: o.dataDir,
      describe: (id) => this.describe(id),
      flush: (id) => o.live.get(id)?.session.flush() ?? Promise.resolve(),
      onError: (err) => console.warn(`fanout: search: ${err.message}`)
    })
  }

  private async describe(sessionId: string): Promise<{ title: string; cwd: string; updatedAt: number } | null> {
    const live = this.o.live.get(sessionId)
    if (live) return { title: live.title, cwd: resolve(live.session.cwd), updatedAt: live.updatedAt }
    if (!isSafeId(sessionId)) return null
    const index = await readSessionIndex(this.o.dataDir, sessionId).catch(() => null)
    if (index) return { title: sessionName(this.o.dataDir, sessionId) ?? index.title, cwd: resolve(index.cwd), updatedAt: index.updatedAt }
    const stored = await storedSession(this.o.dataDir, sessionId).catch(() => null)
    return stored ? { title: sessionName(this.o.dataDir, sessionId) ?? stored.title, cwd: resolve(stored.cwd), updatedAt: stored.updatedAt } : null
  }

  query: CallHandler<'search.query'> = async ({ text, sessionId, cwd, limit }) => {
    if (sessionId) {
      if (!(await this.describe(sessionId))) throw new HostCallError('not_found', `There is no session ${sessionId}.`)
      const r = await this.service.inSession(sessionId, text, limit)
      const hits: SearchHit[] = r.hits.map((h) => ({ sessionId, ...hitFields(h, r.agents[h.agentId]) }))
      return { hits, ...(r.indexing ? { indexing: r.indexing } : {}) }
    }
    const folder = resolve(cwd ?? this.o.cwd())
    const { sessions } = await this.o.listSessions({ cwd: folder })
    const titles = new Map(sessions.map((s) => [s.sessionId, s.title]))
    const r = await this.service.acrossSessions(
      sessions.map((s) => s.sessionId),
      folder,
      text,
      limit
    )
    const hits: SearchHit[] = r.hits
      .filter((h) => titles.has(h.sessionId))
      .map((h) => ({ sessionId: h.sessionId, sessionTitle: titles.get(h.sessionId) ?? '', ...hitFields(h, h.agent) }))
    return { hits, ...(r.indexing ? { indexing: r.indexing } : {}) }
  }

  close(): Promise<void> {
    return this.service.close()
  }
}
