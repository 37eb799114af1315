// Boots browser mode in-process for a spec: a temporary project folder, a data dir, a host from
// host-factory.ts, and startWebServer serving the built renderer. Restartable with the same data dir.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RuntimeHost } from '../../src/shared/host'
import { startWebServer, type WebServer } from '../../src/main/web/server'
import { createE2eHost, type E2eHostOptions } from './host-factory'

export interface BrowserMode {
  url: string
  server: WebServer
  host: RuntimeHost
  root: string
  project: string
  dataDir: string
  /** Stops the server and host and starts fresh ones on the same data (a restart), optionally changing host options. */
  restart(overrides?: Partial<E2eHostOptions>): Promise<void>
  close(): Promise<void>
}

export function makeProject(root: string): string {
  const project = join(root, 'tiny-parser')
  mkdirSync(join(project, 'src'), { recursive: true })
  mkdirSync(join(project, 'test'), { recursive: true })
  mkdirSync(join(project, '.git'), { recursive: true })
  writeFileSync(join(project, 'README.md'), '# tiny-parser\n\n`parse(src)` returns an AST.\n')
  writeFileSync(join(project, 'src/parser.ts'), 'import { lex } from "./lexer"\nexport function parse(src: string) {\n  const tokens = lex(src)\n  return tokens\n}\n')
  writeFileSync(join(project, 'src/lexer.ts'), 'export function lex(src: string) {\n  return src.split(/\\s+/)\n}\n')
  writeFileSync(join(project, 'test/parser.test.ts'), "describe('parse', () => {})\n")
  return project
}

export async function startBrowserMode(opts: Partial<E2eHostOptions> = {}): Promise<BrowserMode> {
  const root = mkdtempSync(join(tmpdir(), 'fanout-e2e-'))
  const project = makeProject(root)
  const dataDir = join(root, 'data')
  let options: E2eHostOptions = { cwd: project, dataDir, speed: 0.5, ...opts }
  const boot = async () => {
    const host = await createE2eHost(options)
    const server = await startWebServer({ host, rendererDir: join(process.cwd(), 'out/renderer') })
    return { host, server }
  }
  let { host, server } = await boot()
  const mode: BrowserMode = {
    url: server.url,
    server,
    host,
    root,
    project,
    dataDir,
    async restart(overrides = {}) {
      options = { ...options, ...overrides }
      await server.close()
      await host.close()
      ;({ host, server } = await boot())
      Object.assign(mode, { url: server.url, server, host })
    },
    async close() {
      await server.close()
      await host.close()
      rmSync(root, { recursive: true, force: true })
    }
  }
  return mode
}
