// Test fixture for orchestration tests: a real project folder, a fake home, the scripted model server
// behind the real SDK, and an AgentSession recording every event. Also small helpers to wait for an event
// and to hold a scripted reply until the test lets it go.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { AgentEndEvent, AgentEvent, AgentStartEvent } from '../../../../shared/events'
import { startScriptedModel, type ScriptedModel, type ScriptedServerOptions } from '../../model/scripted'
import { AgentSession } from '../session/session'
import type { AgentSessionOptions } from '../session/session-options'

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
  close(): Promise<void>
}

const open: Fixture[] = []

/** Closes every fixture made by the test (call in afterEach). */
export async function closeFixtures(): Promise<void> {
  for (const f of open.splice(0)) await f.close()
}

export async function makeFixture(
  server: ScriptedServerOptions,
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
  const model = await startScriptedModel(server)
  const { files: _files, root: _root, ...sessionOpts } = opts
  // Sessions record to the fixture's data folder unless the test passes dataDir: undefined.
  const session = await AgentSession.create({ client: model.client, home, dataDir, ripgrep: false, managedSettingsFile: null, onError: () => undefined, ...sessionOpts, cwd })
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
    async close() {
      for (const s of sessions) {
        s.stop(s.mainAgentId, false)
        for (const a of s.registry.all()) s.stop(a.id, false)
        await s.idle()
        await s.close().catch(() => undefined)
      }
      await model.close()
      rmSync(root, { recursive: true, force: true })
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

/** A promise the test opens when it chooses: scripted replies await it to hold an agent at a known point. */
export function latch(): { wait: Promise<void>; open: () => void } {
  let open!: () => void
  const wait = new Promise<void>((r) => (open = r))
  return { wait, open }
}
