// Test helpers for the store: temp data folders and AgentEvent builders (used by *.test.ts only).
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import type { AgentEvent, ChatMessage, EventPayload } from '../../../shared/events'
import type { Usage } from '../../../shared/usage'
import { readSessionIndex, writeSessionIndex } from './session-index-file'
import { createSessionRecorder, type SessionRecorder, type SessionRecorderOptions } from './session-recorder'
import { lockPath } from './session-lock'
import type { RecordedEvent } from './transcript/migrations'

/**
 * A temp data folder. Its removal tries again while something still adds to it: a recorder left open as a crash
 * leaves it (recordCrashed) makes its next temp ahead in the background, and a removal racing that failed the
 * test with ENOTEMPTY on a loaded machine.
 */
export async function tempDataDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'fanout-store-'))
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 }) }
}

export interface AgentRef {
  sessionId: string
  agentId: string
  parentAgentId: string | null
  parentToolUseId: string | null
}

let clock = 1_700_000_000_000

/** Builds events for one agent with increasing timestamps. */
export function eventsFor(ref: AgentRef) {
  // Each with its place in the stream, as the session's bus gives it (transcripts hold it: version 2).
  const base = () => {
    const ts = ++clock
    return { ...ref, ts, seq: ts * 1000 }
  }
  const ev = (payload: EventPayload): RecordedEvent => ({ ...base(), ...payload }) as RecordedEvent
  return {
    ev,
    start: (over: Partial<EventPayload<Extract<AgentEvent, { type: 'agent_start' }>>> = {}) =>
      ev({
        type: 'agent_start',
        agentType: 'general-purpose',
        description: 'task',
        prompt: 'Do the thing\nwith details',
        model: 'claude-sonnet-5-5',
        cwd: '/work',
        depth: ref.parentAgentId ? 1 : 0,
        tools: ['Read'],
        ...over
      }),
    text: (text: string) => ev({ type: 'text_delta', text }),
    message: (message: ChatMessage) => ev({ type: 'message', message }),
    usage: (u: Partial<Usage>) =>
      ev({ type: 'usage', model: 'claude-sonnet-5-5', usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, ...u } }),
    turn: (turn: number) => ev({ type: 'turn_start', turn }),
    status: (status: Extract<AgentEvent, { type: 'status' }>['status']) => ev({ type: 'status', status }),
    end: (status: 'completed' | 'failed' | 'stopped' | 'max_turns' = 'completed', usage?: Partial<Usage>) =>
      ev({
        type: 'agent_end',
        status,
        result: 'done',
        numTurns: 1,
        toolUses: 0,
        durationMs: 5,
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, ...usage }
      })
  }
}

/** A new data folder for every test, removed after it; `use` gets its path before the test runs. */
export function useTempDataDir(use: (dir: string) => void): void {
  let cleanup: (() => Promise<void>) | undefined
  beforeEach(async () => {
    const made = await tempDataDir()
    cleanup = made.cleanup
    use(made.dir)
  })
  afterEach(() => cleanup?.())
}

/**
 * Event builders for the agents of one session: `main` (no parent) and each subagent named by its builder's
 * name as `[agentId, parentToolUseId, parentAgentId]` (the parent is `main` unless said).
 */
export function sessionAgents<K extends string>(sessionId: string, subagents: Record<K, [string, string, string?]>) {
  const main = eventsFor({ sessionId, agentId: 'main', parentAgentId: null, parentToolUseId: null })
  const built = Object.fromEntries(
    Object.entries<[string, string, string?]>(subagents).map(([name, [agentId, parentToolUseId, parentAgentId = 'main']]) => [
      name,
      eventsFor({ sessionId, agentId, parentAgentId, parentToolUseId })
    ])
  ) as Record<K, typeof main>
  return { sessionId, main, ...built }
}

/** A pid no process has (above the largest pid_max Linux allows): the writer of a session that crashed. */
export const DEAD_PID = 99_999_999

/**
 * Makes a copy of a live session's folder look like what a crash leaves: session.json and the session's
 * lock name a writer whose process is gone.
 */
export async function markWriterDead(dataDir: string, sessionId: string): Promise<void> {
  const index = await readSessionIndex(dataDir, sessionId)
  if (index) await writeSessionIndex(dataDir, { ...index, writer: { pid: DEAD_PID, hostname: hostname() } })
  const lock = lockPath(dataDir, sessionId)
  if (existsSync(lock)) await writeFile(lock, JSON.stringify({ ...JSON.parse(await readFile(lock, 'utf8')), pid: DEAD_PID, hostname: hostname() }))
}

/** A session recorder whose write errors fail the test instead of being reported aside. */
export function strictRecorder(opts: Omit<SessionRecorderOptions, 'onError'>): SessionRecorder {
  return createSessionRecorder({
    ...opts,
    onError: (err) => {
      throw err
    }
  })
}

/** Records events and closes the recorder: a session as a process leaves it that ended well. */
export async function recordClosed(opts: Omit<SessionRecorderOptions, 'onError'>, events: AgentEvent[]): Promise<void> {
  const recorder = strictRecorder(opts)
  for (const e of events) recorder.record(e)
  await recorder.close()
}

/** Records events as a process would that then crashed: on disk, never closed, its writer gone. */
export async function recordCrashed(dataDir: string, sessionId: string, events: AgentEvent[], cwd = '/repo'): Promise<void> {
  const recorder = strictRecorder({ dataDir, sessionId, cwd })
  for (const e of events) recorder.record(e)
  await recorder.flush()
  const index = await readSessionIndex(dataDir, sessionId)
  await writeSessionIndex(dataDir, { ...index!, writer: { pid: DEAD_PID, hostname: hostname() } })
}
