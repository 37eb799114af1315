// Test fixture for orchestration tests: a real project folder, a fake home, the scripted model server
// behind the real SDK, and an AgentSession recording every event. Also small helpers to wait for an event
// and to hold a scripted reply until the test lets it go.
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { AgentEndEvent, AgentEvent, AgentStartEvent } from '../../../../shared/events'
import { scriptByAgent, startScriptedModel, type AgentScript, type ScriptedModel, type ScriptedServerOptions } from '../../model/scripted'
import { markWriterDead } from '../../store/test-fixtures'
import { makeTempRepo, type TempRepo } from '../../worktrees/testing/temp-repo'
import type { AgentHandle } from '../runs/agent-registry'
import { AgentSession } from '../session/session'
import type { AgentSessionOptions, OpenSessionOptions } from '../session/session-options'

export interface Fixture {
  root: string
  cwd: string
  home: string
  dataDir: string
  model: ScriptedModel
  session: AgentSession
  events: AgentEvent[]
  write(rel: string, content: string): string
  /** Another session on the same folders and model server (e.g. after a restart). */
  reopen(make: (base: Pick<AgentSessionOptions, 'client' | 'home'> & { dataDir: string; cwd: string }) => Promise<AgentSession>): Promise<AgentSession>
  /** A new session on the same folders and model server, with the events it emits from now on. */
  newSession(): Promise<RecordedSession>
  /** A recorded session reopened (from the fixture's data folder, or another such as a crashCopy), with its events. */
  openSession(sessionId: string, dataDir?: string, opts?: Partial<OpenSessionOptions>): Promise<RecordedSession>
  /** What a kill -9 of the session's process leaves: its files as they are on disk now, in a copy whose writer is gone. Returns the copy's data folder. */
  crashCopy(session: AgentSession): Promise<string>
  close(): Promise<void>
}

export interface RecordedSession {
  session: AgentSession
  events: AgentEvent[]
}

const recorded = (session: AgentSession): RecordedSession => {
  const events: AgentEvent[] = []
  session.bus.subscribe((e) => events.push(e))
  return { session, events }
}

const open: Fixture[] = []
const repos: TempRepo[] = []

/** Closes every fixture made by the test, then removes its temporary repositories (call in afterEach). */
export async function closeFixtures(): Promise<void> {
  for (const f of open.splice(0)) await f.close()
  for (const r of repos.splice(0)) r.cleanup()
}

/** A temporary git repository for a fixture's project, removed by closeFixtures(). */
export function tempRepo(): TempRepo {
  const r = makeTempRepo()
  repos.push(r)
  return r
}

/** `server`: the scripted server's options, or (most tests) just its agents' scripts (see scripted-agents.ts). */
export async function makeFixture(
  server: ScriptedServerOptions | AgentScript[],
  opts: Partial<AgentSessionOptions> & { files?: Record<string, string>; cwd?: string; root?: string } = {}
): Promise<Fixture> {
  const root = opts.root ?? realpathSync(mkdtempSync(join(tmpdir(), 'fanout-orch-')))
  const cwd = opts.cwd ?? join(root, 'project')
  const home = join(root, 'home')
  const dataDir = join(root, 'data')
  mkdirSync(cwd, { recursive: true })
  mkdirSync(home, { recursive: true })
  const write = (rel: string, content: string) => {
    const path = join(cwd, rel)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
    return path
  }
  for (const [rel, content] of Object.entries(opts.files ?? {})) write(rel, content)
  const model = await startScriptedModel(Array.isArray(server) ? { respond: scriptByAgent(server) } : server)
  const { files: _files, root: _root, ...sessionOpts } = opts
  // Sessions record to the fixture's data folder unless the test passes dataDir: undefined.
  const session = await AgentSession.create({
    client: model.client,
    home,
    dataDir,
    ripgrep: false,
    managedSettingsFile: null,
    onError: () => undefined,
    ...sessionOpts,
    cwd
  })
  const events: AgentEvent[] = []
  session.bus.subscribe((e) => events.push(e))
  const sessions = [session]
  const fixture: Fixture = {
    root,
    cwd,
    home,
    dataDir,
    model,
    session,
    events,
    write,
    async reopen(make) {
      const s = await make({ client: model.client, home, dataDir, cwd })
      sessions.push(s)
      return s
    },
    async newSession() {
      return recorded(await fixture.reopen((base) => AgentSession.create({ ...base, ripgrep: false, managedSettingsFile: null })))
    },
    async openSession(sessionId, from = dataDir, opts = {}) {
      return recorded(
        await fixture.reopen((base) =>
          AgentSession.open({ client: base.client, home: base.home, dataDir: from, sessionId, ripgrep: false, managedSettingsFile: null, ...opts })
        )
      )
    },
    async crashCopy(s) {
      await s.flush()
      const crashed = join(root, `crashed-${Math.random().toString(36).slice(2)}`)
      cpSync(dataDir, crashed, { recursive: true })
      await markWriterDead(crashed, s.sessionId)
      return crashed
    },
    async close() {
      for (const s of sessions) {
        s.stop(s.mainAgentId, false)
        for (const a of s.registry.all()) s.stop(a.id, false)
        await s.idle()
        await s.close().catch(() => undefined)
      }
      await model.close()
      rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 })
    }
  }
  open.push(fixture)
  return fixture
}

export const starts = (events: AgentEvent[]) => events.filter((e): e is AgentStartEvent => e.type === 'agent_start')
export const ends = (events: AgentEvent[]) => events.filter((e): e is AgentEndEvent => e.type === 'agent_end')

/** Resolves with the first event (already seen or future) that matches. */
export function waitForEvent<E extends AgentEvent = AgentEvent>(session: AgentSession, events: AgentEvent[], match: (e: AgentEvent) => boolean): Promise<E> {
  const seen = events.find(match)
  if (seen) return Promise.resolve(seen as E)
  return new Promise((resolve) => {
    const off = session.bus.subscribe((e) => {
      if (match(e)) {
        off()
        resolve(e as E)
      }
    })
  })
}

/** The subagent described `description`, once it has emitted an event of `type` (already or later). */
export async function agentReached(session: AgentSession, events: AgentEvent[], description: string, type: AgentEvent['type']): Promise<AgentHandle> {
  const agent = session.registry.all().find((h) => h.description === description)!
  await waitForEvent(session, events, (e) => e.type === type && e.agentId === agent.id)
  return agent
}

/** A promise the test opens when it chooses: scripted replies await it to hold an agent at a known point. */
export function latch(): { wait: Promise<void>; open: () => void } {
  let open!: () => void
  const wait = new Promise<void>((r) => (open = r))
  return { wait, open }
}
