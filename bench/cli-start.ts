// Process start to first model request for `fanout run`: what a person waits before anything happens.
// Every run is a fresh process. Warm: every run after the first. First run after a build: the cache the
// build prepared (compiled, not yet run), which that run completes. No cache: nothing read or written.
// Each gets a cache folder of its own, so the checkout's cache is left alone.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { primeCaches } from '../src/main/cli/code-cache'
import { reply, scriptTurns, startScriptedServer } from '../src/main/runtime/model/scripted'

const RUNS = 9

async function timeToFirstRequest(root: string, dataDir: string, cacheDir: string): Promise<number | undefined> {
  const server = await startScriptedServer({ respond: scriptTurns(reply.text('hi')) })
  const started = performance.now()
  const child = spawn(process.execPath, [join(root, 'bin/fanout'), 'run', '-p', 'hello', '--output-format', 'json'], {
    cwd: root,
    env: { ...process.env, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, FANOUT_DATA_DIR: dataDir, FANOUT_CODE_CACHE_DIR: cacheDir },
    stdio: 'ignore'
  })
  await new Promise((r) => child.on('exit', r))
  const firstRequest = server.requests[0]?.receivedAt
  await server.close()
  return firstRequest === undefined ? undefined : firstRequest - started
}

/** Node's own start, for scale: spawn to exit of `node -e 0` with the same environment. */
async function nodeAlone(): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
  await new Promise((r) => child.on('exit', r))
  return performance.now() - started
}

function describe(label: string, runs: number[]): string {
  runs.sort((a, b) => a - b)
  return `${label} (${runs.length} runs): median ${runs[Math.floor(runs.length / 2)]?.toFixed(0)} ms, best ${runs[0]?.toFixed(0)} ms`
}

export async function benchCliStart(root: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fanout-bench-data-'))
  const made: string[] = [dataDir]
  const newCacheDir = () => {
    made.push(mkdtempSync(join(tmpdir(), 'fanout-bench-cache-')))
    return made.at(-1)!
  }
  // What the build leaves for `fanout run` (scripts/build.mjs primes the checkout's cache the same way).
  const primedCacheDir = () => {
    const dir = newCacheDir()
    primeCaches(join(root, 'out/cli/fanout.cjs'), { names: ['run'], dirs: [dir] })
    return dir
  }
  const load = loadavg()[0]!.toFixed(2)
  const runs = async (cacheDir: () => string) => {
    const out: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t = await timeToFirstRequest(root, dataDir, cacheDir())
      if (t !== undefined) out.push(t)
    }
    return out
  }
  const first = await runs(primedCacheDir)
  const none = await runs(() => 'off')
  const warmDir = newCacheDir()
  await timeToFirstRequest(root, dataDir, warmDir)
  const warm = await runs(() => warmDir)
  const node: number[] = []
  for (let i = 0; i < RUNS; i++) node.push(await nodeAlone())
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
  console.log(`\nfanout run: process start to first model request (target < 200 ms; load average ${load} -> ${loadavg()[0]!.toFixed(2)})`)
  console.log(`  ${describe('warm, with its code cache', warm)}`)
  console.log(`  ${describe('first run after a build', first)}`)
  console.log(`  ${describe('no code cache at all', none)}`)
  // NODE_EXTRA_CA_CERTS makes Node 20 parse the certificates at every start, before any of our code runs.
  const certs = process.env.NODE_EXTRA_CA_CERTS ? ` (NODE_EXTRA_CA_CERTS is set: Node parses it at every start)` : ''
  console.log(`  ${describe('node -e 0, spawn to exit, for scale', node)}${certs}`)
}
