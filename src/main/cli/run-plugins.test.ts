// `fanout run` with plugins, as a real process: a plugin the project enables brings a hook and an MCP server that
// wait for the folder's approval (said on stderr with how to approve), `fanout trust` lists them, and once
// `fanout trust allow` approves the folder both run; a --plugin-dir plugin is the person's own and runs at once.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, useCliServers } from '../../../test/support/cli'
import { hookCommand, readHookLog } from '../runtime/hooks/testing/fixture'
import { stdioServerEntry } from '../runtime/mcp/testing/servers'
import { reply, scriptByAgent, type ScriptedServer } from '../runtime/model/scripted'

let server: ScriptedServer
const serve = useCliServers()

function pluginProject() {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-run-plugins-')))
  const project = join(tmp, 'project')
  const log = join(tmp, 'hooks.log')
  const files: Record<string, string> = {
    'project/.claude/settings.json': JSON.stringify({
      enabledPlugins: { 'kit@acme': true },
      extraKnownMarketplaces: { acme: { source: { source: 'directory', path: './market' } } }
    }),
    'project/market/.claude-plugin/marketplace.json': JSON.stringify({ name: 'acme', plugins: [{ name: 'kit', source: './kit' }] }),
    'project/market/kit/.claude-plugin/plugin.json': JSON.stringify({ name: 'kit' }),
    'project/market/kit/hooks/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: hookCommand(tmp, log) }] }] } }),
    'project/market/kit/.mcp.json': JSON.stringify({ mcpServers: { notes: stdioServerEntry(['--label', 'kit']) } }),
    'home/.claude/settings.json': JSON.stringify({ permissions: { allow: ['mcp__plugin_kit_notes__echo'] } })
  }
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tmp, rel)), { recursive: true })
    writeFileSync(join(tmp, rel), text)
  }
  const env = (url: string) => ({
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_AUTH_TOKEN: '',
    ANTHROPIC_BASE_URL: url,
    FANOUT_DATA_DIR: join(tmp, 'data'),
    HOME: join(tmp, 'home')
  })
  return { tmp, project, log, env }
}

const echoScript = () =>
  scriptByAgent([
    {
      match: 'lead agent in Fanout',
      turns: [
        (req) => (req.toolNames.includes('mcp__plugin_kit_notes__echo') ? reply.toolUse('mcp__plugin_kit_notes__echo', { text: 'x' }) : reply.text('no tool')),
        (req) => reply.text(req.toolResults[0].content)
      ]
    }
  ])

/** The run said nothing on stderr, the kit's server answered the echo, and its hook ran once. */
function expectKitRan(r: { stdout: string; stderr: string }, hookLog: string): void {
  expect(r.stderr).toBe('')
  expect(JSON.parse(r.stdout)).toMatchObject({ result: 'kit echo: x' })
  expect(readHookLog(hookLog)).toHaveLength(1)
}

describe('fanout run with plugins', () => {
  it("a project's plugin waits for the folder's approval; `fanout trust allow` lets its hook and server run", async () => {
    const p = pluginProject()
    server = await serve({ respond: echoScript() })
    const before = await runCli(['run', '-p', 'Echo.', '--cwd', p.project, '--output-format', 'json'], { env: p.env(server.url) })
    expect(JSON.parse(before.stdout)).toMatchObject({ result: 'no tool' })
    expect(before.stderr).toMatch(/wait(s)? for your approval/)
    expect(before.stderr).toContain('plugin:kit:notes')
    expect(readHookLog(p.log)).toHaveLength(0)

    const show = await runCli(['trust', '--cwd', p.project], { env: p.env('http://127.0.0.1:9') })
    expect(show.stdout).toMatch(/\[waiting\] MCP server "plugin:kit:notes"/)
    expect(show.stdout).toMatch(/\[waiting\] Hook "PreToolUse"/)
    expect((await runCli(['trust', 'allow', '--cwd', p.project], { env: p.env('http://127.0.0.1:9') })).code).toBe(0)

    const after = await runCli(['run', '-p', 'Echo.', '--cwd', p.project, '--output-format', 'json'], { env: p.env(server.url) })
    expectKitRan(after, p.log)
  })

  it('a --plugin-dir plugin is the person’s own: its hook and server run without asking', async () => {
    const p = pluginProject()
    writeFileSync(join(p.project, '.claude', 'settings.json'), '{}')
    server = await serve({ respond: echoScript() })
    const r = await runCli(['-p', 'Echo.', '--output-format', 'json', '--plugin-dir', 'market/kit'], { cwd: p.project, env: p.env(server.url) })
    expectKitRan(r, p.log)
  })

  it("a plugin's command runs as /plugin:name, and a connected server's prompt as /mcp__server__prompt", async () => {
    const p = pluginProject()
    writeFileSync(join(p.project, '.claude', 'settings.json'), '{}')
    mkdirSync(join(p.project, 'market/kit/commands'), { recursive: true })
    writeFileSync(join(p.project, 'market/kit/commands/hello.md'), '---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS from the kit.\n')
    server = await serve({ respond: () => reply.text('ok') })
    const kit = await runCli(['-p', '/kit:hello Ada', '--output-format', 'json', '--plugin-dir', 'market/kit'], { cwd: p.project, env: p.env(server.url) })
    expect(kit.code).toBe(0)
    expect(server.requests[0].firstUserText).toContain('<command-name>/kit:hello</command-name>')
    expect(server.requests[0].firstUserText).toContain('Say hello to Ada from the kit.')

    writeFileSync(join(p.project, '.mcp.json'), JSON.stringify({ mcpServers: { docs: stdioServerEntry(['--label', 'docs', '--resources']) } }))
    const mcp = await runCli(['-p', '/mcp__docs__greet Grace', '--output-format', 'json', '--strict-mcp-config', '--mcp-config', '.mcp.json'], {
      cwd: p.project,
      env: p.env(server.url)
    })
    expect(mcp.code).toBe(0)
    const sent = server.requests.at(-1)!.firstUserText
    expect(sent).toContain('<command-name>/mcp__docs__greet</command-name>')
    expect(sent).toContain('PROMPT-GREET: say hello to Grace from docs')

    const missing = await runCli(['-p', '/mcp__docs__greet', '--output-format', 'json', '--strict-mcp-config', '--mcp-config', '.mcp.json'], {
      cwd: p.project,
      env: p.env(server.url)
    })
    expect(JSON.parse(missing.stdout).result).toBe('Missing required argument: name. Usage: /mcp__docs__greet name')
  })
})
