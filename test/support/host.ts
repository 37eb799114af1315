// A LocalRuntimeHost over temporary folders and (optionally) the scripted Messages server, with every
// event and notice it sends collected, for the host's unit tests.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { AgentEvent } from '../../src/shared/events'
import type { HostNotice } from '../../src/shared/ipc-contract'
import { createModelClient } from '../../src/main/runtime/model/client'
import { startScriptedServer, type Respond, type ScriptedServer } from '../../src/main/runtime/model/scripted'
import { LocalRuntimeHost, type RuntimeHostOptions } from '../../src/main/runtime/host/runtime-host'
import { waitUntil } from '../../src/main/runtime/tools/test-kit'

const cleanup: Array<() => Promise<void>> = []

/**
 * Closes the hosts (and their scripted servers) the test made. Runs after each test anyway; a test file that
 * removes the hosts' folders in its own afterEach calls it first: after-hooks run last-registered first, so
 * this module's (registered at import) would come after that removal, while the host may still be writing
 * there (ENOTEMPTY on the removal, seen under load).
 */
export async function closeHosts(): Promise<void> {
  for (const c of cleanup.splice(0)) await c()
}
afterEach(closeHosts)

export function folders() {
  const tmp = mkdtempSync(join(tmpdir(), 'fanout-host-'))
  const cwd = join(tmp, 'project')
  mkdirSync(join(cwd, 'src'), { recursive: true })
  writeFileSync(join(cwd, 'src', 'main.ts'), 'export const answer = 42\n')
  writeFileSync(join(cwd, 'README.md'), '# Demo project\n')
  return { tmp, cwd, dataDir: join(tmp, 'data'), home: join(tmp, 'home') }
}

/**
 * What every test host is made with: these folders, no ripgrep and no managed settings (so the machine's own
 * do not leak in), and the scripted Messages server at `modelUrl` as its model (none: no model client).
 */
export function hostOptions(dirs: { cwd: string; dataDir: string; home: string }, modelUrl?: string, env: Record<string, string> = {}): RuntimeHostOptions {
  return {
    cwd: dirs.cwd,
    dataDir: dirs.dataDir,
    home: dirs.home,
    env,
    sessionDefaults: { ripgrep: false, managedSettingsFile: null },
    ...(modelUrl ? { createClient: () => createModelClient({ apiKey: 'k', baseURL: modelUrl, maxRetries: 0, env: {} }) } : {})
  }
}

export async function host(
  respond: Respond | null,
  dirs: { cwd: string; dataDir: string; home: string } = folders(),
  env: Record<string, string> = {},
  extra: Partial<RuntimeHostOptions> = {}
) {
  let server: ScriptedServer | null = null
  if (respond) server = await startScriptedServer({ respond })
  const h = new LocalRuntimeHost({ ...hostOptions(dirs, server?.url, env), ...extra })
  const events: AgentEvent[] = []
  const notices: HostNotice[] = []
  h.onEvents((batch) => events.push(...batch))
  h.onNotice((n) => notices.push(n))
  cleanup.push(async () => {
    await h.close()
    await server?.close()
  })
  return { h, events, notices, dirs, server }
}

/** Waits by the clock for a condition (test-kit's waitUntil: 30 s unless told, which a loaded CI machine needs). */
export const until = waitUntil

export const mainEnded = (events: AgentEvent[], sessionId: string) =>
  events.some((e) => e.type === 'agent_end' && e.sessionId === sessionId && e.parentAgentId === null)
