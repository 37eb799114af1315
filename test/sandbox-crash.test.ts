// Fanout killed (kill -9) while sandboxed commands run: the placeholders their sandboxes stood on stay in the
// project (nothing of Fanout runs to remove them), and the next Fanout process to start — any CLI command,
// browser mode — removes the ones that are still exactly what was made, and keeps what a person changed.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { reply, startScriptedServer, type ScriptedServer } from '../src/main/runtime/model/scripted'
import { waitUntil } from '../src/main/runtime/security/sandbox/testing/background-hold'
import { cliProject, ensureCliBundle, repoRoot, runCli } from './support/cli'

let server: ScriptedServer | null = null
const children: ChildProcess[] = []
beforeAll(() => ensureCliBundle(), 120_000)
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
  for (const m of markers.splice(0)) spawnSync('pkill', ['-KILL', '-f', `sleep ${m}`])
  await server?.close()
  server = null
})

/** Processes whose command line holds `marker` (the sandboxed commands, inside their own pid namespace). */
function running(marker: string): number {
  let n = 0
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) n++
    } catch {}
  }
  return n
}

const PLACEHOLDERS = [
  '.bash_profile',
  '.bashrc',
  '.claude',
  '.gitconfig',
  '.gitmodules',
  '.idea',
  '.mcp.json',
  '.profile',
  '.ripgreprc',
  '.vscode',
  '.zprofile',
  '.zshrc'
]

/** `fanout run` whose agent starts a background command and then a long one, killed -9 while both run. */
async function crashWhileCommandsRun(
  project: string,
  env: (url: string) => Record<string, string>,
  marker: number
): Promise<{ endOrphans: () => Promise<void> }> {
  server = await startScriptedServer({
    respond: (req) =>
      req.turn === 0
        ? reply.toolUse('Bash', { command: `sleep ${marker}`, run_in_background: true })
        : req.turn === 1
          ? reply.toolUse('Bash', { command: `sleep ${marker + 1}` })
          : reply.text('done')
  })
  const child = spawn(process.execPath, [join(repoRoot, 'bin/fanout'), 'run', '-p', 'work', '--cwd', project, '--permission-mode', 'bypassPermissions'], {
    env: { ...process.env, ...env(server.url) },
    stdio: 'ignore'
  })
  children.push(child)
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  await waitUntil(() => running(`sleep ${marker + 1}`) > 0 && running(`sleep ${marker}`) > 0, 'both sandboxed commands to run', 60_000)
  expect(readdirSync(project).sort()).toEqual(['.git', ...PLACEHOLDERS, 'README.md'].sort())
  child.kill('SIGKILL')
  await exited
  // Nothing removed the placeholders (the commands may outlive Fanout a while: each runs in its own process group).
  expect(readdirSync(project).sort()).toEqual(['.git', ...PLACEHOLDERS, 'README.md'].sort())
  return { endOrphans: () => endOrphans(marker) }
}

/** The orphaned commands end (as a background command or a long build finally does). */
async function endOrphans(marker: number): Promise<void> {
  for (const m of [marker, marker + 1]) spawnSync('pkill', ['-KILL', '-f', `sleep ${m}`])
  await waitUntil(() => running(`sleep ${marker}`) === 0 && running(`sleep ${marker + 1}`) === 0, 'the orphaned sandboxed commands to end', 60_000)
}

/** A sleep length no other run of this test uses, so its processes are told apart from any left over. */
const markers: number[] = []
const uniqueMarker = (): number => {
  const m = 10_001 + 2 * Math.floor(Math.random() * 40_000)
  markers.push(m, m + 1)
  return m
}

function gitProject() {
  const p = cliProject('fanout-crash-', { 'README.md': 'readme\n' })
  execFileSync('git', ['init', '-q'], { cwd: p.project })
  return p
}

describe('after Fanout is killed while sandboxed commands run', () => {
  it('the next CLI command removes the placeholders left in the project, and keeps what a person changed since', async () => {
    const p = gitProject()
    const env = p.env('http://127.0.0.1:9')
    const crash = await crashWhileCommandsRun(p.project, p.env, uniqueMarker())
    expect(readdirSync(join(p.dataDir, 'sandbox-mounts'))).toHaveLength(1)
    // Orphaned commands may outlive Fanout for a while (the sweep then leaves their placeholders: mount-sweep.test.ts);
    // here they end first.
    await crash.endOrphans()
    // After the crash, a person fills one in and makes another theirs.
    chmodSync(join(p.project, '.mcp.json'), 0o644)
    writeFileSync(join(p.project, '.mcp.json'), '{"mcpServers":{}}\n')
    chmodSync(join(p.project, '.gitmodules'), 0o644)
    const r = await runCli(['worktrees', 'list', '--cwd', p.project], { env })
    expect(r.code).toBe(0)
    expect(readdirSync(p.project).sort()).toEqual(['.git', '.gitmodules', '.mcp.json', 'README.md'])
    expect(readFileSync(join(p.project, '.mcp.json'), 'utf8')).toContain('mcpServers')
    expect(statSync(join(p.project, '.gitmodules')).size).toBe(0)
    expect(readdirSync(join(p.dataDir, 'sandbox-mounts'))).toEqual([])
  }, 120_000)

  it('browser mode starting removes them too', async () => {
    const p = gitProject()
    const env = p.env('http://127.0.0.1:9')
    await (await crashWhileCommandsRun(p.project, p.env, uniqueMarker())).endOrphans()
    const web = spawn(process.execPath, [join(repoRoot, 'bin/fanout'), 'web', '--cwd', p.project], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    children.push(web)
    let out = ''
    web.stdout?.on('data', (d) => (out += d))
    await waitUntil(() => out.includes('Open http'), 'browser mode to start', 60_000)
    expect(readdirSync(p.project).sort()).toEqual(['.git', 'README.md'])
    expect(existsSync(join(p.dataDir, 'sandbox-mounts'))).toBe(true)
    expect(readdirSync(join(p.dataDir, 'sandbox-mounts'))).toEqual([])
  }, 120_000)
})
