// Search and replay's part of the IPC contract (served by host/search-replay-handlers.ts): zod schemas of each
// call's request and answer, spread into CONTRACT by ipc-contract.ts and checked on both transports.
import { z } from 'zod'
import { AbsolutePath, Id } from './contract-fields'
import type { AgentEvent } from './events'
import { SessionViewSchema } from './view-schemas'

const Cwd = AbsolutePath

/** A place in a session's stream (EventBase.seq: microseconds since the epoch). */
const Seq = z.number({ error: 'a seq must be a number' }).finite().nonnegative()

export const SEARCH_KINDS = ['title', 'prompt', 'text', 'thinking', 'tool_input', 'tool_output', 'message', 'error', 'report'] as const
export type SearchKind = (typeof SEARCH_KINDS)[number]

export const SearchHitSchema = z.object({
  sessionId: z.string(),
  /** The session's title, for hits across sessions. */
  sessionTitle: z.string().optional(),
  /** null for a session's title. */
  agentId: z.string().nullable(),
  agentType: z.string().optional(),
  agentDescription: z.string().optional(),
  kind: z.enum(SEARCH_KINDS),
  toolUseId: z.string().optional(),
  toolName: z.string().optional(),
  /** The agent's turn (of its run) the hit is from. */
  turn: z.number().optional(),
  seq: z.number(),
  ts: z.number(),
  /** Fragments of the text with each matched word between \u0002 and \u0003 (never markup). */
  snippet: z.string()
})
export type SearchHit = z.infer<typeof SearchHitSchema>

export const IndexingSchema = z.object({ done: z.number(), total: z.number() })

export const ReplayMarkSchema = z.object({
  seq: z.number(),
  ts: z.number(),
  kind: z.enum(['start', 'end', 'permission', 'error', 'phase']),
  agentId: z.string(),
  label: z.string()
})
export type ReplayMark = z.infer<typeof ReplayMarkSchema>

export const ReplayTimelineSchema = z.object({
  sessionId: z.string(),
  /** Recorded events (lines) in the session. */
  events: z.number().int().nonnegative(),
  firstSeq: z.number(),
  lastSeq: z.number(),
  startTs: z.number(),
  endTs: z.number(),
  /** Agents starting and ending, requests, failures, phases (at most a few thousand). */
  marks: z.array(ReplayMarkSchema),
  /** Events per equal slice of the span, for the scrubber's activity strip. */
  activity: z.array(z.number())
})
export type ReplayTimeline = z.infer<typeof ReplayTimelineSchema>

const Steps = z.custom<AgentEvent[][]>((v) => Array.isArray(v) && v.every((s) => Array.isArray(s)), 'steps must be lists of events')

export const SEARCH_REPLAY_CONTRACT = {
  /** Full-text search in one session or across a folder's sessions: titles and every transcript (tool inputs and outputs, subagents' too). */
  'search.query': {
    request: z
      .object({
        text: z.string({ error: 'text must be a string' }).trim().min(1, 'Type something to search for.').max(500, 'A search is at most 500 characters.'),
        /** In this session; else across the sessions of `cwd` (the workspace when absent). */
        sessionId: Id('sessionId').optional(),
        cwd: Cwd.optional(),
        limit: z.number().int().min(1).max(500).default(100)
      })
      .strict(),
    response: z.object({
      hits: z.array(SearchHitSchema),
      /** Still indexing: the hits are those of what is indexed so far; ask again for more. */
      indexing: IndexingSchema.optional()
    })
  },
  /** A recorded session's timeline for replay: its span, marks and activity. */
  'replay.open': {
    request: z.object({ sessionId: Id('sessionId') }).strict(),
    response: z.object({ timeline: ReplayTimelineSchema })
  },
  /** The session as it was at a moment (a seq), folded from its recorded events. */
  'replay.frame': {
    request: z.object({ sessionId: Id('sessionId'), at: Seq }).strict(),
    response: z.object({
      /** The moment shown: the last whole step at or before `at` (0 before the first). */
      seq: z.number(),
      ts: z.number(),
      view: SessionViewSchema,
      olderItems: z.record(z.string(), z.number().int().nonnegative()),
      /** A cursor for sessions.page, or null when the frame is whole. */
      more: z.string().nullable()
    })
  },
  /** The recorded events after a moment, in steps that each end where the live view was whole. */
  'replay.steps': {
    request: z.object({ sessionId: Id('sessionId'), after: Seq, limit: z.number().int().min(1).max(5000).default(1000) }).strict(),
    response: z.object({ steps: Steps, done: z.boolean() })
  }
} as const
export type SearchReplayCallName = keyof typeof SEARCH_REPLAY_CONTRACT
