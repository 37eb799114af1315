// Where MCP servers come from and which one wins, as Claude Code reads them.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSettingsFiles } from '../hooks/settings-files'
import { loadMcpConfig } from './load-config'

function dirs() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-mcpcfg-')))
  const home = join(root, 'home')
  const outer = join(root, 'work')
  const cwd = join(outer, 'project')
  mkdirSync(home, { recursive: true })
  mkdirSync(join(cwd, '.claude'), { recursive: true })
  const json = (path: string, value: unknown) => writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value))
  return { root, home, outer, cwd, json }
}

describe('loadMcpConfig', () => {
  it('merges Fanout settings, ~/.claude.json, .mcp.json up the tree and the folder-local entry; the most specific wins', () => {
    const { home, outer, cwd, json } = dirs()
    json(join(home, '.claude.json'), {
      mcpServers: { shared: { command: 'user-shared' }, useronly: { command: 'user-only' } },
      projects: { [cwd]: { mcpServers: { shared: { command: 'local-shared' } } } }
    })
    json(join(outer, '.mcp.json'), { mcpServers: { parent: { command: 'from-parent' }, proj: { command: 'outer-proj' } } })
    json(join(cwd, '.mcp.json'), { mcpServers: { proj: { type: 'http', url: 'http://localhost:9/mcp' } } })
    const config = loadMcpConfig({ cwd, home, fanoutServers: { fan: { command: 'fanout-server' }, useronly: { command: 'overridden' } }, env: {} })
    expect(config.problems).toEqual([])
    const byName = Object.fromEntries(config.servers.map((s) => [s.name, s]))
    expect(byName.fan).toMatchObject({ scope: 'fanout', config: { type: 'stdio', command: 'fanout-server' } })
    expect(byName.useronly).toMatchObject({ scope: 'user', config: { command: 'user-only' } })
    expect(byName.parent).toMatchObject({ scope: 'project', file: join(outer, '.mcp.json') })
    expect(byName.proj).toMatchObject({ scope: 'project', file: join(cwd, '.mcp.json'), config: { type: 'http', url: 'http://localhost:9/mcp' } })
    expect(byName.shared).toMatchObject({ scope: 'local', config: { command: 'local-shared' } })
  })

  it('keeps servers switched off in settings, marked disabled, and reports broken files and entries without losing the rest', () => {
    const { home, cwd, json } = dirs()
    json(join(cwd, '.mcp.json'), { mcpServers: { off: { command: 'x' }, on: { command: 'y' }, bad: { command: 42 } } })
    json(join(cwd, '.claude', 'settings.local.json'), { disabledMcpjsonServers: ['off'] })
    json(join(home, '.claude.json'), '{ not json')
    const settings = readSettingsFiles({ cwd, home, managedFile: null })
    const config = loadMcpConfig({ cwd, home, settingsFiles: settings.files, env: {} })
    expect(config.problems).toEqual([expect.stringMatching(/\.claude\.json is not valid JSON \(line 1, column \d+\); its MCP servers are not loaded$/)])
    expect(config.servers.find((s) => s.name === 'off')).toMatchObject({ disabled: true })
    expect(config.servers.find((s) => s.name === 'on')?.disabled).toBeUndefined()
    expect(config.servers.find((s) => s.name === 'bad')).toMatchObject({
      error: `MCP server "bad" in ${join(cwd, '.mcp.json')}: command must be a command (a string)`
    })
  })
})
