// The app store's state (zustand): the reduced event state plus what the host told us (workspace, sessions,
// settings) and UI choices, and the one way to call the host. What changes it lives beside it:
// transport-wiring.ts (pushes in), session-loading.ts (histories), host-actions.ts (calls out), ui-slice.ts.
import { create } from 'zustand'
import type { LoadedAgent } from '../../../shared/agent-definition'
import type { AgentEvent } from '../../../shared/events'
import type { CallName, CallRequest, CallResponse, SessionSummary, Settings, Workspace } from '../../../shared/ipc-contract'
import type { ConnectionState, FanoutApi } from '../transport/types'
import type { FolderTrust } from '../../../shared/trust'
import { emptyEventsState, type EventsState } from '../../../shared/view/session-state'

export type RightPane = 'panels' | 'timeline' | 'team'
export type Dialog = null | 'settings' | 'permissions' | 'open-folder' | 'palette' | 'shortcuts'
/** How the overview draws agents: chosen from their number and the room (auto), or as the person set it. */
export type DensityChoice = 'auto' | 'panels' | 'tiles' | 'compact'
export const DENSITY_CHOICES: readonly DensityChoice[] = ['auto', 'panels', 'tiles', 'compact']
export const DENSITY_KEY = 'fanout.overviewDensity'

function storedDensity(): DensityChoice {
  const v = globalThis.localStorage?.getItem(DENSITY_KEY)
  return (DENSITY_CHOICES as readonly string[]).includes(v ?? '') ? (v as DensityChoice) : 'auto'
}

export interface AppState {
  api: FanoutApi | null
  mode: 'electron' | 'browser'
  connection: ConnectionState
  connectionDetail?: string
  /** When a connection the page had was lost (null while connected, or before the first one). */
  connectionLostAt: number | null
  workspace: Workspace | null
  sessions: SessionSummary[]
  sessionsError?: string
  settings: Settings | null
  agentDefs: LoadedAgent[]
  events: EventsState
  /** Sessions whose full history is in `events` (started here, or replayed). */
  loaded: Record<string, true>
  /** Reopened sessions whose older items are still on their way: how many per agent, or why they stopped. */
  older: Record<string, { items: Record<string, number>; error?: string }>
  currentSessionId: string | null
  /** Set while a session's history is being fetched; live events for it are held until then. */
  opening: { sessionId: string; held: AgentEvent[] } | null
  openError?: string
  rightPane: RightPane
  focusedAgentId: string | null
  /** Counts focusAgent calls: naming the same agent again scrolls its panel into view again. */
  focusSeq: number
  maximizedAgentId: string | null
  /** Finished panels the user expanded back into the grid. */
  expanded: Record<string, true>
  /** When the person last looked at each agent (its panel opened, jumped to): a failure seen needs them no more. */
  acknowledged: Record<string, number>
  /** The agent "Next agent needing you" went to last, so the next press goes on from there. */
  lastAttention: { sessionId: string; agentId: string } | null
  density: DensityChoice
  /** Counts "Tidy" presses: the overview settles (finished agents to their list) at once, pointer or not. */
  tidySeq: number
  dialog: Dialog
  firstRunDismissed: boolean
  /** A key was saved on the first-run page: it stays (saying so, offering a test) until Continue. */
  firstRunKeySaved: boolean
  /** Keys saved from this window: a new one makes earlier answers about the key (Test connection) stale. */
  keySaves: number
  /** What the workspace folder brings that runs by itself, and the person's answers (null: not known yet). */
  trust: FolderTrust | null
  /** Why the folder's trust could not be checked. */
  trustError?: string
  /** The folder's consent dialog is open (over any other dialog: Settings › MCP servers opens it too). */
  trustOpen: boolean
  /** A place in an agent's transcript to scroll to and highlight (a search result), once its item is there. */
  reveal: Reveal | null
  /** The session shown as a replay frame (replay-store.ts), if any. */
  replayingSessionId: string | null
}

export interface Reveal {
  sessionId: string
  agentId: string
  /** A tool call's row (its input or output matched). */
  toolUseId?: string
  /** Which kind of item, and the words to find in it. */
  kind: string
  words: string[]
  ts: number
  /** Counts reveals: the same place asked again scrolls again. */
  n: number
}

export const initial: AppState = {
  api: null,
  mode: 'browser',
  connection: 'connecting',
  connectionLostAt: null,
  workspace: null,
  sessions: [],
  settings: null,
  agentDefs: [],
  events: emptyEventsState(),
  loaded: {},
  older: {},
  currentSessionId: null,
  opening: null,
  rightPane: 'panels',
  focusedAgentId: null,
  focusSeq: 0,
  maximizedAgentId: null,
  expanded: {},
  acknowledged: {},
  lastAttention: null,
  density: storedDensity(),
  tidySeq: 0,
  dialog: null,
  firstRunDismissed: false,
  firstRunKeySaved: false,
  keySaves: 0,
  trust: null,
  trustOpen: false,
  reveal: null,
  replayingSessionId: null
}

export const useApp = create<AppState>()(() => ({ ...initial }))

export const get = useApp.getState
export const set = useApp.setState

function api(): FanoutApi {
  const a = get().api
  if (!a) throw new Error('Not connected to Fanout yet.')
  return a
}

export function call<K extends CallName>(name: K, request: CallRequest<K>): Promise<CallResponse<K>> {
  return api().call(name, request)
}
