// Schemas of the session state the host folds (view/reducer.ts) as it travels over the IPC contract:
// checked for the parts every view relies on, without copying it (it can hold tens of thousands of items).
import { z } from 'zod'
import type { OlderPage } from './view/session-pages'
import type { SessionState } from './view/session-state'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A reopened session's state (or a replay's frame). */
export const SessionViewSchema = z.custom<SessionState>(
  (v) =>
    isRecord(v) &&
    typeof v.id === 'string' &&
    isRecord(v.agents) &&
    Array.isArray(v.agentOrder) &&
    isRecord(v.items) &&
    isRecord(v.tools) &&
    isRecord(v.permissions) &&
    Array.isArray(v.permissionQueue),
  'view must be a session state with id, agents, agentOrder, items, tools, permissions and permissionQueue'
)

/** Older items of a reopened session and their tools (view/session-pages.ts). */
export const OlderPageSchema = z.custom<OlderPage>(
  (v) => isRecord(v) && isRecord(v.items) && Object.values(v.items).every(Array.isArray) && isRecord(v.tools),
  'page must hold items (lists by agent id) and tools'
)
