import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { currentProcess, processStartOf, processState } from './process-identity'
import { acquireSessionLock, describeOwner, lockPath, SessionLockedError, sessionOwner, type LockOwner } from './session-lock'
import { tempDataDir } from './test-fixtures'

let data: { dir: string; cleanup: () => Promise<void> }
beforeEach(async () => {
  data = await tempDataDir()
})
afterEach(() => data.cleanup())

/** The pid of a process that has exited: free now, or later someone else's. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return Number(r.stdout)
}

function writeLock(sessionId: string, owner: Partial<LockOwner>): void {
  const full: LockOwner = { ...currentProcess(), app: 'fanout run', acquiredAt: Date.now(), token: 'old-token', ...owner }
  writeFileSync(lockPath(data.dir, sessionId), JSON.stringify(full))
}

describe('process identity', () => {
  it('knows this process, a finished one, and a pid that now belongs to a process started at another time', () => {
    const me = currentProcess()
    expect(processState(me)).toBe('alive')
    expect(processState({ ...me, pid: deadPid() })).toBe('gone')
    if (process.platform === 'linux') {
      expect(me.processStart).toMatch(/^\d+$/)
      expect(processState({ ...me, processStart: String(Number(me.processStart) + 1) })).toBe('gone')
    }
    expect(processState({ ...me, hostname: `${hostname()}-elsewhere` })).toBe('unknown')
    expect(processStartOf(deadPid())).toBeNull()
  })
})

describe('session lock', () => {
  it('is held by one holder; a second one is refused with a sentence naming the owner; release frees it', async () => {
    const lock = await acquireSessionLock(data.dir, 's1', { app: 'fanout run' })
    const err = await acquireSessionLock(data.dir, 's1', { app: 'the Fanout app' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SessionLockedError)
    expect((err as Error).message).toMatch(
      new RegExp(
        `^Session s1 is being run by fanout run \\(pid ${process.pid} in this process\\) since \\d\\d:\\d\\d:\\d\\d\\. Wait for it to finish or stop it there\\.$`
      )
    )
    expect((await sessionOwner(data.dir, 's1'))?.token).toBe(lock.owner.token)
    await lock.release()
    expect(existsSync(lock.file)).toBe(false)
    expect(await sessionOwner(data.dir, 's1')).toBeNull()
    const again = await acquireSessionLock(data.dir, 's1', { app: 'fanout run' })
    await again.release()
  })

  it('takes over the lock of a process that died, and of one whose pid was given to another program', async () => {
    await acquireSessionLock(data.dir, 'gone', { app: 'x' }).then((l) => l.release())
    writeLock('gone', { pid: deadPid() })
    expect(await sessionOwner(data.dir, 'gone')).toBeNull()
    const a = await acquireSessionLock(data.dir, 'gone', { app: 'fanout run' })
    expect(JSON.parse(readFileSync(a.file, 'utf8')).token).toBe(a.owner.token)
    await a.release()
    if (process.platform === 'linux') {
      await acquireSessionLock(data.dir, 'reused', { app: 'x' }).then((l) => l.release())
      writeLock('reused', { processStart: '1' }) // this pid, but a start time that is not this process's
      const b = await acquireSessionLock(data.dir, 'reused', { app: 'fanout run' })
      await b.release()
    }
  })

  it('treats an unreadable lock as stale and a lock of another host as held, saying how to clear it', async () => {
    await acquireSessionLock(data.dir, 'junk', { app: 'x' }).then((l) => l.release())
    writeFileSync(lockPath(data.dir, 'junk'), '{garbage')
    await (await acquireSessionLock(data.dir, 'junk', { app: 'fanout run' })).release()
    writeLock('junk', { hostname: 'build-server-7', pid: 12 })
    const err = (await acquireSessionLock(data.dir, 'junk', { app: 'fanout run' }).catch((e: unknown) => e)) as Error
    expect(err.message).toContain('(pid 12 on build-server-7)')
    expect(err.message).toContain(`if that process is gone, delete ${lockPath(data.dir, 'junk')}`)
  })

  it('a release does not remove a lock that another holder took since', async () => {
    const a = await acquireSessionLock(data.dir, 's2', { app: 'x' })
    writeLock('s2', { pid: deadPid() }) // a's lock was replaced (as if it were stale and taken over)
    const b = await acquireSessionLock(data.dir, 's2', { app: 'y' })
    await a.release()
    expect((await sessionOwner(data.dir, 's2'))?.token).toBe(b.owner.token)
    await b.release()
  })

  it('of twelve processes racing for one stale lock, exactly one gets it', async () => {
    await acquireSessionLock(data.dir, 'race', { app: 'x' }).then((l) => l.release())
    writeLock('race', { pid: deadPid() })
    // The lock module bundled for plain node, as each racer is its own process.
    const bundle = join(data.dir, 'lock.cjs')
    await build({ entryPoints: [join(__dirname, 'session-lock.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'silent' })
    // Each racer says how it did, then holds on (a winner keeps its lock) until the test has every answer.
    const script = `
      process.stdin.resume();
      process.stdin.on('end', () => process.exit(0));
      require(${JSON.stringify(bundle)}).acquireSessionLock(process.argv[1], 'race', { app: 'racer' }).then(
        () => process.stdout.write('won'),
        (e) => process.stdout.write(e.name))`
    const children = Array.from({ length: 12 }, () => spawn(process.execPath, ['-e', script, data.dir], { stdio: ['pipe', 'pipe', 'inherit'] }))
    const runs = children.map(
      (child) =>
        new Promise<string>((resolve) => {
          let out = ''
          child.stdout.on('data', (d) => {
            out += d
            resolve(out)
          })
          child.on('close', () => resolve(out))
        })
    )
    const outcomes = await Promise.all(runs)
    for (const child of children) child.stdin.end()
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'SessionLockedError')).toHaveLength(11)
  })

  it('describes an owner for a person', () => {
    const owner: LockOwner = {
      pid: 4242,
      hostname: hostname(),
      processStart: null,
      app: 'fanout run',
      acquiredAt: new Date(2026, 0, 2, 14, 3, 10).getTime(),
      token: 't'
    }
    expect(describeOwner(owner)).toBe('fanout run (pid 4242) since 14:03:10')
  })
})
