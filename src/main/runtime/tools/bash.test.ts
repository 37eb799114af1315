import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBashTool, type BashDetails } from './bash'
import { procStat } from '../security/proc-stat'
import { SandboxRuntime, sharedSandboxRuntime } from '../security/sandbox/sandbox-runtime'
import { makeTempDir, toolContext, waitUntil } from './test-kit'
import { runTool } from '../tool-call/execute'

let dir: string
let cleanup: () => void
beforeEach(() => ({ dir, cleanup } = makeTempDir()))
afterEach(() => cleanup())

const bash = (input: Record<string, unknown>, ctx = toolContext()) => runTool(createBashTool({ cwd: dir }), input, ctx)

/** Gone means no such process, or a zombie waiting for its (re)parent to reap it. */
function processGone(pid: number): boolean {
  const stat = procStat(pid)
  return !stat || stat.state === 'Z'
}

/** This machine's pids of the live processes whose command line holds the marker (pids inside the sandbox are its own). */
function markedPids(marker: string): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && !processGone(pid)
      } catch {
        return false
      }
    })
}

const markerRunning = (marker: string): boolean => markedPids(marker).length > 0

async function waitForFile(path: string): Promise<string> {
  await waitUntil(() => existsSync(path) && readFileSync(path, 'utf8').trim() !== '', `${path} to be written`)
  return readFileSync(path, 'utf8').trim()
}

describe('Bash', () => {
  it('runs in the agent cwd and returns interleaved stdout and stderr', async () => {
    const r = await bash({ command: 'pwd; echo out; echo err >&2' })
    expect(r.isError).toBeFalsy()
    expect(r.content).toBe(`${dir}\nout\nerr`)
    expect((r.details as BashDetails).exitCode).toBe(0)
  })

  it('reports a non-zero exit code as an error result', async () => {
    const r = await bash({ command: 'echo failing; exit 7' })
    expect(r.isError).toBe(true)
    expect(r.content).toBe('Exit code 7\nfailing')
    expect((r.details as BashDetails).exitCode).toBe(7)
  })

  it('kills the whole process group on timeout, children included (also inside the sandbox)', async () => {
    const pidFile = join(dir, 'child.pid')
    const marker = `300.${process.pid}1`
    const run = bash({ command: `sleep ${marker} & echo $! > ${pidFile}; echo started; wait`, timeout: 5000 })
    await waitForFile(pidFile)
    expect(markerRunning(marker)).toBe(true)
    const r = await run
    const d = r.details as BashDetails
    expect(r.isError).toBe(true)
    expect(d.timedOut).toBe(true)
    expect(r.content).toContain('started')
    expect(r.content).toContain('timed out after 5 s')
    await waitUntil(() => !markerRunning(marker), 'the background sleep to die')
  })

  it('kills the whole process group when the agent is aborted (also inside the sandbox)', async () => {
    const pidFile = join(dir, 'child.pid')
    const marker = `300.${process.pid}2`
    const controller = new AbortController()
    const run = bash({ command: `(sleep ${marker}; echo never) & echo $! > ${pidFile}; wait` }, toolContext({ signal: controller.signal }))
    await waitForFile(pidFile)
    expect(markerRunning(marker)).toBe(true)
    controller.abort()
    const r = await run
    expect(r.isError).toBe(true)
    expect((r.details as BashDetails).aborted).toBe(true)
    expect(r.content).toContain('stopped because the agent was interrupted')
    await waitUntil(() => !markerRunning(marker), 'the subshell to die')
  })

  it('stopped while its sandbox is still starting, a command leaves none of its placeholders in the folder', async () => {
    for (let round = 0; round < 5; round++) {
      const controller = new AbortController()
      const run = bash({ command: 'sleep 300' }, toolContext({ signal: controller.signal, toolUseId: `toolu_stop${round}` }))
      // The placeholders are made just before bubblewrap starts: stop it then, in the middle of its set-up.
      await waitUntil(() => readdirSync(dir).length > 0, 'the sandbox placeholders')
      controller.abort()
      const r = await run
      expect((r.details as BashDetails).aborted).toBe(true)
      expect(readdirSync(dir)).toEqual([])
    }
  })

  it("says so when the sandbox cannot clean up after a command, in the result and in a background command's file", async () => {
    // The process's one sandbox (sandbox-runtime starts once per process), with a release that fails.
    const shared = sharedSandboxRuntime()
    class FailingRelease extends SandboxRuntime {
      override ready() {
        return shared.ready()
      }
      override async wrap(...args: Parameters<SandboxRuntime['wrap']>) {
        const wrapped = await shared.wrap(...args)
        return {
          ...wrapped,
          release: () => {
            wrapped.release()
            throw new Error('disk full')
          }
        }
      }
    }
    const tool = createBashTool({ cwd: dir, sandbox: { runtime: new FailingRelease() } })
    const r = await runTool(tool, { command: 'echo hi' }, toolContext())
    expect(r.content).toBe('hi\n(The sandbox could not clean up after the command: disk full. Empty placeholder files may be left in the folder.)')
    const bg = await runTool(tool, { command: 'true', run_in_background: true }, toolContext({ toolUseId: 'toolu_failing_bg' }))
    const { outputFile } = bg.details as { outputFile: string }
    await waitUntil(() => readFileSync(outputFile, 'utf8').includes('exited with code 0'), 'the exit line')
    expect(readFileSync(outputFile, 'utf8')).toContain('could not clean up after the command: disk full')
  })

  it('streams progress through onUpdate while the command runs', async () => {
    const updates: Array<{ output: string }> = []
    const r = await bash({ command: 'echo one; sleep 0.3; echo two' }, toolContext({ onUpdate: (d) => updates.push(d as { output: string }) }))
    expect(r.content).toBe('one\ntwo')
    expect(updates.length).toBeGreaterThan(0)
    expect(updates[0].output).toContain('one')
  })

  it('caps huge output, keeping the head and the tail', async () => {
    const r = await bash({ command: 'echo FIRST; seq 1 200000; echo LAST' })
    const d = r.details as BashDetails
    expect(d.truncated).toBe(true)
    expect(r.content.startsWith('FIRST')).toBe(true)
    expect(r.content).toContain('LAST')
    expect(r.content).toMatch(/characters of output omitted/)
    expect(r.content.length).toBeLessThan(32_500)
  })

  it('validates timeout and refuses empty commands with actionable messages', async () => {
    const big = await bash({ command: 'true', timeout: 700_000 })
    expect(big.isError).toBe(true)
    expect(big.content).toContain('timeout')
    const empty = await bash({ command: '' })
    expect(empty.content).toContain('command')
  })

  it('does not wait for a background grandchild that keeps the output pipe open', async () => {
    const marker = `30.${process.pid}3`
    const r = await bash({ command: `sleep ${marker} & echo done` })
    expect(r.content).toBe('done')
    // Found by its command line: `$!` inside the sandbox is a pid of its own namespace, not this machine's.
    for (const pid of markedPids(marker)) process.kill(pid, 'SIGKILL')
    await waitUntil(() => !markerRunning(marker), 'the grandchild to die')
  })

  it('runs in the background on request, writing output to a file', async () => {
    const controller = new AbortController()
    const r = await bash({ command: 'echo bg-output', run_in_background: true }, toolContext({ signal: controller.signal }))
    const d = r.details as { outputFile: string; pid: number }
    expect(r.content).toContain(d.outputFile)
    // Its own file, private to this process's user: never an earlier command's, never another user's.
    expect(statSync(dirname(d.outputFile)).mode & 0o777).toBe(0o700)
    expect(statSync(dirname(dirname(d.outputFile))).mode & 0o777).toBe(0o700)
    const again = await bash({ command: 'true', run_in_background: true }, toolContext({ signal: controller.signal }))
    const againFile = (again.details as { outputFile: string }).outputFile
    expect(againFile).not.toBe(d.outputFile)
    // The exit line is written once the command's sandbox is released (its placeholders gone from `dir`).
    for (const file of [d.outputFile, againFile])
      await waitUntil(() => readFileSync(file, 'utf8').includes('exited with code 0'), 'the background command to finish')
    expect(readFileSync(d.outputFile, 'utf8')).toContain('bg-output')
    expect(readFileSync(againFile, 'utf8')).not.toContain('bg-output')
  })

  it('stops background commands when the agent is aborted', async () => {
    const controller = new AbortController()
    const r = await bash({ command: 'sleep 300', run_in_background: true }, toolContext({ signal: controller.signal }))
    const { pid, outputFile } = r.details as { pid: number; outputFile: string }
    expect(processGone(pid)).toBe(false)
    controller.abort()
    await waitUntil(() => processGone(pid), 'the background command to die')
    // Told once all of it has ended and its sandbox's placeholders are gone from the folder.
    await waitUntil(() => readFileSync(outputFile, 'utf8').includes('[fanout: command exited on signal'), 'the exit line')
    expect(readdirSync(dir)).toEqual([])
  })
})
