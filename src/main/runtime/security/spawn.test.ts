// Every program Fanout starts gets the credential-free environment, the file manager browser mode opens too.
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openWithSystem } from '../review/open-folder'
import { makeTempDir, waitUntil } from '../tools/test-kit'
import { runChild } from './spawn'

const saved = { ...process.env }
const dirs: string[] = []
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
  Object.assign(process.env, saved)
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const SECRETS = { ANTHROPIC_API_KEY: 'sk-ant-spawn-test', GITHUB_TOKEN: 'ghp_spawntest', DATABASE_URL: 'postgres://u:hunter2@db/x' }

describe('spawn helper', () => {
  it('runChild: output, exit code, input; no credential in the child environment', async () => {
    Object.assign(process.env, SECRETS, { PLAIN_SETTING: 'kept' })
    const r = await runChild('/bin/sh', ['-c', 'cat; env; exit 3'], { input: 'from stdin\n' })
    expect(r.code).toBe(3)
    const out = r.stdout.toString('utf8')
    expect(out).toContain('from stdin')
    expect(out).toContain('PLAIN_SETTING=kept')
    for (const v of Object.values(SECRETS)) expect(out).not.toContain(v)
    // git's config pairs are settings, not secrets (the sandbox hands git its excludes file this way).
    const git = await runChild('/bin/sh', ['-c', 'env'], {
      env: { set: { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.excludesFile', GIT_CONFIG_VALUE_0: '/x' } }
    })
    const again = await runChild('/bin/sh', ['-c', 'env'], {
      env: {
        base: Object.fromEntries(
          git.stdout
            .toString('utf8')
            .trim()
            .split('\n')
            .map((l) => l.split(/=(.*)/s, 2))
        )
      }
    })
    expect(again.stdout.toString('utf8')).toContain('GIT_CONFIG_KEY_0=core.excludesFile')
    // A name the settings pass on is kept.
    const passed = await runChild('/bin/sh', ['-c', 'env'], { env: { pass: ['GITHUB_TOKEN'] } })
    expect(passed.stdout.toString('utf8')).toContain('GITHUB_TOKEN=ghp_spawntest')
  })

  it('runChild refuses output past maxBuffer and stops a program past its time', async () => {
    await expect(runChild('/bin/sh', ['-c', 'head -c 5000 /dev/zero'], { maxBuffer: 1000 })).rejects.toThrow(/more than 1000 bytes/)
    await expect(runChild('/bin/sh', ['-c', 'sleep 600'], { timeoutMs: 200 })).rejects.toThrow(/timed out/)
  })

  it('"Open folder" in browser mode starts the file manager without the API key or tokens', async () => {
    if (process.platform !== 'linux') return // xdg-open is the Linux opener; the others are system binaries
    const { dir: bin } = makeTempDir('fanout-opener-')
    dirs.push(bin)
    const dump = join(bin, 'env.txt')
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nenv > ${dump}.part && mv ${dump}.part ${dump}\n`)
    chmodSync(join(bin, 'xdg-open'), 0o755)
    Object.assign(process.env, SECRETS, { PATH: `${bin}:${process.env.PATH}` })
    expect(await openWithSystem(bin)).toBeNull()
    await waitUntil(() => existsSync(dump), 'the opener to write its environment')
    const env = readFileSync(dump, 'utf8')
    expect(env).toContain('PATH=')
    for (const v of Object.values(SECRETS)) expect(env).not.toContain(v)
  })
})
