// Differential: which of a folder's .mcp.json servers start, Claude Code 2.1.328 (`claude -p`) against
// `fanout run`, on the same folder and the same settings. Where the person's settings say something they
// agree: `enabledMcpjsonServers` / `enableAllProjectMcpServers` in ~/.claude/settings.json start a server,
// `disabledMcpjsonServers` keeps it off in both. Where nothing is said they differ on purpose: Claude Code's
// headless mode starts an unmentioned project server without asking; Fanout skips it and says so.
// Claude Code is the differential kit's (test/differential/claude-code.ts): the pinned npm package; the test
// skips with the reason where it is not installed.
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { claudeCode, runClaudeCode } from '../differential/claude-code'
import { ensureCliBundle, runCli } from '../support/cli'
import { STDIO_SERVER_SCRIPT } from '../../src/main/runtime/mcp/testing/servers'
import { reply, startScriptedServer, type ScriptedServer } from '../../src/main/runtime/model/scripted'

const claude = claudeCode()

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
  const server = (name: string, pids: string) => ({
    command: process.execPath,
    args: [STDIO_SERVER_SCRIPT, '--label', name, '--pid-file', join(pids, `${name}.pid`)]
  })
  const setUp = (pids: string, home: string) => {
    mkdirSync(pids, { recursive: true })
    mkdirSync(join(home, '.claude'), { recursive: true })
    mkdirSync(join(home, 'tmp'), { recursive: true })
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
      writeFileSync(
        join(copy, '.mcp.json'),
        JSON.stringify({ mcpServers: { alpha: server('alpha', pids), beta: server('beta', pids), gamma: server('gamma', pids) } })
      )
      if (localSettings) writeFileSync(join(copy, '.claude', 'settings.local.json'), JSON.stringify(localSettings))
      return { cwd: copy, home, started: () => ['alpha', 'beta', 'gamma'].filter((n) => existsSync(join(pids, `${n}.pid`))) }
    }
  }
}

async function runClaude(cwd: string, home: string, url: string): Promise<number | null> {
  return (await runClaudeCode({ cwd, home, baseUrl: url, args: ['-p', 'hi', '--output-format', 'json'] })).code
}

describe.skipIf(!claude.path)(
  `differential: which .mcp.json servers start, Claude Code -p against fanout run${claude.skip ? ` (skipped: ${claude.skip})` : ''}`,
  () => {
    it.each([
      [
        'enabledMcpjsonServers in the user settings, disabledMcpjsonServers in the local settings',
        { enabledMcpjsonServers: ['alpha'] },
        { disabledMcpjsonServers: ['beta'] },
        ['alpha']
      ],
      [
        'enableAllProjectMcpServers in the user settings, one server disabled there',
        { enableAllProjectMcpServers: true, disabledMcpjsonServers: ['gamma'] },
        undefined,
        ['alpha', 'beta']
      ]
    ])(
      '%s',
      async (_name, user, local, approved) => {
        model = await startScriptedServer({ respond: () => reply.text('ok') })
        const f = folder(user, local)
        const cc = f.forProgram('claude')
        expect(await runClaude(cc.cwd, cc.home, model.url)).toBe(0)
        const fo = f.forProgram('fanout')
        const r = await runCli(['run', '-p', 'hi', '--cwd', fo.cwd], {
          env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: model.url, FANOUT_DATA_DIR: join(f.root, 'data'), HOME: fo.home }
        })
        expect(r.code).toBe(0)
        const unmentioned = ['alpha', 'beta', 'gamma'].filter((n) => !approved.includes(n) && !JSON.stringify({ user, local }).includes(`"${n}"`))
        // Where the settings speak, the same servers start.
        expect(fo.started()).toEqual(approved)
        expect(cc.started().filter((n) => !unmentioned.includes(n))).toEqual(approved)
        // Where they are silent, Claude Code's headless mode starts the server; Fanout skips it and says how to allow it.
        expect(cc.started().filter((n) => unmentioned.includes(n))).toEqual(unmentioned)
        for (const n of unmentioned) expect(r.stderr).toContain(`MCP server "${n}" (.mcp.json)`)
      },
      180_000
    )
  }
)
