// A session on the scripted server's simulated prompt cache, in a temporary folder that is both its project
// and its home, for the tests of what fan-out siblings read and write of the cache. One at a time per test
// file; closeCacheSession() (afterEach) closes it and removes the folder.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CacheSharing } from '../../model/cache-sharing'
import type { ModelClientConfig } from '../../model/client'
import { startScriptedModel, type Respond, type ScriptedModel, type ScriptedServerOptions } from '../../model/scripted'
import { AgentSession } from '../session/session'
import type { AgentSessionOptions } from '../session/session-options'

export interface CacheSession {
  model: ScriptedModel
  session: AgentSession
  root: string
}

let open: CacheSession | undefined
let openRoot: string | undefined
let openModel: ScriptedModel | undefined

export async function openCacheSession(opts: {
  respond: Respond
  sharing: CacheSharing
  /** The temporary folder's name prefix. */
  prefix: string
  /** Writes the project's files before the session starts. */
  prepare?: (root: string) => void
  session?: Partial<AgentSessionOptions>
  /** The server's pace (latency, output rate) and the client's own connection pool (fetch), where a test needs them. */
  server?: Omit<ScriptedServerOptions, 'respond'>
  fetch?: ModelClientConfig['fetch']
}): Promise<CacheSession> {
  const model = (openModel = await startScriptedModel({ ...opts.server, respond: opts.respond }, { cacheSharing: opts.sharing, fetch: opts.fetch }))
  const root = (openRoot = realpathSync(mkdtempSync(join(tmpdir(), opts.prefix))))
  opts.prepare?.(root)
  const session = await AgentSession.create({
    cwd: root,
    home: root,
    client: model.client,
    ripgrep: false,
    managedSettingsFile: null,
    limits: { maxConcurrent: 100 },
    ...opts.session,
    onError: () => undefined
  })
  open = { model, session, root }
  return open
}

export async function closeCacheSession(): Promise<void> {
  await open?.session.close()
  await openModel?.close()
  if (openRoot) rmSync(openRoot, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 })
  open = openModel = openRoot = undefined
}
