// One run path for every agent (run-agent-once.ts): the main agent and subagents open and close their own
// MCP servers the same way, whatever ends the run; and an agent's conversation and status are the fold of
// its events, so what its handle holds is exactly what its transcript says.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatMessage } from '../../../../shared/events'
import { stdioServerEntry } from '../../mcp/testing/servers'
import { reply, scriptByAgent } from '../../model/scripted'
import { readTranscript } from '../../store'
import { processGroupAlive } from '../../tools/process-group'
import { closeFixtures, makeFixture } from '../testing/session-fixture'
import { scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

const MAIN = 'lead agent in Fanout'

const archivist = (pidFile: string, tools = 'Read') =>
  `---\nname: archivist\ndescription: Keeps the vault\ntools: ${tools}\nmcpServers:\n  - vault:\n      command: ${JSON.stringify(process.execPath)}\n      args: ${JSON.stringify([...stdioServerEntry().args, '--pid-file', pidFile])}\n---\nYou are the archivist.`

describe('one run path', () => {
  it('the main agent running as a definition with its own MCP server closes it after the run, like a subagent does', async () => {
    const f = await makeFixture(
      { respond: scriptByAgent([{ match: 'You are the archivist', turns: [reply.toolUse('mcp__vault__whereami', {}), reply.text('found it')] }]) },
      { trustProject: true, permissionMode: 'bypassPermissions', files: { '.claude/agents/archivist.md': archivist('main.pid') } }
    )
    await f.session.reload()
    const result = await f.session.run('Where is the vault?', { agentType: 'archivist' })
    expect(result.status).toBe('completed')
    const pid = Number(readFileSync(join(f.cwd, 'main.pid'), 'utf8'))
    expect(processGroupAlive(pid)).toBe(false)
  })

  it('a main-agent run that fails before the loop starts still closes the servers it opened', async () => {
    // `tools: NoSuchTool` resolves to nothing: the run throws after its MCP server started.
    const f = await makeFixture(
      { respond: scriptByAgent([]) },
      { trustProject: true, permissionMode: 'bypassPermissions', files: { '.claude/agents/archivist.md': archivist('broken.pid', 'NoSuchTool') } }
    )
    await f.session.reload()
    await expect(f.session.run('go', { agentType: 'archivist' })).rejects.toThrow(/NoSuchTool/)
    const file = join(f.cwd, 'broken.pid')
    expect(existsSync(file)).toBe(true)
    expect(processGroupAlive(Number(readFileSync(file, 'utf8')))).toBe(false)
    expect(f.model.server.messageRequests()).toHaveLength(0)
  })

  it("every agent's conversation and status are the fold of its events: the handle holds what its transcript holds", async () => {
    const f = await makeFixture(
      [
        {
          name: 'child',
          match: 'Count the notes',
          turns: [reply.toolUse('Read', { file_path: 'notes.md' }), reply.text('Two notes.')],
          then: (req) => reply.text(`Also: ${req.lastUserText.slice(-20)}`)
        },
        scriptedAgent(
          'main',
          MAIN,
          [reply.toolUse('Agent', { description: 'Count notes', prompt: 'Count the notes', name: 'counter' }), reply.text('The child counted two.')],
          (req) =>
            req.toolResults.length
              ? reply.text('Sent it.')
              : req.lastUserText.includes('task-notification')
                ? reply.text('Noted the follow-up.')
                : reply.toolUse('SendMessage', { to: 'counter', message: 'and the title?' })
        )
      ],
      { permissionMode: 'bypassPermissions', files: { 'notes.md': '# Notes\n- one\n- two\n' } }
    )
    await f.session.run('How many notes?')
    await f.session.run('Ask it about the title too.')
    await f.session.idle()
    await f.session.flush()
    const agents = f.session.registry.all()
    expect(agents).toHaveLength(2)
    for (const handle of agents) {
      const { events } = await readTranscript(join(f.dataDir, 'sessions', f.session.sessionId, 'agents', `${handle.id}.jsonl`))
      const fromEvents: ChatMessage[] = events.flatMap((e) => (e.type === 'message' ? [e.message] : []))
      expect(handle.messages).toEqual(fromEvents)
      const last = [...events].reverse().find((e) => e.type === 'agent_end' || e.type === 'status' || e.type === 'agent_start')
      expect(last?.type).toBe('agent_end')
      expect(handle.status).toBe(last?.type === 'agent_end' ? last.status : undefined)
    }
    const child = agents.find((a) => a.name === 'counter')!
    // The child ran twice (its task, then the message); both runs are in its one conversation.
    expect(child.messages.filter((m) => m.role === 'assistant')).toHaveLength(3)
  })
})
