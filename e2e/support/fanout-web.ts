// `fanout web` run as its own process, as a person starts it, for the specs that kill the host with SIGKILL
// and start it again on the same data. Registers the CLI build (beforeAll) and the teardown (afterEach):
// the host killed, the scripted model closed, the temporary folder removed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@playwright/test'
import { startScriptedServer, type ScriptedServer } from '../../src/main/runtime/model/scripted'
import { e2eScript } from './e2e-model'
import { makeProject } from './fixtures'
import { REPO_ROOT } from './repo-root'

const repo = REPO_ROOT

export interface FanoutWebHost {
  /** A fresh project, a data dir (room for 64 agents) and the scripted model; the env a launch runs with. */
  prepare(): Promise<void>
  /** Starts `fanout web` on the prepared project; resolves with the address it printed. */
  start(): Promise<string>
  /** Kills the running host with SIGKILL and waits until it has exited. */
  kill(): Promise<void>
}

/** `prefix` names the temporary folder; `apiKey` is the key the launches are given. */
export function fanoutWebHost(prefix: string, apiKey: string): FanoutWebHost {
  let root = ''
  let project = ''
  let env: Record<string, string> = {}
  let model: ScriptedServer | null = null
  let child: ChildProcess | null = null

  test.beforeAll(() => {
    // The CLI bundle, as `npm run build` makes it (the spec runs after a build; this only refreshes it).
    const r = spawnSync(process.execPath, ['scripts/build.mjs', '--cli'], { cwd: repo, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`building the CLI failed:\n${r.stderr}`)
  })
  test.afterEach(async () => {
    child?.kill('SIGKILL')
    await model?.close()
    if (root) rmSync(root, { recursive: true, force: true })
  })

  return {
    async prepare() {
      root = mkdtempSync(join(tmpdir(), prefix))
      project = makeProject(root)
      const dataDir = join(root, 'data')
      mkdirSync(dataDir, { recursive: true })
      writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ limits: { maxConcurrent: 64 } }))
      model = await startScriptedServer({ respond: e2eScript({ speed: 0.5 }), latencyMs: 60, recordRequests: false })
      env = {
        FANOUT_DATA_DIR: dataDir,
        HOME: join(root, 'home'),
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: apiKey,
        DISABLE_TELEMETRY: '1'
      }
    },
    start() {
      return new Promise((resolveUrl, reject) => {
        const p = spawn(process.execPath, [join(repo, 'bin/fanout'), 'web', '--cwd', project], {
          cwd: project,
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe']
        })
        child = p
        let out = ''
        let started = false
        p.stdout!.on('data', (d) => {
          out += d
          const m = /Open (http:\/\/\S+)/.exec(out)
          if (m && !started) {
            started = true
            resolveUrl(m[1])
          }
        })
        p.stderr!.on('data', (d) => (out += d))
        p.on('exit', (code, signal) => {
          if (!started) return reject(new Error(`fanout web exited (${code}) before printing its address:\n${out}`))
          // A host that ends by itself after it started (not this harness's SIGKILL) is why a page then loses its
          // connection for good: its last words go to the report, so a failure says why.
          if (signal !== 'SIGKILL') process.stderr.write(`fanout web exited by itself (${code ?? signal}) after it started; its output:\n${out.slice(-8000)}\n`)
        })
      })
    },
    async kill() {
      const p = child!
      const killed = new Promise((r) => p.once('exit', r))
      p.kill('SIGKILL')
      await killed
    }
  }
}
