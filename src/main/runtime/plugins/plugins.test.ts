// The plugin loader on real folders: where each enabled plugin is found (command line, installed_plugins.json,
// marketplaces), what it contributes (agents and skills folders, hooks with CLAUDE_PLUGIN_ROOT, servers named
// plugin:<plugin>:<server>, command folders), whether the folder brought it, and manifest errors at file:line:col.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadPlugins, pluginCommandDirs } from '.'

function tree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-plugins-')))
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true })
    writeFileSync(join(root, rel), text)
  }
  mkdirSync(join(root, 'project'), { recursive: true })
  mkdirSync(join(root, 'home'), { recursive: true })
  return root
}

const load = (root: string, pluginDirs?: string[]) =>
  loadPlugins({ cwd: join(root, 'project'), home: join(root, 'home'), managedFile: null, ...(pluginDirs ? { pluginDirs } : {}) })

describe('finding plugins', () => {
  it('reads a --plugin-dir plugin: its folders, hooks with CLAUDE_PLUGIN_ROOT, servers and commands', () => {
    const root = tree({
      'p/.claude-plugin/plugin.json': JSON.stringify({ name: 'kit', commands: ['./extra/one.md'] }),
      'p/hooks/hooks.json': JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/h.sh' }] }] }
      }),
      'p/.mcp.json': JSON.stringify({ mcpServers: { docs: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/s.js'] } } }),
      'p/commands/hello.md': 'Hello',
      'p/extra/one.md': 'One'
    })
    const p = load(root, [join(root, 'p')])
    expect(p.problems).toEqual([])
    expect(p.pluginDirs).toEqual([{ name: 'kit', dir: join(root, 'p') }])
    expect(p.hookFiles).toHaveLength(1)
    expect(p.hookFiles[0].source).toBe('user')
    const command = (p.hookFiles[0].json.hooks as any).PreToolUse[0].hooks[0].command as string
    expect(command).toContain(`CLAUDE_PLUGIN_ROOT='${join(root, 'p')}'`)
    expect(command.endsWith(`; ${join(root, 'p')}/h.sh`)).toBe(true)
    expect(p.servers).toEqual([
      { name: 'plugin:kit:docs', raw: { command: 'node', args: [`${join(root, 'p')}/s.js`] }, file: join(root, 'p/.mcp.json'), folderBrought: false }
    ])
    expect(pluginCommandDirs(p)).toEqual([
      { dir: join(root, 'p/commands'), namespace: 'kit' },
      { dir: join(root, 'p/extra'), namespace: 'kit', file: join(root, 'p/extra/one.md') }
    ])
  })

  it('resolves enabledPlugins through installed_plugins.json (version 2) as the person’s own', () => {
    const root = tree({ 'cache/kit/.claude-plugin/plugin.json': JSON.stringify({ name: 'kit' }), 'cache/kit/agents/a.md': '' })
    mkdirSync(join(root, 'home/.claude/plugins'), { recursive: true })
    writeFileSync(join(root, 'home/.claude/settings.json'), JSON.stringify({ enabledPlugins: { 'kit@acme': true, 'off@acme': false } }))
    writeFileSync(
      join(root, 'home/.claude/plugins/installed_plugins.json'),
      JSON.stringify({ version: 2, plugins: { 'kit@acme': [{ scope: 'user', installPath: join(root, 'cache/kit') }] } })
    )
    const p = load(root)
    expect(p.plugins.map((x) => [x.name, x.folderBrought, x.dataDir.endsWith('kit-acme')])).toEqual([['kit', false, true]])
  })

  it('says why an enabled plugin is not loaded: unknown marketplace, missing from its list, remote source', () => {
    const root = tree({
      'project/market/.claude-plugin/marketplace.json': JSON.stringify({ name: 'm', plugins: [{ name: 'far', source: { source: 'github', repo: 'a/b' } }] })
    })
    mkdirSync(join(root, 'project/.claude'), { recursive: true })
    writeFileSync(
      join(root, 'project/.claude/settings.json'),
      JSON.stringify({
        enabledPlugins: { 'x@nowhere': true, 'ghost@m': true, 'far@m': true },
        extraKnownMarketplaces: { m: { source: { source: 'directory', path: './market' } } }
      })
    )
    const p = load(root)
    expect(p.plugins).toEqual([])
    expect(p.problems.join('\n')).toMatch(/plugin x@nowhere is enabled but not installed, and no marketplace "nowhere" is known here/)
    expect(p.problems.join('\n')).toMatch(/marketplace m lists no plugin named "ghost"/)
    expect(p.problems.join('\n')).toMatch(/plugin far@m comes from a remote source, and Fanout does not fetch plugins/)
  })

  it('a plugin the project enables is the folder’s: its hooks are of the project level', () => {
    const root = tree({
      'project/market/.claude-plugin/marketplace.json': JSON.stringify({ name: 'm', plugins: [{ name: 'lint', source: './lint' }] }),
      'project/market/lint/hooks/hooks.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } })
    })
    mkdirSync(join(root, 'project/.claude'), { recursive: true })
    writeFileSync(
      join(root, 'project/.claude/settings.json'),
      JSON.stringify({ enabledPlugins: { 'lint@m': true }, extraKnownMarketplaces: { m: { source: { source: 'directory', path: './market' } } } })
    )
    const p = load(root)
    expect(p.plugins.map((x) => [x.name, x.folderBrought])).toEqual([['lint', true]])
    expect(p.hookFiles.map((f) => f.source)).toEqual(['project'])
  })
})

describe('manifest errors', () => {
  it.each([
    ['not JSON', '{\n  "name": "kit",\n  oops\n}', /plugin\.json:3:\d+: not valid JSON/],
    ['a name with spaces', '{\n  "version": "1",\n  "name": "my kit"\n}', /plugin\.json:3:3: "name" must be kebab-case/],
    ['no name', '{\n  "version": "1"\n}', /plugin\.json:1:1: "name" is required/],
    ['keywords not a list', '{ "name": "kit",\n"keywords": "a" }', /plugin\.json:2:1: "keywords" must be a list of strings/]
  ])('%s: file:line:col and the plugin is not loaded', (_what, text, error) => {
    const root = tree({ 'p/.claude-plugin/plugin.json': text })
    const p = load(root, [join(root, 'p')])
    expect(p.plugins).toEqual([])
    expect(p.problems).toHaveLength(1)
    expect(p.problems[0]).toMatch(error)
    expect(p.problems[0]).toContain(join(root, 'p/.claude-plugin/plugin.json'))
  })
})

describe('the agent editor sees the plugins a session loads', () => {
  it("lists a settings-enabled plugin's agent, read-only, under its plugin name", async () => {
    const { AgentEditorService } = await import('../agent-editor/editor-service')
    const root = tree({
      'project/market/.claude-plugin/marketplace.json': JSON.stringify({ name: 'm', plugins: [{ name: 'lint', source: './lint' }] }),
      'project/market/lint/agents/checker.md': '---\nname: checker\ndescription: Checks.\n---\nCheck.\n',
      'project/.claude/settings.json': JSON.stringify({
        enabledPlugins: { 'lint@m': true },
        extraKnownMarketplaces: { m: { source: { source: 'directory', path: './market' } } }
      })
    })
    const service = new AgentEditorService({ home: join(root, 'home') })
    const lib = await service.library({ cwd: join(root, 'project') })
    expect(lib.listing).toContain('- lint:checker: Checks.')
    const entry = lib.entries.find((e) => e.file === join(root, 'project/market/lint/agents/checker.md'))
    expect(entry).toMatchObject({ source: 'plugin' })
    service.close()
  })
})
