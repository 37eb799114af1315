// The sessions' part of the IPC contract: the workspace, a session's row (pushed as it changes, with the
// requests it waits on), and the calls that list, open, start, prompt, stop and answer.
import { z } from 'zod'
import type { AgentStartEvent, PermissionRequestEvent } from './events'
import { AbsolutePath, AGENT_STATUSES, Empty, Id, MainAgentMode, MESSAGE_MAX_CHARS, None, Prompt } from './contract-fields'
import { PermissionAnswerSchema } from './permission-answer'
import { EFFORT_CHOICES } from './settings-fields'
import { OlderPageSchema, SessionViewSchema } from './view-schemas'

export const WorkspaceSchema = z.object({
  cwd: z.string(),
  /** The folder's base name, for titles. */
  name: z.string(),
  isGitRepo: z.boolean()
})
export type Workspace = z.infer<typeof WorkspaceSchema>

const isEventOf = (type: string) => (v: unknown) => {
  const e = v as { type?: unknown; sessionId?: unknown; agentId?: unknown } | null
  return typeof e === 'object' && e !== null && e.type === type && typeof e.sessionId === 'string' && typeof e.agentId === 'string'
}

/** A live session's waiting permission requests and the agent_start of each agent that asks (or passed one up). */
export const PendingRequestsSchema = z.object({
  requests: z.array(
    z.custom<PermissionRequestEvent>(
      (v) => isEventOf('permission_request')(v) && typeof (v as { requestId?: unknown }).requestId === 'string',
      'requests must be permission_request events'
    )
  ),
  agents: z.array(z.custom<AgentStartEvent>(isEventOf('agent_start'), 'agents must be agent_start events'))
})
export type PendingRequests = z.infer<typeof PendingRequestsSchema>

export const SessionSummarySchema = z.object({
  sessionId: z.string(),
  /** The first line of the first prompt, shortened. */
  title: z.string(),
  cwd: z.string(),
  /** The main agent's status; `interrupted` when the app stopped while agents were still running. */
  status: z.enum(AGENT_STATUSES),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Cost of every agent in the session, in US dollars. */
  costUsd: z.number(),
  agentCount: z.number().int().nonnegative(),
  /** Permission requests of a live session waiting for the person (its status is then `waiting_permission`). */
  waitingPermissions: z.number().int().nonnegative().optional(),
  /** Those requests, with the agents that ask: a window that has not opened the session lists and answers them. */
  pendingRequests: PendingRequestsSchema.optional(),
  /** The main agent ended its turn on a question (shared/view/question.ts) and nothing else works: the session waits on the person. */
  asksYou: z.boolean().optional(),
  model: z.string().optional(),
  /** A scripted demo session (no real model). */
  demo: z.boolean().optional(),
  /**
   * Another process runs this session (`fanout run`, another window): it is shown read-only here and
   * followed as it runs, until that process lets it go.
   */
  runningElsewhere: z
    .object({
      /** The program, as a person names it: `fanout run`, `the Fanout app`, `fanout web`. */
      app: z.string(),
      pid: z.number(),
      /** Set when it runs on another computer (a shared data folder). */
      host: z.string().optional(),
      /** When it took the session (ms since the epoch). */
      since: z.number()
    })
    .optional()
})
export type SessionSummary = z.infer<typeof SessionSummarySchema>

export const SESSION_CONTRACT = {
  'workspace.get': { request: Empty, response: z.object({ workspace: WorkspaceSchema }) },
  'workspace.open': { request: z.object({ cwd: AbsolutePath }).strict(), response: z.object({ workspace: WorkspaceSchema }) },
  /** Electron only: shows the native folder picker, then opens the chosen folder. */
  'workspace.pickFolder': { request: Empty, response: z.object({ workspace: WorkspaceSchema.nullable() }) },
  'sessions.list': { request: z.object({ cwd: AbsolutePath.optional() }).strict(), response: z.object({ sessions: z.array(SessionSummarySchema) }) },
  'sessions.open': {
    request: z.object({ sessionId: Id('sessionId') }).strict(),
    response: z.object({
      session: SessionSummarySchema,
      /** The state with each transcript cut to its newest items. */
      view: SessionViewSchema,
      /** Per agent, how many older items are still to come. */
      olderItems: z.record(z.string(), z.number().int().nonnegative()),
      /** A cursor for sessions.page, or null when the view is whole. */
      more: z.string().nullable(),
      /** A live session: the view holds every event up to this seq (EventBase.seq), none after it. */
      upTo: z.number().optional()
    })
  },
  /** The older part of a session opened with sessions.open, a page at a time. */
  'sessions.page': {
    request: z.object({ sessionId: Id('sessionId'), cursor: z.string().min(1).max(200) }).strict(),
    response: z.object({ page: OlderPageSchema, more: z.string().nullable() })
  },
  /** A name the person chose instead of the first prompt's line. */
  'sessions.rename': {
    request: z
      .object({
        sessionId: Id('sessionId'),
        title: z
          .string({ error: 'title must be a string' })
          .trim()
          .min(1, 'Enter a name for the session.')
          .max(120, 'A session name is at most 120 characters.')
      })
      .strict(),
    response: z.object({ session: SessionSummarySchema })
  },
  /** Moves a session's folder to the system's trash (deletes it where there is none); refused while it runs. */
  'sessions.delete': { request: z.object({ sessionId: Id('sessionId') }).strict(), response: z.object({ trashed: z.boolean() }) },
  'session.start': {
    request: z
      .object({
        prompt: Prompt,
        cwd: AbsolutePath,
        agent: z.string().trim().min(1).max(200).optional(),
        model: z.string().trim().min(1).max(200).optional(),
        permissionMode: MainAgentMode.optional(),
        /** This session's effort (else the settings', else each model's default). */
        effort: z.enum(EFFORT_CHOICES).optional()
      })
      .strict(),
    response: z.object({ sessionId: z.string() })
  },
  'session.sendPrompt': { request: z.object({ sessionId: Id('sessionId'), prompt: Prompt }).strict(), response: None },
  /** Restarts the agents of a session that Fanout stopping (a crash, a kill) cut off. */
  'session.resumeInterrupted': {
    request: z.object({ sessionId: Id('sessionId') }).strict(),
    /** The agents running again (the main agent too when it was cut off), and the ones that could not be resumed, one sentence each. */
    response: z.object({ resumed: z.array(z.string()), problems: z.array(z.string()) })
  },
  'agent.stop': { request: z.object({ sessionId: Id('sessionId'), agentId: Id('agentId') }).strict(), response: None },
  /**
   * Runs a failed agent (the main agent or a subagent) again from its conversation as it stands: the request that
   * failed is sent again, not a fresh start. A subagent's new report reaches the agent that started it.
   */
  'agent.retry': { request: z.object({ sessionId: Id('sessionId'), agentId: Id('agentId') }).strict(), response: None },
  /** Compacts an agent's conversation: now when it is idle, before its next request when it runs. */
  'agent.compact': {
    request: z
      .object({
        sessionId: Id('sessionId'),
        /** An agent id, or an agent's name (`main` for the main agent). */
        agentId: z.string().trim().min(1, 'agentId is empty').max(200),
        /** What the summary should keep in particular (`/compact keep the API notes`). */
        instructions: z.string().trim().max(10_000, 'instructions are longer than 10,000 characters').optional()
      })
      .strict(),
    /** Compacted now (an idle agent), or scheduled before its next model request (a running one). */
    response: z.object({ status: z.enum(['compacted', 'scheduled']), tokensBefore: z.number().optional(), tokensAfter: z.number().optional() })
  },
  'agent.sendMessage': {
    request: z
      .object({
        sessionId: Id('sessionId'),
        /** An agent id, or an agent's name. */
        to: z.string().trim().min(1, 'to is empty').max(200),
        message: z
          .string()
          .trim()
          .min(1, 'message is empty')
          .max(MESSAGE_MAX_CHARS, `message is longer than ${MESSAGE_MAX_CHARS.toLocaleString('en-US')} characters`)
      })
      .strict(),
    response: None
  },
  'permission.respond': {
    request: PermissionAnswerSchema.extend({ requestId: Id('requestId') }).strict(),
    response: None
  },
  'demo.start': { request: z.object({ cwd: AbsolutePath }).strict(), response: z.object({ sessionId: z.string() }) }
} as const
export type SessionCallName = keyof typeof SESSION_CONTRACT
