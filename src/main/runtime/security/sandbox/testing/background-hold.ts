// Tests: a sandboxed command left running in the background in a folder (a real Bash tool call, in the
// workspace sandbox), so that its placeholders are there while a test looks; stop() ends it and waits until
// the Bash tool has released its sandbox.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createBashTool, type BashDetails } from '../../../tools/bash'
import type { BashSandboxOptions } from '../../../tools/bash-sandbox'
import { groupEnded } from '../../../tools/process-group'
import { toolContext, waitUntil } from '../../../tools/test-kit'
import { sharedSandboxRuntime } from '../sandbox-runtime'
import { runTool } from '../../../tool-call/execute'

export { waitUntil }

export interface BackgroundCommand {
  pid: number
  outputFile: string
  output(): string
  /** Resolves once the command has ended (on its own) and its sandbox was released. */
  ended(): Promise<void>
  stop(): Promise<void>
}

let count = 0

export async function runInBackground(cwd: string, command = 'sleep 60', sandbox?: BashSandboxOptions): Promise<BackgroundCommand> {
  // Its output file is named after these: unique, or an earlier run's "exited" line would be read as this one's.
  const id = `${process.pid}-${++count}-${Math.random().toString(36).slice(2, 8)}`
  const r = await runTool(
    createBashTool({ cwd, ...(sandbox ? { sandbox } : {}) }),
    { command, run_in_background: true },
    toolContext({ sandbox: 'workspace', toolUseId: `toolu_bg${id}`, agentId: `bg${id}` })
  )
  if (r.isError) throw new Error(r.content)
  const { pid, outputFile } = r.details as BashDetails & { pid: number; outputFile: string }
  const output = () => (existsSync(outputFile) ? readFileSync(outputFile, 'utf8') : '')
  // The Bash tool writes this line right after it released the command's sandbox.
  const ended = () => waitUntil(() => output().includes('[fanout: command exited'), `the background command ${command} to end`)
  return {
    pid,
    outputFile,
    output,
    ended,
    async stop() {
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {}
      await ended()
    }
  }
}

/**
 * A sandboxed `sleep` under a policy of the test's own (sandbox-runtime's defaults on top): placeholders a
 * Fanout policy would not make, such as one at `.claude/agents` or at a path an Edit deny rule names.
 */
export async function holdWithPolicy(cwd: string, denyWrite: string[] = []): Promise<{ placeholders: readonly string[]; stop(): Promise<void> }> {
  const runtime = sharedSandboxRuntime()
  const status = await runtime.ready()
  if (!status.available) throw new Error(`the sandbox is unavailable: ${status.reason}`)
  const wrapped = await runtime.wrap('sleep 60', { cwd, allowWrite: [cwd], denyWrite, denyRead: [], allowedDomains: [] })
  const child = spawn('/bin/bash', ['-c', wrapped.command], { cwd, detached: true, stdio: 'ignore' })
  if (child.pid) wrapped.started(child.pid)
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return {
    placeholders: wrapped.placeholders,
    async stop() {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {}
      await exited
      // As the Bash tool does: the leader's exit is not the end of the sandbox (bubblewrap's child may still be
      // setting up its mounts and would make a placeholder again after the release removed it).
      if (child.pid) await groupEnded(child.pid)
      wrapped.release()
    }
  }
}
