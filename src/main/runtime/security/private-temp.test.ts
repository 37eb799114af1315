import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { groupRunning } from '../tools/process-group'
import { makeTempDir, waitUntil } from '../tools/test-kit'
import { privateTempDir, sweepDeadTempRoots } from './private-temp'

const running = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('private scratch folders', () => {
  it('are made once per process, readable by its user alone', () => {
    const a = privateTempDir('bash')
    const b = privateTempDir('sandbox', 'agent-1')
    expect(join(a, '..')).toBe(join(b, '..', '..'))
    expect(statSync(join(a, '..')).mode & 0o777).toBe(0o700)
    expect(statSync(b).mode & 0o777).toBe(0o700)
    expect(join(a, '..')).toMatch(new RegExp(`/fanout-${process.pid}-[A-Za-z0-9]{6}$`))
  })

  it.skipIf(process.platform !== 'linux')(
    "a dead process's folder is removed and what still runs under it is stopped; a live one's is left alone",
    async () => {
      const { dir: base, cleanup } = makeTempDir('fanout-sweep-')
      const deadPid = spawnSync('true').pid as number
      const dead = join(base, `fanout-${deadPid}-abc123`)
      mkdirSync(join(dead, 'sandbox', 'agent'), { recursive: true })
      // A sandbox left behind by the dead process: its command line names the folder; its child does not.
      const leftover = spawn('sh', ['-c', 'sleep 300 & wait', join(dead, 'sandbox', 'agent')], { detached: true, stdio: 'ignore' })
      const alive = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' })
      const live = join(base, `fanout-${alive.pid}-def456`)
      mkdirSync(live)
      mkdirSync(join(base, 'fanout-notapid-ghi789'))
      try {
        await waitUntil(() => running(leftover.pid as number), 'the leftover to run')
        expect(sweepDeadTempRoots(base)).toBe(1)
        expect(existsSync(dead)).toBe(false)
        expect(readdirSync(base).sort()).toEqual([`fanout-${alive.pid}-def456`, 'fanout-notapid-ghi789'])
        // The whole group goes, the `sleep` child included.
        await waitUntil(() => leftover.exitCode !== null || leftover.signalCode !== null, 'the leftover to be stopped')
        expect(leftover.signalCode).toBe('SIGKILL')
        await waitUntil(() => !groupRunning(leftover.pid as number), 'its sleep to be stopped')
        expect(running(alive.pid as number)).toBe(true)
      } finally {
        alive.kill('SIGKILL')
        cleanup()
      }
    }
  )
})
