// The Bash sandbox as one session sees it: the process's sandbox (or none, when the user's settings turned it
// off), what the tools need to sandbox their commands, and a notice, once, when it cannot run here: the
// person learns that commands which would have run without asking will ask (or, headless, be denied).
import type { AgentEvent } from '../../../../shared/events'
import { isReadOnlyAgent, type SandboxState } from '../../permissions'
import type { BashSandboxOptions } from '../../tools/bash-sandbox'
import type { AgentHandle } from '../runs/agent-registry'
import { SandboxRuntime, sharedSandboxRuntime } from '../../security/sandbox/sandbox-runtime'
import { shellParserLoaded, warmShellParser } from '../../permissions/shell/parse-shell'

export interface SessionSandboxOptions {
  sessionId: string
  mainAgentId: string
  emit: (event: AgentEvent) => void
  /** Replaces the process's sandbox (tests: one with a missing bubblewrap). */
  runtime?: SandboxRuntime
  /** The domains commands may reach (the permission settings', read at each reload). */
  allowedDomains: () => string[]
  /** Files no sandboxed command may read (Fanout's credentials; where they are is asked at each build). */
  secretFiles: () => string[]
  /** Environment variables passed to commands beyond the safe defaults. */
  passEnv?: string[]
  /** Variables every command gets (Claude Code settings' `env`). */
  env?: Record<string, string>
}

export function sandboxUnavailableNotice(reason: string, headless: boolean): string {
  return `The Bash sandbox is unavailable: ${reason}. Commands that would run without asking inside it (read-only commands, allowed commands, plan mode) ${headless ? 'are denied in this headless run' : 'ask for approval instead'}.`
}

export class SessionSandbox {
  private noticed = false
  private last: SandboxState | undefined

  constructor(
    private readonly opts: SessionSandboxOptions,
    private readonly disabledBy: () => string | undefined,
    private readonly headless: () => boolean
  ) {}

  runtime(): SandboxRuntime {
    if (this.opts.runtime) return this.opts.runtime
    const off = this.disabledBy()
    return off ? new SandboxRuntime({ disabledReason: `it is turned off by ${off}` }) : sharedSandboxRuntime()
  }

  /** How this agent's Bash commands are sandboxed: read-only in plan mode and for read-only agents. */
  forAgent(handle: AgentHandle): BashSandboxOptions {
    const { allowedDomains, secretFiles, passEnv, env } = this.opts
    return {
      runtime: this.runtime(),
      floor: handle.permissionMode === 'plan' || isReadOnlyAgent(handle.definition) ? 'read-only' : 'workspace',
      allowedDomains,
      secretFiles: secretFiles(),
      ...(passEnv ? { passEnv } : {}),
      ...(env ? { env } : {})
    }
  }

  /**
   * Readies what a Bash call's permission decision needs while the call is still streaming from the model, so
   * that its first time in a process overlaps the model's writing of the command instead of delaying the
   * question or the run: the sandbox (the library, its proxies, a probe run in bubblewrap: most of a second)
   * and the shell parser (~0.1 s of loading, after the event that called this has gone out).
   */
  warmForBash(): void {
    void this.runtime().ready()
    if (!shellParserLoaded()) setImmediate(warmShellParser)
  }

  /** Whether commands can be sandboxed; the first "no" is told to the person as a notice on the main agent. */
  readonly state = async (): Promise<SandboxState> => {
    const status = await this.runtime().ready()
    this.last = status.available ? { available: true } : { available: false, reason: status.reason }
    if (!status.available && !this.noticed) {
      this.noticed = true
      const o = this.opts
      o.emit({
        agentId: o.mainAgentId,
        parentAgentId: null,
        parentToolUseId: null,
        sessionId: o.sessionId,
        ts: Date.now(),
        type: 'error',
        message: sandboxUnavailableNotice(status.reason, this.headless()),
        retrying: false,
        notice: true
      })
    }
    return this.last
  }

  /** The last answer (for decisions that cannot wait); available until asked. */
  lastState(): SandboxState {
    return this.last ?? { available: true }
  }
}
