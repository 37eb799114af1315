// The stdio transport for a local MCP server: the SDK's framing (newline-delimited JSON-RPC) over a child
// process we own. Owning the process (rather than the SDK's StdioClientTransport) is what lets a failed start
// say why: "command not found", the exit code or signal, and the last lines the server wrote to stderr. The
// server runs as the leader of its own process group, so closing it also ends whatever it started.
import { spawnChild, type ChildProcess } from '../security/spawn'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { killProcessGroup } from '../tools/process-group'

const STDERR_TAIL_CHARS = 4000

export interface StdioParams {
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string
  /** Credential-looking variables the user's settings pass to child processes anyway. */
  passEnv?: readonly string[]
}

export interface ExitInfo {
  code: number | null
  signal: NodeJS.Signals | null
}

export class OwnedStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private child: ChildProcess | null = null
  private readonly buffer = new ReadBuffer()
  private stderrText = ''
  private exitInfo: ExitInfo | null = null
  private spawnError: NodeJS.ErrnoException | null = null
  private readonly exited: Promise<void>
  private markExited!: () => void

  constructor(private readonly params: StdioParams) {
    this.exited = new Promise((resolve) => (this.markExited = resolve))
  }

  /** The last few thousand characters the server wrote to stderr. */
  get stderrTail(): string {
    return this.stderrText
  }

  /** Set once the process has ended. */
  get exit(): ExitInfo | null {
    return this.exitInfo
  }

  /** Why the process could not be started at all (ENOENT: no such command). */
  get startError(): NodeJS.ErrnoException | null {
    return this.spawnError
  }

  start(): Promise<void> {
    if (this.child) throw new Error('The MCP server process was already started.')
    return new Promise((resolve, reject) => {
      const child = spawnChild(this.params.command, this.params.args, {
        cwd: this.params.cwd,
        // The server's own `env` from its configuration is passed as written; nothing else that carries a credential.
        env: { ...(this.params.passEnv ? { pass: this.params.passEnv } : {}), set: this.params.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32'
      })
      this.child = child
      child.once('error', (err: NodeJS.ErrnoException) => {
        this.spawnError = err
        reject(err)
        this.onerror?.(err)
      })
      child.once('spawn', () => resolve())
      child.once('close', (code, signal) => {
        this.exitInfo = { code, signal }
        this.markExited()
        this.onclose?.()
      })
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk)
        } catch (err) {
          this.onerror?.(err instanceof Error ? err : new Error(String(err)))
          return
        }
        for (;;) {
          let message: JSONRPCMessage | null
          try {
            message = this.buffer.readMessage()
          } catch (err) {
            // A line that is not JSON-RPC (a server printing logs to stdout): report it, keep reading.
            this.onerror?.(err instanceof Error ? err : new Error(String(err)))
            continue
          }
          if (message === null) break
          this.onmessage?.(message)
        }
      })
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrText = (this.stderrText + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)
      })
      // Writing to a server that died is reported through onclose; the EPIPE itself is noise.
      child.stdin?.on('error', () => undefined)
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (!stdin || this.exitInfo) return Promise.reject(new Error('The MCP server process is not running.'))
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once('drain', () => resolve())
    })
  }

  /**
   * Ends the server: closes its stdin, then SIGTERM and SIGKILL to its process group if it lingers. Resolves
   * once it has exited: after SIGKILL that is certain, only its notice may take a while on a loaded machine
   * (resolving before it would leave the server there for whoever looks right after).
   */
  async close(): Promise<void> {
    const child = this.child
    if (!child || this.exitInfo || this.spawnError) return
    const wait = (ms: number) => Promise.race([this.exited, new Promise<void>((r) => setTimeout(r, ms).unref())])
    child.stdin?.end()
    await wait(1000)
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (this.exitInfo) break
      if (child.pid !== undefined) {
        if (process.platform === 'win32') child.kill(signal)
        else killProcessGroup(child.pid, signal)
      }
      await wait(signal === 'SIGKILL' ? 10_000 : 1500)
    }
  }
}
