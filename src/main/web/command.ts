// `fanout web [--cwd DIR] [--port P]`: browser mode from the command line. Prints the URL (with this
// launch's token) and serves until interrupted.
import { readFileSync, writeFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { RuntimeHost } from '../../shared/host'
import { createRuntimeHost } from '../runtime/host'
import { resolveDataDir } from '../runtime/store/data-dir'
import { startWebServer } from './server'
import { errorMessage } from '../../shared/error-message'

export interface WebCommandIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  untilStopped?: () => Promise<void>
  createHost?: typeof createRuntimeHost
}

const USAGE = 'Usage: fanout web [--cwd DIR] [--port P]'

export function parseWebArgs(argv: string[], cwd = process.cwd()): { cwd: string; port: number } | { error: string } {
  let dir = cwd
  let port = 0
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = () => inline ?? argv[++i]
    if (flag === '--cwd') {
      const v = value()
      if (!v) return { error: `fanout web: --cwd needs a folder. ${USAGE}` }
      dir = resolve(cwd, v)
    } else if (flag === '--port') {
      const v = value()
      const n = Number(v)
      if (!v || !Number.isInteger(n) || n < 0 || n > 65535)
        return { error: `fanout web: --port must be a whole number from 0 to 65535, not '${v ?? ''}'. ${USAGE}` }
      port = n
    } else return { error: `fanout web: unknown option '${arg}'. ${USAGE}` }
  }
  return { cwd: dir, port }
}

const untilSignal = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve())
    process.once('SIGTERM', () => resolve())
  })

export async function runWebCommand(
  argv: string[],
  io: WebCommandIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(
      `${USAGE}\n  --cwd DIR   the folder whose sessions and agents the page shows (default: the current one)\n  --port P    the port on 127.0.0.1 (default: any free one); the URL printed carries this launch's token\n`
    )
    return 0
  }
  const args = parseWebArgs(argv)
  if ('error' in args) {
    io.stderr(args.error + '\n')
    return 2
  }
  const info = await stat(args.cwd).catch(() => null)
  if (!info?.isDirectory()) {
    io.stderr(`fanout web: ${args.cwd} is not a folder.\n`)
    return 2
  }
  let host: RuntimeHost
  const dataDir = resolveDataDir()
  try {
    // The key lives in the data folder's credentials file (0600), shared with `fanout run`.
    host = await (io.createHost ?? createRuntimeHost)({ cwd: args.cwd, dataDir, owner: 'fanout web' })
  } catch (err) {
    io.stderr(`fanout web: could not start the runtime: ${errorMessage(err)}\n`)
    return 1
  }
  let server
  try {
    // Without --port, the last launch's port when it is free: a restarted Fanout keeps its address (only the
    // token changes), so a page from before can hear of it from a page of the new launch and carry on.
    const remembered = args.port ? null : lastPort(dataDir)
    server = remembered ? await startWebServer({ host, port: remembered }).catch(() => null) : null
    server ??= await startWebServer({ host, port: args.port })
    rememberPort(dataDir, Number(new URL(server.url).port))
  } catch (err) {
    await host.close()
    io.stderr(`fanout web: ${errorMessage(err)}\n`)
    return 1
  }
  io.stdout(
    `Fanout is serving ${args.cwd} in browser mode.\nOpen ${server.url}\nOnly this URL (it carries a one-time token) can drive agents. Press Ctrl+C to stop.\n`
  )
  await (io.untilStopped ?? untilSignal)()
  await server.close()
  await host.close()
  return 0
}

const portFile = (dataDir: string) => join(dataDir, 'web.json')

function lastPort(dataDir: string): number | null {
  try {
    const port = (JSON.parse(readFileSync(portFile(dataDir), 'utf8')) as { port?: unknown }).port
    return typeof port === 'number' && Number.isInteger(port) && port > 1023 && port < 65536 ? port : null
  } catch {
    return null
  }
}

function rememberPort(dataDir: string, port: number): void {
  try {
    writeFileSync(portFile(dataDir), JSON.stringify({ port }) + '\n', { mode: 0o600 })
  } catch {
    // Best effort: the next launch picks a port of its own.
  }
}
