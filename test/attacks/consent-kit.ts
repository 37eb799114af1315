// Shared by the trust and leak attack files: a marker folder that hostile commands write into (so "no
// process ran" is a checkable fact), a snapshot of a project's files (so "nothing changed" is too), and a
// scripted model that tries everything a session does: a read-only call (hooks), a Bash call (allow rules,
// modes), a write outside the project (extra folders), a subagent (agent files' hooks, servers and modes).
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { LocalRuntimeHost } from '../../src/main/runtime/host'
import { reply, scriptByAgent, startScriptedServer, type Respond } from '../../src/main/runtime/model/scripted'
import { startWebServer, type WebServer } from '../../src/main/web/server'
import { hostOptions } from '../support/host'

export const MAIN = 'lead agent in Fanout'

/**
 * Every file under `dir` (links as their target text, .git left out) with a hash of its content. A file that goes
 * between the listing and its reading (a state file's temporary copy, renamed into place meanwhile) is left out:
 * it was never there to compare.
 */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const gone = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT'
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '.git') continue
      const p = join(d, name)
      try {
        const st = lstatSync(p)
        if (st.isSymbolicLink()) out[relative(dir, p)] = `-> ${readlinkSync(p)}`
        else if (st.isDirectory()) walk(p)
        else if (st.isFile()) out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex')
        else out[relative(dir, p)] = 'special'
      } catch (err) {
        if (!gone(err)) throw err
      }
    }
  }
  walk(dir)
  return out
}

/** A folder that hostile commands touch files in: empty means nothing ran. */
export function markerDir(root: string): { dir: string; touch: (name: string) => string; ran: () => string[] } {
  const dir = join(root, 'markers')
  mkdirSync(dir, { recursive: true })
  return { dir, touch: (name) => `touch ${JSON.stringify(join(dir, name))}`, ran: () => (existsSync(dir) ? readdirSync(dir) : []) }
}

/** The main agent reads a file, runs a Bash command, writes outside the project and starts the helper agent. */
export function everythingScript(opts: { bash: string; outsideFile: string }): Respond {
  return scriptByAgent([
    {
      match: 'You are the helper',
      turns: [reply.toolUse('Bash', { command: `${opts.bash}-helper` }), (req) => reply.text(`helper saw: ${req.toolResults[0]?.content.slice(0, 80)}`)]
    },
    {
      match: MAIN,
      turns: [
        reply.toolUses([
          { name: 'Read', input: { file_path: 'README.md' } },
          { name: 'Bash', input: { command: opts.bash } },
          { name: 'Write', input: { file_path: opts.outsideFile, content: 'escaped' } },
          { name: 'Agent', input: { description: 'Help', prompt: 'Help out.', subagent_type: 'helper' } }
        ]),
        reply.text('done')
      ]
    }
  ])
}

export const HELPER_AGENT = '---\nname: helper\ndescription: Helps.\n---\nYou are the helper.\n'

export interface RunningHost {
  host: LocalRuntimeHost
  web: WebServer
  root: string
  project: string
  sessionId: string
  /** Whether the session started at boot is still running. */
  stillRunning(): Promise<boolean>
  close(): Promise<void>
}

/**
 * A real host in browser mode with one session whose model call is held open until close(): probes run
 * while a session is at work, and must leave it so.
 */
export async function startRunningHost(opts: { onRefused?: (message: string) => void } = {}): Promise<RunningHost> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-host-')))
  const project = join(root, 'project')
  mkdirSync(project)
  mkdirSync(join(root, 'renderer'))
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><title>Fanout</title>')
  writeFileSync(join(root, 'secret.txt'), 'do not serve')
  let release = () => undefined as void
  const held = new Promise<void>((r) => (release = r))
  const model = await startScriptedServer({ respond: async () => (await held, reply.text('released')) })
  const host = new LocalRuntimeHost(hostOptions({ cwd: project, dataDir: join(root, 'data'), home: join(root, 'home') }, model.url))
  const web = await startWebServer({ host, rendererDir: join(root, 'renderer'), onRefused: opts.onRefused ?? (() => undefined) })
  const { sessionId } = await host.handlers['session.start']({ prompt: 'Keep working.', cwd: project })
  const stillRunning = async () =>
    (await host.handlers['sessions.list']({ cwd: project })).sessions.find((s) => s.sessionId === sessionId)?.status === 'running'
  for (const end = Date.now() + 15_000; !(await stillRunning()); ) {
    if (Date.now() > end) throw new Error('the session did not start running')
    await new Promise((r) => setTimeout(r, 20))
  }
  return {
    host,
    web,
    root,
    project,
    sessionId,
    stillRunning,
    async close() {
      release()
      await web.close()
      await host.close()
      await model.close()
    }
  }
}
