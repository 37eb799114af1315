// The output file of a background agent: a plain-text log of what it says and does, written as it runs,
// so the parent (or a person) can read its progress with Read or `tail` while it works. The last part is
// also kept in memory for TaskOutput.
import { appendFile, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { AgentEvent } from '../../../../shared/events'

const TAIL_CHARS = 20_000

export class OutputLog {
  private pending = ''
  private writing: Promise<void> | null = null
  private tailText = ''
  private problem: string | null = null
  private readonly ready: Promise<void>

  constructor(
    readonly file: string,
    private readonly onError: (err: Error) => void
  ) {
    this.ready = mkdir(dirname(file), { recursive: true }).then(
      () => undefined,
      (err: Error) => this.fail(err)
    )
  }

  /** The last 20,000 characters written. */
  tail(): string {
    return this.tailText
  }

  add(event: AgentEvent): void {
    const line = describe(event)
    if (line) this.write(line)
  }

  write(text: string): void {
    this.tailText = (this.tailText + text).slice(-TAIL_CHARS)
    if (this.problem) return
    this.pending += text
    if (!this.writing) this.writing = this.drain()
  }

  /** Resolves when everything added so far is on disk (or the file failed, which was reported once). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing
  }

  private async drain(): Promise<void> {
    await this.ready
    while (this.pending && !this.problem) {
      const chunk = this.pending
      this.pending = ''
      try {
        await appendFile(this.file, chunk, 'utf8')
      } catch (err) {
        this.fail(err as Error)
      }
    }
    this.writing = null
  }

  private fail(err: Error): void {
    if (this.problem) return
    this.problem = err.message
    this.onError(new Error(`Could not write the output file ${this.file}: ${err.message}`))
  }
}

/** The output logs of a session's agents, one file each in `dir`, made when an agent first needs one. */
export class OutputLogs {
  private readonly logs = new Map<string, OutputLog>()

  constructor(
    private readonly dir: string,
    private readonly onError: (err: Error) => void
  ) {}

  for(agentId: string): OutputLog {
    let log = this.logs.get(agentId)
    if (!log) this.logs.set(agentId, (log = new OutputLog(join(this.dir, `${agentId}.output.txt`), this.onError)))
    return log
  }

  /** The agent's log if it has one. */
  get(agentId: string): OutputLog | undefined {
    return this.logs.get(agentId)
  }

  async flush(): Promise<void> {
    await Promise.all([...this.logs.values()].map((l) => l.flush()))
  }
}

function describe(e: AgentEvent): string | null {
  switch (e.type) {
    case 'agent_start':
      return `[${e.agentType} agent ${e.agentId} started: ${e.description}]\n`
    case 'text_delta':
      return e.text
    case 'turn_end':
      return '\n'
    case 'tool_run':
      return `\n[${e.name} ${JSON.stringify(e.input).slice(0, 300)}]\n`
    case 'tool_end':
      return e.isError ? `[${e.name} failed: ${e.output.slice(0, 500)}]\n` : null
    case 'message_received':
      return `\n[message from ${e.from}${e.summary ? `: ${e.summary}` : ''}]\n`
    case 'error':
      return `\n[error${e.retrying ? ', retrying' : ''}: ${e.message}]\n`
    case 'agent_end':
      return `\n[agent ${e.status}${e.error ? `: ${e.error}` : ''}]\n`
    default:
      return null
  }
}
