// The one IPC contract between the UI and the runtime host: each call with its zod request and response
// schema. Electron main and the browser-mode WebSocket server both validate every payload against this
// table (see ipc-dispatch.ts); the preload and the renderer's WebSocket client are generated from it.
import { z } from 'zod'
import { AGENT_SOURCES, PERMISSION_MODES } from './agent-definition'
import { AGENT_EDITOR_CONTRACT, AGENT_EDITOR_NOTICES } from './agent-editor-contract'
import { MergeStrategySchema, REVIEW_CONTRACT, REVIEW_NOTICES } from './review-contract'
import type { Diagnostic, LoadedAgent } from './agent-definition'
import type { AgentEvent, AgentEventType, AgentStartEvent, AgentStatus, PermissionRequestEvent } from './events'
import { OlderPageSchema, SessionViewSchema } from './view-schemas'
import type { CallName } from './ipc-channels'
import { FolderTrustSchema } from './trust'
import { BASE_URL_TEXT, checkBaseUrl, checkModelId, CLEARING_CHOICES, EFFORT_CHOICES, MODEL_ALIAS_NAMES, NUMBER_RULES, rangeText, THEME_CHOICES, CACHE_SHARING_MODES, wholeNumberText, DOLLARS_TEXT, type NumberSetting } from './settings-fields'

export * from './ipc-channels'
export { OlderPageSchema, SessionViewSchema } from './view-schemas'
import { SEARCH_REPLAY_CONTRACT } from './search-replay-contract'

// ── shared pieces ────────────────────────────────────────────────────────────────────────────────

export const AGENT_STATUSES = ['queued', 'running', 'waiting_permission', 'completed', 'failed', 'stopped', 'max_turns', 'interrupted'] as const satisfies readonly AgentStatus[]
// Fails to compile when events.ts gains a status this list lacks.
const _allStatuses: Exclude<AgentStatus, (typeof AGENT_STATUSES)[number]> extends never ? true : false = true

export const AGENT_EVENT_TYPES = [
  'agent_start', 'agent_end', 'status', 'turn_start', 'turn_end', 'model_request', 'text_delta', 'thinking_delta', 'message',
  'tool_start', 'tool_input_delta', 'tool_run', 'tool_update', 'tool_end', 'usage', 'error',
  'permission_request', 'permission_response', 'message_received', 'phase', 'team', 'compaction_start', 'compaction'
] as const satisfies readonly AgentEventType[]
const _allEventTypes: Exclude<AgentEventType, (typeof AGENT_EVENT_TYPES)[number]> extends never ? true : false = true

/** Ids travel into file names and maps: keep them to a safe alphabet. */
const Id = (what: string) =>
  z.string({ error: `${what} must be a string` }).regex(/^[A-Za-z0-9._:@-]{1,200}$/, `${what} must be 1-200 letters, digits or . _ : @ -`)

const AbsolutePath = z
  .string({ error: 'cwd must be a string' })
  .min(1, 'cwd must not be empty')
  .max(4096, 'cwd is longer than 4096 characters')
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), 'cwd must be an absolute path')

/** The longest prompt a session takes: the prompt box says so before it sends more. */
export const PROMPT_MAX_CHARS = 500_000
/** The longest message to an agent. */
export const MESSAGE_MAX_CHARS = 100_000
/**
 * The largest browser-mode frame the server reads: a larger one is refused and its connection closed (code
 * 1009). A prompt at PROMPT_MAX_CHARS fits however it is encoded.
 */
export const WS_MAX_FRAME_BYTES = 8 * 1024 * 1024

const Prompt = z
  .string({ error: 'prompt must be a string' })
  .trim()
  .min(1, 'prompt is empty')
  .max(PROMPT_MAX_CHARS, `prompt is longer than ${PROMPT_MAX_CHARS.toLocaleString('en-US')} characters`)

// The Settings dialog's own rule (an empty address is the dialog's "use the default", sent as null).
/**
 * What a failed Test connection asks the person to change. The host says what happened; the window says
 * where to change it (Settings and the first-run page have the fields in different places).
 */
export const ConnectionFixSchema = z.enum(['base_url', 'environment', 'network', 'key', 'no_key'])
export type ConnectionFix = z.infer<typeof ConnectionFixSchema>

const HttpUrl = z.string().refine((u) => u.trim() !== '' && checkBaseUrl(u).ok, BASE_URL_TEXT)

/** A numeric setting with the sentences the Settings dialog shows next to the field (settings-fields.ts). */
const wholeSetting = (name: NumberSetting) => {
  const r = NUMBER_RULES[name]
  return z.number({ error: wholeNumberText(name) }).int(wholeNumberText(name)).min(r.min, rangeText(name)).max(r.max, rangeText(name))
}

const ModelSetting = (alias: boolean) =>
  z.string().superRefine((v, ctx) => {
    const r = checkModelId(v, { alias })
    if (!r.ok) ctx.addIssue({ code: 'custom', message: r.error })
  })

/** The main agent has no parent, so `bubble` is not a mode it can have. */
const MainAgentMode = z.enum(PERMISSION_MODES).refine((m) => m !== 'bubble', 'The main agent has no parent to bubble requests to; choose another mode.')

const Empty = z.object({}).strict()
const None = z.object({})

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
  requests: z.array(z.custom<PermissionRequestEvent>((v) => isEventOf('permission_request')(v) && typeof (v as { requestId?: unknown }).requestId === 'string', 'requests must be permission_request events')),
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

export const LimitsSchema = z.object({
  /** Subagents running at once across the session; more wait as `queued`. */
  maxConcurrentAgents: wholeSetting('maxConcurrentAgents'),
  /** How deep subagents may nest (the main agent is depth 0). */
  maxDepth: wholeSetting('maxDepth'),
  /** Stop the session once it has cost this much; null for no limit. */
  maxBudgetUsd: z
    .number({ error: DOLLARS_TEXT })
    .min(NUMBER_RULES.maxBudgetUsd.min, rangeText('maxBudgetUsd'))
    .max(NUMBER_RULES.maxBudgetUsd.max, rangeText('maxBudgetUsd'))
    .nullable(),
  /** Stop the session once its agents together have used this many tokens; null for no limit. */
  maxBudgetTokens: wholeSetting('maxBudgetTokens').nullable(),
  /** Turns per run for every agent (main or subagent) without a maxTurns of its own. */
  maxTurns: wholeSetting('maxTurns')
})
export type Limits = z.infer<typeof LimitsSchema>

/** Long sessions: automatic compaction, its threshold (null: Claude Code's default), and old tool results. */
const ContextSettingsSchema = z.object({
  autoCompact: z.boolean(),
  autoCompactPercent: wholeSetting('autoCompactPercent').nullable(),
  toolResultClearing: z.enum(CLEARING_CHOICES)
})

export const SettingsSchema = z.object({
  /** Whether a key is available. The key itself never leaves the main process. */
  hasApiKey: z.boolean(),
  apiKeySource: z.enum(['stored', 'environment', 'none']).optional(),
  baseUrl: z.string().nullable(),
  defaultModel: z.string(),
  /** Alias → model id (e.g. `sonnet` → `claude-sonnet-4-5`): exactly haiku, sonnet and opus. */
  modelAliases: z.record(z.string(), z.string()),
  /** What each alias means when the settings do not say, for "reset to default". */
  defaultModelAliases: z.record(z.string(), z.string()),
  limits: LimitsSchema,
  defaultPermissionMode: z.enum(PERMISSION_MODES),
  /** New sessions' effort; null: each model's own default (medium on the 5.x models). */
  defaultEffort: z.enum(EFFORT_CHOICES).nullable(),
  /** New sessions run in coordinator mode (the main agent directs agents in four phases). */
  coordinator: z.boolean(),
  /** New sessions may create an agent team (coordinator mode always may). */
  agentTeams: z.boolean(),
  /** How agents that start together share the prompt cache (first, prewarm, off). */
  promptCacheSharing: z.enum(CACHE_SHARING_MODES),
  /** Light, dark, or as the system says. */
  theme: z.enum(THEME_CHOICES),
  /** "Skip for now" was chosen on the first-run screen. */
  firstRunSkipped: z.boolean(),
  context: ContextSettingsSchema,
  /** How the Changes view merges an agent's branch (the person's last choice). */
  mergeStrategy: MergeStrategySchema,
  /**
   * Claude Code's `worktree.baseRef` in force for the workspace: where new agent worktrees start, and the
   * settings file that says so (null: Fanout's default, `head`).
   */
  worktreeBaseRef: z.object({ value: z.enum(['head', 'fresh']), file: z.string().nullable(), scope: z.enum(['user', 'project', 'local', 'managed']).nullable() })
})
export type Settings = z.infer<typeof SettingsSchema>

const AliasValue = ModelSetting(false).nullable().optional()

export const SettingsPatchSchema = z
  .object({
    baseUrl: HttpUrl.nullable().optional(),
    defaultModel: ModelSetting(true).optional(),
    /** The three aliases only (the runtime, the Agent tool and agent files know no others); null resets one to its default. */
    modelAliases: z
      .strictObject({ haiku: AliasValue, sonnet: AliasValue, opus: AliasValue }, { error: `Only the ${MODEL_ALIAS_NAMES.join(', ')} aliases exist.` })
      .optional(),
    limits: LimitsSchema.partial().strict().optional(),
    defaultPermissionMode: MainAgentMode.optional(),
    /** null: back to each model's own default. */
    defaultEffort: z.enum(EFFORT_CHOICES).nullable().optional(),
    coordinator: z.boolean().optional(),
    agentTeams: z.boolean().optional(),
    promptCacheSharing: z.enum(CACHE_SHARING_MODES).optional(),
    theme: z.enum(THEME_CHOICES).optional(),
    firstRunSkipped: z.boolean().optional(),
    context: ContextSettingsSchema.partial().strict().optional(),
    mergeStrategy: MergeStrategySchema.optional(),
    /** Written to the user's Claude Code settings (`~/.claude/settings.json`), as Claude Code's /config does. */
    worktreeBaseRef: z.enum(['head', 'fresh']).optional()
  })
  .strict()
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>

const DiagnosticSchema = z.object({
  file: z.string(),
  line: z.number(),
  column: z.number(),
  severity: z.enum(['error', 'warning', 'info']),
  code: z.string(),
  message: z.string()
}) satisfies z.ZodType<Diagnostic>

/** Loaded agents pass through whole (editors round-trip unknown keys); only the fields the UI needs are checked. */
const LoadedAgentSchema = z.custom<LoadedAgent>(
  (v: any) =>
    v !== null && typeof v === 'object' && typeof v.definition?.agentType === 'string' && AGENT_SOURCES.includes(v.definition?.source) && Array.isArray(v.diagnostics),
  'agents must be loaded agent definitions'
)

/** One MCP server of a folder: where it is configured, whether it runs, and its tools as agents see them. */
export const McpServerInfoSchema = z.object({
  name: z.string(),
  scope: z.enum(['fanout', 'user', 'project', 'local', 'agent']),
  transport: z.enum(['stdio', 'http']).nullable(),
  /** The command line or URL. */
  target: z.string(),
  /** `untrusted`: a project server waiting for the person's approval of the folder (never started). */
  status: z.enum(['connected', 'failed', 'disabled', 'pending', 'untrusted']),
  /** Why it failed: the server, the reason, the tail of its stderr. */
  error: z.string().optional(),
  file: z.string().optional(),
  /** `name` is what agents call (mcp__server__tool); `tool` is the server's own name. */
  tools: z.array(z.object({ name: z.string(), tool: z.string(), description: z.string(), readOnly: z.boolean() }))
})
export type McpServerInfo = z.infer<typeof McpServerInfoSchema>

// ── host notices (pushed, not requested) ─────────────────────────────────────────────────────────

export const HostNoticeSchema = z.discriminatedUnion('type', [
  /** A session was created or its status, cost or title changed. */
  z.object({ type: z.literal('session_updated'), session: SessionSummarySchema }),
  z.object({ type: z.literal('session_deleted'), sessionId: z.string() }),
  z.object({ type: z.literal('workspace_changed'), workspace: WorkspaceSchema }),
  z.object({ type: z.literal('settings_changed'), settings: SettingsSchema }),
  /** Desktop only: the person chose one of APP_COMMANDS (app-commands.ts) in the application menu. */
  z.object({ type: z.literal('command'), id: z.string() }),
  /** The person answered about a folder (here or in another window): what it brings and what may run. */
  z.object({ type: z.literal('trust_changed'), trust: FolderTrustSchema }),
  ...AGENT_EDITOR_NOTICES,
  ...REVIEW_NOTICES
])
export type HostNotice = z.infer<typeof HostNoticeSchema>

// ── the table ────────────────────────────────────────────────────────────────────────────────────

export const CONTRACT = {
  'workspace.get': { request: Empty, response: z.object({ workspace: WorkspaceSchema }) },
  'workspace.open': { request: z.object({ cwd: AbsolutePath }).strict(), response: z.object({ workspace: WorkspaceSchema }) },
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
  'sessions.page': {
    request: z.object({ sessionId: Id('sessionId'), cursor: z.string().min(1).max(200) }).strict(),
    response: z.object({ page: OlderPageSchema, more: z.string().nullable() })
  },
  'sessions.rename': {
    request: z.object({ sessionId: Id('sessionId'), title: z.string({ error: 'title must be a string' }).trim().min(1, 'Enter a name for the session.').max(120, 'A session name is at most 120 characters.') }).strict(),
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
  'session.resumeInterrupted': {
    request: z.object({ sessionId: Id('sessionId') }).strict(),
    /** The agents running again (the main agent too when it was cut off), and the ones that could not be resumed, one sentence each. */
    response: z.object({ resumed: z.array(z.string()), problems: z.array(z.string()) })
  },
  'agent.stop': { request: z.object({ sessionId: Id('sessionId'), agentId: Id('agentId') }).strict(), response: None },
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
        message: z.string().trim().min(1, 'message is empty').max(MESSAGE_MAX_CHARS, `message is longer than ${MESSAGE_MAX_CHARS.toLocaleString('en-US')} characters`)
      })
      .strict(),
    response: None
  },
  'permission.respond': {
    request: z.object({ requestId: Id('requestId'), decision: z.enum(['allow', 'allow_always', 'deny']) }).strict(),
    response: None
  },
  'settings.get': { request: Empty, response: z.object({ settings: SettingsSchema }) },
  'settings.update': { request: SettingsPatchSchema, response: z.object({ settings: SettingsSchema }) },
  'settings.setApiKey': {
    request: z
      .object({
        apiKey: z
          .string({ error: 'apiKey must be a string' })
          .trim()
          .min(1, 'apiKey is empty')
          .max(1000, 'apiKey is longer than 1000 characters')
          .regex(/^[\x21-\x7e]+$/, 'apiKey must not contain spaces or non-ASCII characters')
      })
      .strict(),
    response: z.object({ settings: SettingsSchema })
  },
  'settings.testConnection': {
    /** The base URL as typed in Settings (null: the default endpoint); absent: the saved one. */
    request: z.object({ baseUrl: HttpUrl.nullable().optional() }).strict(),
    response: z.object({ ok: z.boolean(), url: z.string(), message: z.string(), fix: ConnectionFixSchema.optional() })
  },
  'agents.list': {
    request: z.object({ cwd: AbsolutePath }).strict(),
    response: z.object({ agents: z.array(LoadedAgentSchema), errors: z.array(DiagnosticSchema) })
  },
  'demo.start': { request: z.object({ cwd: AbsolutePath }).strict(), response: z.object({ sessionId: z.string() }) },
  'mcp.list': { request: z.object({ cwd: AbsolutePath }).strict(), response: z.object({ servers: z.array(McpServerInfoSchema), problems: z.array(z.string()) }) },
  'trust.get': { request: z.object({ cwd: AbsolutePath }).strict(), response: z.object({ trust: FolderTrustSchema }) },
  'trust.answer': {
    request: z
      .object({
        cwd: AbsolutePath,
        decision: z.enum(['trust', 'decline'], { error: 'decision must be "trust" or "decline"' }),
        /** The list's hash as the person saw it: a list that changed since is not answered. */
        hash: z.string().regex(/^[0-9a-f]{32}$/, 'hash must be the list hash trust.get returned')
      })
      .strict(),
    response: z.object({ trust: FolderTrustSchema })
  },
  ...AGENT_EDITOR_CONTRACT,
  ...REVIEW_CONTRACT,
  ...SEARCH_REPLAY_CONTRACT
} as const satisfies Record<CallName, { request: z.ZodType; response: z.ZodType }>

export type CallRequest<K extends CallName> = z.input<(typeof CONTRACT)[K]['request']>
export type CallResponse<K extends CallName> = z.output<(typeof CONTRACT)[K]['response']>
/** The request after validation (defaults applied, strings trimmed): what a host receives. */
export type ParsedRequest<K extends CallName> = z.output<(typeof CONTRACT)[K]['request']>

// ── results and errors ───────────────────────────────────────────────────────────────────────────

export const IPC_ERROR_CODES = ['invalid_request', 'forbidden', 'unknown_call', 'not_found', 'unsupported', 'conflict', 'unavailable', 'internal'] as const
export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number]

/** Each field of a refused request, by its path in the request (`limits.maxDepth`), with the sentence for it. */
export type FieldErrors = Record<string, string>

export interface IpcError {
  code: IpcErrorCode
  /** A sentence a person understands: what went wrong and where (all of it, for places that show one string). */
  message: string
  /**
   * A request refused for what some of its fields hold: each one's sentence, so a form can put it next to
   * that field. The same sentences are in `message`.
   */
  fields?: FieldErrors
}

/** Every call answers with this envelope, never a thrown error, so the code survives the process boundary. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError }

export const IpcErrorSchema = z.object({ code: z.enum(IPC_ERROR_CODES), message: z.string(), fields: z.record(z.string(), z.string()).optional() }).strict()

export const IpcResultSchema = z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: IpcErrorSchema })])

// ── browser mode: the same calls framed over one WebSocket ───────────────────────────────────────

/** Client → server: one call. `id` pairs the answer with the request. */
export const WsRequestSchema = z
  .object({ id: z.number().int().nonnegative(), call: z.string().max(100), payload: z.unknown() })
  .strict()
export type WsRequest = z.infer<typeof WsRequestSchema>

/** Server → client. */
export type WsServerMessage =
  | { kind: 'result'; id: number; result: IpcResult<unknown> }
  | { kind: 'events'; events: AgentEvent[] }
  | { kind: 'notice'; notice: HostNotice }
  /** A frame the server could not read at all (no id to answer). */
  | { kind: 'error'; message: string }

export function describeZodError(call: string, error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.join('.') : 'request'
    return `${path}: ${issue.message}`
  })
  return `${call}: ${parts.join('; ')}`
}

/** The fields a zod error is about, each with its first sentence; what is about the request as a whole is left to describeZodError. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {}
  for (const issue of error.issues) {
    if (!issue.path.length) continue
    const path = issue.path.join('.')
    fields[path] ??= issue.message
  }
  return fields
}

void _allStatuses
void _allEventTypes
