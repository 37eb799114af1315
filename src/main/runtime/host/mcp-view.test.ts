// The `mcp.list` call through the host and the contract: real MCP server processes, their states and tools.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONTRACT } from '../../../shared/ipc-contract'
import { dispatchCall } from '../../../shared/ipc-dispatch'
import { stdioServerEntry } from '../mcp/testing/servers'
import { reply, scriptByAgent, startScriptedServer } from '../model/scripted'
import { processGroupAlive } from '../tools/process-group'
import { tempProjectRoot, undoAfterEach } from '../tools/test-kit'
import { LocalRuntimeHost } from './runtime-host'
import { hostOptions } from '../../../../test/support/host'

const cleanup = undoAfterEach()

function project() {
  const { root: tmp, project: cwd } = tempProjectRoot('fanout-mcphost-', 'data')
  const dataDir = join(tmp, 'data')
  writeFileSync(
    join(cwd, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        notes: stdioServerEntry(['--pid-file', join(tmp, 'notes.pid')]),
        broken: stdioServerEntry(['--exit-on-start', '4']),
        quiet: stdioServerEntry()
      }
    })
  )
  writeFileSync(join(cwd, '.claude', 'settings.json'), JSON.stringify({ disabledMcpjsonServers: ['quiet'] }))
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ mcpServers: { fromSettings: stdioServerEntry(['--label', 'fanout']) } }))
  return { tmp, cwd, dataDir, home: join(tmp, 'home') }
}

/** The person approves the folder, as the app's dialog does: for the list they saw. */
async function approve(host: LocalRuntimeHost, cwd: string) {
  const { trust } = await host.handlers['trust.get']({ cwd })
  await host.handlers['trust.answer']({ cwd, decision: 'trust', hash: trust.hash })
}

describe('mcp.list', () => {
  it('never starts a project server the person has not approved for the folder: it is listed as waiting, with its command', async () => {
    const p = project()
    const host = new LocalRuntimeHost({ cwd: p.cwd, dataDir: p.dataDir, home: p.home, env: {} })
    cleanup.push(() => host.close())
    const result = await dispatchCall(host, 'mcp.list', { cwd: p.cwd })
    const value = CONTRACT['mcp.list'].response.parse(result.ok ? result.value : null)
    const byName = Object.fromEntries(value.servers.map((s) => [s.name, s]))
    expect(byName.fromSettings).toMatchObject({ scope: 'fanout', status: 'connected' })
    expect(byName.notes).toMatchObject({ scope: 'project', status: 'untrusted', tools: [], target: expect.stringContaining('stdio-server.mjs') })
    expect(byName.broken).toMatchObject({ status: 'untrusted' })
    expect(byName.quiet).toMatchObject({ status: 'disabled' })
    expect(existsSync(join(p.tmp, 'notes.pid'))).toBe(false)
    await approve(host, p.cwd)
    const after = await host.handlers['mcp.list']({ cwd: p.cwd })
    expect(after.servers.find((s) => s.name === 'notes')?.status).toBe('connected')
  })

  it('lists every server of the folder with its state, the reason a server failed and the tools of the ones that run; listing leaves nothing running', async () => {
    const p = project()
    const host = new LocalRuntimeHost({ cwd: p.cwd, dataDir: p.dataDir, home: p.home, env: {} })
    cleanup.push(() => host.close())
    await approve(host, p.cwd)
    const result = await dispatchCall(host, 'mcp.list', { cwd: p.cwd })
    expect(result.ok).toBe(true)
    const value = CONTRACT['mcp.list'].response.parse(result.ok ? result.value : null)
    expect(value.problems).toEqual([])
    const byName = Object.fromEntries(value.servers.map((s) => [s.name, s]))
    expect(Object.keys(byName)).toEqual(['fromSettings', 'notes', 'broken', 'quiet'])
    expect(byName.fromSettings).toMatchObject({ scope: 'fanout', status: 'connected', transport: 'stdio' })
    expect(byName.notes).toMatchObject({ scope: 'project', status: 'connected', file: join(p.cwd, '.mcp.json') })
    expect(byName.notes.tools.find((t) => t.tool === 'echo')).toEqual({
      name: 'mcp__notes__echo',
      tool: 'echo',
      description: 'Echoes the text back (stdio).',
      readOnly: true
    })
    expect(byName.broken).toMatchObject({
      status: 'failed',
      tools: [],
      error: expect.stringMatching(/^MCP server "broken" .* exited with code 4 before it was ready\.[\s\S]*db\.sqlite is missing/)
    })
    expect(byName.quiet).toMatchObject({ status: 'disabled', tools: [] })
    expect(processGroupAlive(Number(readFileSync(join(p.tmp, 'notes.pid'), 'utf8')))).toBe(false)
  })

  it("answers from a running session's own servers, which stay up for its agents", async () => {
    const p = project()
    const server = await startScriptedServer({ respond: scriptByAgent([{ match: () => true, turns: [reply.text('hi')] }]) })
    const host = new LocalRuntimeHost(hostOptions(p, server.url))
    cleanup.push(async () => {
      await host.close()
      await server.close()
    })
    await approve(host, p.cwd)
    await host.handlers['session.start']({ prompt: 'hello', cwd: p.cwd })
    const { servers } = await host.handlers['mcp.list']({ cwd: p.cwd })
    expect(servers.find((s) => s.name === 'notes')?.status).toBe('connected')
    const pid = Number(readFileSync(join(p.tmp, 'notes.pid'), 'utf8'))
    expect(processGroupAlive(pid)).toBe(true)
    // The request carried the settings server's tools too.
    await new Promise<void>((r) => {
      const poll = () => (server.requests.length ? r() : setTimeout(poll, 10))
      poll()
    })
    expect(server.requests[0].toolNames).toEqual(expect.arrayContaining(['mcp__notes__echo', 'mcp__fromSettings__echo']))
    await host.close()
    expect(processGroupAlive(pid)).toBe(false)
  })
})
