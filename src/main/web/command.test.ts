import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRecordingHost } from '../../shared/testing/recording-host'
import { parseWebArgs, runWebCommand } from './command'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

describe('fanout web arguments', () => {
  it('reads --cwd and --port in both spellings', () => {
    expect(parseWebArgs(['--cwd', 'proj', '--port=8080'], '/home/me')).toEqual({ cwd: '/home/me/proj', port: 8080 })
    expect(parseWebArgs([], '/home/me')).toEqual({ cwd: '/home/me', port: 0 })
  })

  it('says what is wrong with a bad option', () => {
    expect(parseWebArgs(['--port', 'abc'])).toEqual({ error: expect.stringContaining("--port must be a whole number from 0 to 65535, not 'abc'") })
    expect(parseWebArgs(['--cwd'])).toEqual({ error: expect.stringContaining('--cwd needs a folder') })
    expect(parseWebArgs(['--verbose'])).toEqual({ error: expect.stringContaining("unknown option '--verbose'") })
  })
})

describe('fanout web', () => {
  it('refuses a --cwd that is not a folder', async () => {
    const err: string[] = []
    const code = await runWebCommand(['--cwd', '/no/such/folder'], { stdout: () => {}, stderr: (t) => err.push(t) })
    expect(code).toBe(2)
    expect(err.join('')).toBe('fanout web: /no/such/folder is not a folder.\n')
  })

  it('prints a tokened loopback URL that serves the app, and stops cleanly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fanout-webcmd-'))
    dirs.push(dir)
    process.env.FANOUT_DATA_DIR = join(dir, 'data')
    const out: string[] = []
    let closed = false
    let status = 0
    const host = createRecordingHost(dir)
    host.close = async () => void (closed = true)
    const done = runWebCommand(['--cwd', dir], {
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
      // While serving: the printed URL answers (503 here: this test does not build the renderer).
      untilStopped: async () => {
        const url = /Open (\S+)/.exec(out.join(''))![1]
        status = (await fetch(url)).status
      },
      createHost: async (opts) => {
        expect(opts.cwd).toBe(dir)
        expect(opts.dataDir).toBe(join(dir, 'data'))
        return host
      }
    })
    expect(await done).toBe(0)
    delete process.env.FANOUT_DATA_DIR
    expect(out.join('')).toMatch(new RegExp(`Fanout is serving ${dir} in browser mode\\.\\nOpen http://127\\.0\\.0\\.1:\\d+/#token=[0-9a-f]{64}\\n`))
    expect([200, 503]).toContain(status)
    expect(closed).toBe(true)
  })
})
