// MCP servers in a session, end to end: the suite's MCP servers as real processes, the real SDK client, and
// agents driven by the scripted model server over the real Anthropic SDK.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ErrorEvent, ToolEndEvent } from '../../../shared/events'
import { relayFirstLine, reply, scriptByAgent, scriptLead } from '../model/scripted'
import { closeFixtures, ends, makeFixture as fixture, starts } from '../orchestration/testing/session-fixture'
import { spawnAllThenDone } from '../orchestration/testing/scripted-agents'

// What a folder's own hooks and servers do once the person has approved the folder (trust/ keeps them out until then).
const makeFixture: typeof fixture = (server, opts = {}) => fixture(server, { trustProject: true, ...opts })
import { processGroupAlive } from '../tools/process-group'
import { startHttpTestServer, stdioServerEntry, stopHttpTestServers, testServerTools } from './testing/servers'

afterEach(async () => {
  await closeFixtures()
  await stopHttpTestServers()
})

const MAIN = 'lead agent in Fanout'
const errors = (events: AgentEvent[]) => events.filter((e): e is ErrorEvent => e.type === 'error')
const toolEnd = (events: AgentEvent[], name: string) => events.find((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)
const mcpJson = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers })

describe('MCP servers in a session', () => {
  it('.mcp.json servers give the main agent mcp__server__tool tools; one a rule allows runs, the others (readOnlyHint or not) go through the permission gate', async () => {
    const f = await makeFixture(
      {
        respond: scriptLead(
          reply.toolUses([
            { name: 'mcp__notes__echo', input: { text: 'hello' } },
            { name: 'mcp__notes__add', input: { a: 2, b: 40 } },
            { name: 'mcp__notes__whereami', input: {} }
          ]),
          (req) => reply.text(req.toolResults.map((r) => r.content).join(' | '))
        )
      },
      {
        headless: true,
        files: {
          '.mcp.json': mcpJson({ notes: stdioServerEntry(['--label', 'notes']) }),
          '.claude/settings.json': JSON.stringify({ permissions: { allow: ['mcp__notes__echo'] } })
        }
      }
    )
    const result = await f.session.run('Use the notes server.')
    expect(result.status).toBe('completed')
    const req = f.model.server.requests[0]
    expect(req.toolNames).toEqual(expect.arrayContaining(['Read', 'Bash', 'Agent', 'mcp__notes__echo', 'mcp__notes__add', 'mcp__notes__picture']))
    expect(req.tools.find((t) => t.name === 'mcp__notes__add')?.input_schema).toMatchObject({ type: 'object', required: ['a', 'b'] })
    // A rule allows echo, so even a headless run runs it; add and whereami need approval nobody can give here,
    // whereami although its server calls it read-only (readOnlyHint is the server's claim, not a grant).
    expect(result.result).toMatch(/^notes echo: hello \| mcp__notes__add needs approval and this run is headless, so it was denied/)
    expect(result.result).toMatch(/\| mcp__notes__whereami needs approval and this run is headless, so it was denied/)
  })

  it('a server that fails to start is an error event naming it and why; the agent keeps every other tool', async () => {
    const f = await makeFixture(
      {
        respond: scriptLead(reply.toolUse('mcp__good__echo', { text: 'still here' }), (req) => reply.text(req.toolResults[0].content))
      },
      {
        permissionMode: 'bypassPermissions',
        files: {
          '.mcp.json': mcpJson({
            broken: stdioServerEntry(['--exit-on-start', '3']),
            ghost: { command: 'fanout-no-such-server' },
            good: stdioServerEntry(['--label', 'good'])
          })
        }
      }
    )
    const result = await f.session.run('go')
    expect(result.result).toBe('good echo: still here')
    const messages = errors(f.events).map((e) => e.message)
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^MCP server "broken" \(.*\) exited with code 3 before it was ready\.\nLast lines of its stderr:\ntest server: starting up\nfatal: the database at \/nowhere\/db\.sqlite is missing Its tools are not available; the other tools work as usual\.$/
        ),
        'MCP server "ghost" could not start: command not found: fanout-no-such-server. Its tools are not available; the other tools work as usual.'
      ])
    )
    expect(errors(f.events).every((e) => e.agentId === f.session.mainAgentId && !e.retrying)).toBe(true)
    const names = f.model.server.requests[0].toolNames
    expect(names).toEqual(expect.arrayContaining(['Read', 'Write', 'Bash', 'Agent', 'mcp__good__echo']))
    expect(names.some((n) => n.startsWith('mcp__broken') || n.startsWith('mcp__ghost'))).toBe(false)
  })

  it("a definition's inline server runs for that agent only, is closed when it ends, and disallowedTools removes its tools", async () => {
    const pidFile = 'inline.pid'
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          {
            match: 'You are the archivist',
            turns: [reply.toolUse('mcp__vault__whereami', {}), (req) => reply.text(`vault says ${req.toolResults[0].content}`)]
          },
          {
            match: MAIN,
            turns: [reply.toolUse('Agent', { description: 'Ask the vault', prompt: 'Where is the vault?', subagent_type: 'archivist' }), relayFirstLine]
          }
        ])
      },
      {
        permissionMode: 'bypassPermissions',
        files: {
          '.claude/agents/archivist.md': `---\nname: archivist\ndescription: Keeps the vault\ntools: Read\ndisallowedTools: mcp__vault__fail\nmcpServers:\n  - vault:\n      command: ${JSON.stringify(process.execPath)}\n      args: ${JSON.stringify([...stdioServerEntry().args, '--pid-file', pidFile])}\n      env: { MCP_TEST_VAR: inline }\n---\nYou are the archivist.`
        }
      }
    )
    const result = await f.session.run('go')
    expect(result.status).toBe('completed')
    expect(JSON.parse(result.result.replace(/^vault says /, ''))).toMatchObject({ cwd: f.cwd, testVar: 'inline' })
    const mainReq = f.model.server.requests.find((r) => r.system.includes(MAIN))!
    expect(mainReq.toolNames.some((n) => n.startsWith('mcp__vault'))).toBe(false)
    const childReq = f.model.server.requests.find((r) => r.system.includes('You are the archivist'))!
    // Its own server's tools come on top of `tools: Read` (as in Claude Code); disallowedTools still removes one.
    expect([...childReq.toolNames].sort()).toEqual(['Read', ...testServerTools('vault', ['fail'])])
    const child = starts(f.events).find((e) => e.agentType === 'archivist')!
    expect(child.tools).toContain('mcp__vault__whereami')
    // The run ended, so its server process is gone.
    const pid = Number(readFileSync(join(f.cwd, pidFile), 'utf8'))
    expect(processGroupAlive(pid)).toBe(false)
  })

  it('an inline server that cannot start is an error on that agent, which still runs with its other tools', async () => {
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          {
            match: 'You are the reader',
            turns: [
              reply.toolUse('Read', { file_path: 'notes.txt' }),
              (req) => reply.text(req.toolResults[0].content.includes('remember the milk') ? 'read it' : 'could not read')
            ]
          },
          {
            match: MAIN,
            turns: [reply.toolUse('Agent', { description: 'Read notes', prompt: 'Read the notes.', subagent_type: 'reader' }), relayFirstLine]
          }
        ])
      },
      {
        permissionMode: 'bypassPermissions',
        files: {
          'notes.txt': 'remember the milk\n',
          '.claude/agents/reader.md': `---\nname: reader\ndescription: Reads notes\ntools: Read, mcp__lost__*\nmcpServers:\n  - lost: { command: fanout-no-such-server }\n---\nYou are the reader.`
        }
      }
    )
    const result = await f.session.run('go')
    expect(result.result).toBe('read it')
    const child = starts(f.events).find((e) => e.agentType === 'reader')!
    expect(child.tools).toEqual(['Read'])
    expect(
      errors(f.events)
        .filter((e) => e.agentId === child.agentId)
        .map((e) => e.message)
    ).toEqual([
      'MCP server "lost" could not start: command not found: fanout-no-such-server. Agent reader declares this server; its tools are not available, the other tools work as usual.'
    ])
    expect(ends(f.events).find((e) => e.agentId === child.agentId)?.status).toBe('completed')
  })

  it('tools and disallowedTools select among the session servers with mcp__server__* and exact names; a listed server that failed is reported on the agent', async () => {
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are picky', turns: [reply.text('ok')] },
          { match: 'You are narrow', turns: [reply.text('ok')] },
          {
            match: MAIN,
            turns: spawnAllThenDone([
              { description: 'picky', prompt: 'p', subagent_type: 'picky' },
              { description: 'narrow', prompt: 'n', subagent_type: 'narrow' }
            ])
          }
        ])
      },
      {
        permissionMode: 'bypassPermissions',
        files: {
          '.mcp.json': mcpJson({
            alpha: stdioServerEntry(['--label', 'a']),
            beta: stdioServerEntry(['--label', 'b']),
            down: stdioServerEntry(['--exit-on-start', '1'])
          }),
          '.claude/agents/picky.md':
            '---\nname: picky\ndescription: p\ntools: Read, mcp__alpha__*, mcp__down__*\ndisallowedTools: mcp__alpha__fail\n---\nYou are picky.',
          '.claude/agents/narrow.md': '---\nname: narrow\ndescription: n\ntools: mcp__beta__echo\n---\nYou are narrow.'
        }
      }
    )
    await f.session.run('go')
    const picky = f.model.server.requests.find((r) => r.system.includes('You are picky'))!
    expect([...picky.toolNames].sort()).toEqual(['Read', ...testServerTools('alpha', ['fail'])])
    const narrow = f.model.server.requests.find((r) => r.system.includes('You are narrow'))!
    expect(narrow.toolNames).toEqual(['mcp__beta__echo'])
    const pickyId = starts(f.events).find((e) => e.agentType === 'picky')!.agentId
    expect(
      errors(f.events)
        .filter((e) => e.agentId === pickyId)
        .map((e) => e.message)
    ).toEqual([expect.stringMatching(/^Agent picky lists mcp__down__\* in its tools, but MCP server "down" .* exited with code 1 before it was ready\./)])
  })

  it('servers from Fanout settings over streamable HTTP, a named reference from a definition, and closing the session ends the stdio servers', async () => {
    const http = await startHttpTestServer(['--label', 'remote'])
    const pidFile = 'session.pid'
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the courier', turns: [reply.toolUse('mcp__remote__echo', { text: 'parcel' }), (req) => reply.text(req.toolResults[0].content)] },
          {
            match: MAIN,
            turns: [
              reply.toolUse('mcp__local__echo', { text: 'ping' }),
              reply.toolUse('Agent', { description: 'Deliver', prompt: 'Deliver the parcel.', subagent_type: 'courier' }),
              relayFirstLine
            ]
          }
        ])
      },
      {
        permissionMode: 'bypassPermissions',
        mcpServers: { remote: { type: 'http', url: http.url }, local: stdioServerEntry(['--pid-file', pidFile]) },
        files: { '.claude/agents/courier.md': '---\nname: courier\ndescription: Delivers\ntools: Read\nmcpServers: [remote]\n---\nYou are the courier.' }
      }
    )
    const result = await f.session.run('go')
    expect(result.result).toBe('remote echo: parcel')
    expect(toolEnd(f.events, 'mcp__local__echo')?.output).toBe('stdio echo: ping')
    const status = f.session.extensions.mcp.status()
    expect(status.map((s) => [s.name, s.status, s.transport, s.tools.length])).toEqual([
      ['remote', 'connected', 'http', 6],
      ['local', 'connected', 'stdio', 6]
    ])
    const pid = Number(readFileSync(join(f.cwd, pidFile), 'utf8'))
    expect(processGroupAlive(pid)).toBe(true)
    await f.session.close()
    expect(processGroupAlive(pid)).toBe(false)
    expect(existsSync(join(f.cwd, pidFile))).toBe(true)
  })
})
