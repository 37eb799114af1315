// Differential: which of a folder's .mcp.json servers start, Claude Code 2.1.328 (`claude -p`) against
// `fanout run`, on the same folder and the same settings. Where the person's settings say something they
// agree: `enabledMcpjsonServers` / `enableAllProjectMcpServers` in ~/.claude/settings.json start a server,
// `disabledMcpjsonServers` keeps it off in both. Where nothing is said they differ on purpose: Claude Code's
// headless mode starts an unmentioned project server without asking; Fanout skips it and says so.
// Claude Code is looked for as the pinned npm package (or FANOUT_CLAUDE_CODE=/path/to/claude); the test
// skips with the reason where it is not installed.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureCliBundle, runCli } from '../support/cli'
import { STDIO_SERVER_SCRIPT } from '../../src/main/runtime/mcp/testing/servers'
import { reply, startScriptedServer, type ScriptedServer } from '../../src/main/runtime/model/scripted'

function findClaudeCode(): { path: string } | { skip: string } {
  if (process.env.FANOUT_CLAUDE_CODE) return existsSync(process.env.FANOUT_CLAUDE_CODE) ? { path: process.env.FANOUT_CLAUDE_CODE } : { skip: `FANOUT_CLAUDE_CODE=${process.env.FANOUT_CLAUDE_CODE} does not exist` }
  try {
    const dir = dirname(createRequire(import.meta.url).resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}/package.json`))
    return { path: join(dir, 'claude') }
  } catch {
    return { skip: 'Claude Code 2.1.328 is not installed (npm install @anthropic-ai/claude-code@2.1.328, or set FANOUT_CLAUDE_CODE)' }
  }
}
const claude = findClaudeCode()

let model: ScriptedServer | null = null
afterEach(async () => {
  await model?.close()
  model = null
})
beforeAll(() => ensureCliBundle(), 120_000)

function folder(userSettings: Record<string, unknown>, localSettings?: Record<string, unknown>) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-diff-mcp-')))
  const project = join(root, 'project')
  mkdirSync(join(project, '.claude'), { recursive: true })
  const server = (name: string, pids: string) => ({ command: process.execPath, args: [STDIO_SERVER_SCRIPT, '--label', name, '--pid-file', join(pids, `${name}.pid`)] })
  const setUp = (pids: string, home: string) => {
    mkdirSync(pids, { recursive: true })
    mkdirSync(join(home, '.claude'), { recursive: true })
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify(userSettings))
  }
  return {
    root,
    project,
    /** A copy of the folder for one program, with its own home and pid folder. */
    forProgram(name: string) {
      const copy = join(root, name)
      const pids = join(root, `${name}-pids`)
      const home = join(root, `${name}-home`)
      setUp(pids, home)
      cpSync(project, copy, { recursive: true })
      writeFileSync(join(copy, '.mcp.json'), JSON.stringify({ mcpServers: { alpha: server('alpha', pids), beta: server('beta', pids), gamma: server('gamma', pids) } }))
      if (localSettings) writeFileSync(join(copy, '.claude', 'settings.local.json'), JSON.stringify(localSettings))
      return { cwd: copy, home, started: () => ['alpha', 'beta', 'gamma'].filter((n) => existsSync(join(pids, `${n}.pid`))) }
    }
  }
}

function runClaude(cwd: string, home: string, url: string): Promise<number | null> {
  if (!('path' in claude)) throw new Error(claude.skip)
  return new Promise((resolve) => {
    const child = spawn(claude.path, ['-p', 'hi', '--output-format', 'json'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-test', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' }
    })
    child.stdout.resume()
    child.stderr.resume()
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000)
    child.on('close', (code) => (clearTimeout(timer), resolve(code)))
  })
}

describe.skipIf(!('path' in claude))(`differential: which .mcp.json servers start, Claude Code -p against fanout run${'skip' in claude ? ` (skipped: ${claude.skip})` : ''}`, () => {
  it.each([
    ['enabledMcpjsonServers in the user settings, disabledMcpjsonServers in the local settings', { enabledMcpjsonServers: ['alpha'] }, { disabledMcpjsonServers: ['beta'] }, ['alpha']],
    ['enableAllProjectMcpServers in the user settings, one server disabled there', { enableAllProjectMcpServers: true, disabledMcpjsonServers: ['gamma'] }, undefined, ['alpha', 'beta']]
  ])('%s', async (_name, user, local, approved) => {
    model = await startScriptedServer({ respond: () => reply.text('ok') })
    const f = folder(user, local)
    const cc = f.forProgram('claude')
    expect(await runClaude(cc.cwd, cc.home, model.url)).toBe(0)
    const fo = f.forProgram('fanout')
    const r = await runCli(['run', '-p', 'hi', '--cwd', fo.cwd], { env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: model.url, FANOUT_DATA_DIR: join(f.root, 'data'), HOME: fo.home } })
    expect(r.code).toBe(0)
    const unmentioned = ['alpha', 'beta', 'gamma'].filter((n) => !approved.includes(n) && !JSON.stringify({ user, local }).includes(`"${n}"`))
    // Where the settings speak, the same servers start.
    expect(fo.started()).toEqual(approved)
    expect(cc.started().filter((n) => !unmentioned.includes(n))).toEqual(approved)
    // Where they are silent, Claude Code's headless mode starts the server; Fanout skips it and says how to allow it.
    expect(cc.started().filter((n) => unmentioned.includes(n))).toEqual(unmentioned)
    for (const n of unmentioned) expect(r.stderr).toContain(`MCP server "${n}" (.mcp.json)`)
  }, 180_000)
})
