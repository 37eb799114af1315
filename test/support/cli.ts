// Runs ./bin/fanout as a user would, rebuilding the CLI bundle first when a source file is newer.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeAll } from 'vitest'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../../src/main/runtime/model/scripted'
import { runProcess, type CliResult } from './run-process'

export { runProcess, type CliResult } from './run-process'

export const repoRoot = resolve(__dirname, '../..')
const bundle = join(repoRoot, 'out/cli/fanout.cjs')

function newestSource(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs)
  }
  return newest
}

/** Builds out/cli/fanout.cjs (and its part) when missing or older than src/main or src/shared. */
export function ensureCliBundle(): void {
  const stale =
    !existsSync(bundle) ||
    !existsSync(join(repoRoot, 'out/cli/fanout-deps.cjs')) ||
    statSync(bundle).mtimeMs < Math.max(newestSource(join(repoRoot, 'src/main')), newestSource(join(repoRoot, 'src/shared')))
  if (!stale) return
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--cli'], { cwd: repoRoot, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`building the CLI failed:\n${r.stderr}`)
}

/**
 * For a test file that runs the CLI against the scripted model: builds the bundle once for the file and
 * returns `serve`, which starts a scripted server that is closed after the test that started it.
 */
export function useCliServers(): (opts: ScriptedServerOptions) => Promise<ScriptedServer> {
  const open: ScriptedServer[] = []
  beforeAll(() => ensureCliBundle(), 60_000)
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()))
  })
  return async (opts) => {
    const server = await startScriptedServer(opts)
    open.push(server)
    return server
  }
}

/** Spawns the CLI without blocking this process's event loop (in-process servers keep answering). */
export function runCli(
  args: string[],
  opts: {
    cwd?: string
    env?: Record<string, string | undefined>
    input?: string | AsyncIterable<string>
    timeoutMs?: number
    bin?: string
    onStdout?: (stdout: string) => void
    onStderr?: (stderr: string) => void
  } = {}
): Promise<CliResult> {
  return runProcess(process.execPath, [opts.bin ?? join(repoRoot, 'bin/fanout'), ...args], {
    ...opts,
    cwd: opts.cwd ?? repoRoot,
    env: { ...process.env, ...opts.env }
  })
}

/**
 * A temporary project for CLI runs against a scripted model: its folder (with `files` written into it), a
 * data folder and home of its own, and the environment that points the CLI at a server's URL.
 */
export function cliProject(prefix: string, files: Record<string, string>) {
  const tmp = mkdtempSync(join(tmpdir(), prefix))
  const project = join(tmp, 'project')
  mkdirSync(project)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text)
  const dataDir = join(tmp, 'data')
  const env = (url: string) => ({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: url, FANOUT_DATA_DIR: dataDir, HOME: tmp })
  return { project, dataDir, env }
}
