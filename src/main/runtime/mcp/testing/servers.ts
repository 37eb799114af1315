// Starting the test suite's MCP servers as real processes: the stdio one is started by the code under test
// from a config (`node stdio-server.mjs ...`); the HTTP one is started here and stopped by the test.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const STDIO_SERVER_SCRIPT = fileURLToPath(new URL('./stdio-server.mjs', import.meta.url))
export const HTTP_SERVER_SCRIPT = fileURLToPath(new URL('./http-server.mjs', import.meta.url))

/** The tools test-tools.mjs registers, in sorted order. */
const TEST_SERVER_TOOLS = ['add', 'echo', 'fail', 'picture', 'wait', 'whereami']

/** The test server's tools as an agent gets them from the server named `server`, sorted, less the ones `without` names. */
export function testServerTools(server: string, without: string[] = []): string[] {
  return TEST_SERVER_TOOLS.filter((t) => !without.includes(t)).map((t) => `mcp__${server}__${t}`)
}

/** A `.mcp.json`-style entry that runs the stdio test server with these flags. */
export function stdioServerEntry(flags: string[] = [], env: Record<string, string> = {}): { command: string; args: string[]; env: Record<string, string> } {
  return { command: process.execPath, args: [STDIO_SERVER_SCRIPT, ...flags], env }
}

export interface HttpTestServer {
  url: string
  close(): Promise<void>
}

const running = new Set<HttpTestServer>()

/** Stops every HTTP test server still running (call in afterEach). */
export async function stopHttpTestServers(): Promise<void> {
  await Promise.all([...running].map((s) => s.close()))
}

export function startHttpTestServer(flags: string[] = []): Promise<HttpTestServer> {
  const child = spawn(process.execPath, [HTTP_SERVER_SCRIPT, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const exited = new Promise<void>((r) => child.once('close', () => r()))
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /listening (\d+)/.exec(out)
      if (!m) return
      const server: HttpTestServer = {
        url: `http://127.0.0.1:${m[1]}/${flags.includes('--sse') ? 'sse' : 'mcp'}`,
        async close() {
          running.delete(server)
          child.kill('SIGTERM')
          await exited
        }
      }
      running.add(server)
      resolve(server)
    })
    child.once('close', (code) => reject(new Error(`The HTTP test server exited with code ${code} before listening: ${stderr}`)))
  })
}
