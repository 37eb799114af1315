// The cost benchmark's scripted server (cost-server.ts) in a process of its own, so that its work weighs on
// neither runtime: `npm run bench` starts it as `--cost-server` and drives it with control lines.
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface, type Interface } from 'node:readline'
import type { RunStats } from './cost-server'

/** The server's young generation, each half, fixed (V8's `--min-semi-space-size` and `--max-semi-space-size`, MB). */
const SERVER_SEMI_SPACE_MB = 64

export class CostServer {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly lines: AsyncIterator<string>
  ) {}

  static async start(): Promise<CostServer> {
    // The server stands in for the API, whose collections never pause on the user's machine: it collects at
    // each reset (between runs, never inside one), with a young generation large enough that a run seldom
    // fills it. Left at V8's defaults it scavenged ~9 times in a 16-way run (0.7-3.5 ms each, 24 ms once for a
    // full collection of the other side's garbage), and one that fell in a hand-off was counted as overhead.
    const child = spawn(
      process.execPath,
      ['--expose-gc', `--min-semi-space-size=${SERVER_SEMI_SPACE_MB}`, `--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`, process.argv[1], '--cost-server'],
      {
        stdio: ['pipe', 'pipe', 'inherit']
      }
    )
    const rl: Interface = createInterface({ input: child.stdout! })
    const lines = rl[Symbol.asyncIterator]()
    const first = await lines.next()
    if (first.done) throw new Error('the cost server exited before it started')
    return new CostServer(first.value.trim(), child, lines)
  }

  private async ask(line: string): Promise<string> {
    this.child.stdin!.write(`${line}\n`)
    const r = await this.lines.next()
    if (r.done) throw new Error('the cost server exited')
    return r.value
  }

  /** Starts a run: an empty cache, `latencyMs` before each reply, replies streamed at `rate` tokens a second (0: at once). */
  async reset(latencyMs: number, rate = 0): Promise<void> {
    await this.ask(`reset ${latencyMs} ${rate}`)
  }

  async stats(): Promise<RunStats> {
    return JSON.parse(await this.ask('stats')) as RunStats
  }

  stop(): void {
    this.child.kill()
  }
}
