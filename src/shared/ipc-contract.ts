// The one IPC contract between the UI and the runtime host: each call with its zod request and response
// schema, gathered from one file per concept (sessions, settings, folder, agent editor, review, search and
// replay). A call is its entry here and nothing more on this side: its name is the key, and Electron main and
// the browser-mode WebSocket server both validate every payload against this table (see ipc-dispatch.ts).
// The function serving each call is its entry in the host's handler table (call-handlers.ts).
import { z } from 'zod'
import { AGENT_EDITOR_CONTRACT, AGENT_EDITOR_NOTICES } from './agent-editor-contract'
import { REVIEW_CONTRACT, REVIEW_NOTICES } from './review-contract'
import type { AgentEvent } from './events'
import { FolderTrustSchema } from './trust'
import { SEARCH_REPLAY_CONTRACT } from './search-replay-contract'
import { FOLDER_CONTRACT } from './folder-contract'
import { SESSION_CONTRACT, SessionSummarySchema, WorkspaceSchema } from './session-contract'
import { SETTINGS_CONTRACT, SettingsSchema } from './settings-contract'

export * from './ipc-channels'
export { OlderPageSchema, SessionViewSchema } from './view-schemas'
export { AGENT_EVENT_TYPES, AGENT_STATUSES, MESSAGE_MAX_CHARS, PROMPT_MAX_CHARS, WS_MAX_FRAME_BYTES } from './contract-fields'
export * from './session-contract'
export * from './settings-contract'
export * from './folder-contract'

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
  z.object({ type: z.literal('trust_changed'), trust: FolderTrustSchema() }),
  ...AGENT_EDITOR_NOTICES,
  ...REVIEW_NOTICES
])
export type HostNotice = z.infer<typeof HostNoticeSchema>

// ── the table ────────────────────────────────────────────────────────────────────────────────────
export const CONTRACT = {
  ...SESSION_CONTRACT,
  ...SETTINGS_CONTRACT,
  ...FOLDER_CONTRACT,
  ...AGENT_EDITOR_CONTRACT,
  ...REVIEW_CONTRACT,
  ...SEARCH_REPLAY_CONTRACT
} as const satisfies Record<string, { request: z.ZodType; response: z.ZodType }>

export type CallName = keyof typeof CONTRACT
export const CALL_NAMES = Object.keys(CONTRACT) as CallName[]

/** Calls the desktop shell serves itself instead of forwarding to the runtime host. */
export const SHELL_CALLS = ['workspace.pickFolder'] as const satisfies readonly CallName[]
export type ShellCallName = (typeof SHELL_CALLS)[number]
/** The calls a runtime host serves (its handler table's keys). */
export type HostCallName = Exclude<CallName, ShellCallName>

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CONTRACT, name)
}

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
export const WsRequestSchema = z.object({ id: z.number().int().nonnegative(), call: z.string().max(100), payload: z.unknown() }).strict()
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
