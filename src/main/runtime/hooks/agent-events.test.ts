// The hook events Claude Code has for agents beyond tool calls, end to end with real hook commands: Stop,
// PostToolUseFailure, Notification (permission_prompt, agent_needs_input, agent_completed), TeammateIdle,
// TaskCompleted, and WorktreeCreate/WorktreeRemove replacing git worktrees. Each gets Claude Code's input.
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ToolEndEvent } from '../../../shared/events'
import { reply, scriptByAgent, scriptLead, type ParsedRequest } from '../model/scripted'
// The folder's hooks run once it is trusted (trust/): each fixture is a folder the person approved.
import { closeFixtures, makeFixture, starts } from '../orchestration/testing/session-fixture'
import { makeTempRepo, type TempRepo } from '../worktrees/testing/temp-repo'
import { hookCommand, hooksSettings, readHookLog, type HookBehaviour } from './testing/fixture'

const repos: TempRepo[] = []
afterEach(async () => {
  await closeFixtures()
  for (const r of repos.splice(0)) r.cleanup()
})

const MAIN = 'lead agent in Fanout'
const toolEnds = (events: AgentEvent[], name: string) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)
const agentFile = (name: string, extra = '') => `---\nname: ${name}\ndescription: The ${name} agent\n${extra}---\nYou are the ${name}.`

function hookDir() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-hook-events-')))
  const log = join(dir, 'hooks.log')
  return {
    dir,
    log,
    cmd: (b: HookBehaviour = {}) => hookCommand(dir, log, b),
    events: (name: string) =>
      readHookLog(log)
        .filter((l) => l.input.hook_event_name === name)
        .map((l) => l.input)
  }
}

describe('Stop and PostToolUseFailure', () => {
  it('a Stop hook that exits 2 keeps the main agent going with its reason; the next Stop says stop_hook_active', async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptLead(reply.text('first answer'), (req) => reply.text(req.lastUserText.includes('run the tests first') ? 'tested, done' : 'ignored'))
      },
      {
        trustProject: true,
        files: {
          '.claude/settings.json': JSON.stringify(hooksSettings([{ event: 'Stop', command: h.cmd({ times: 1, stderr: 'run the tests first', exit: 2 }) }]))
        }
      }
    )
    const result = await f.session.run('go')
    expect(result.result).toBe('tested, done')
    const stops = h.events('Stop')
    expect(stops.map((s) => [s.stop_hook_active, s.last_assistant_message])).toEqual([
      [false, 'first answer'],
      [true, 'tested, done']
    ])
    expect(stops[0]).toMatchObject({
      session_id: f.session.sessionId,
      cwd: f.cwd,
      permission_mode: 'default',
      background_tasks: [],
      session_crons: [],
      effort: { level: 'medium' }
    })
    expect('agent_id' in stops[0]).toBe(false)
  })

  it('PostToolUseFailure gets the error the model saw, and its feedback reaches the model', async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptLead(reply.toolUse('Read', { file_path: 'missing.txt' }), (req) => reply.text(req.toolResults[0].content))
      },
      {
        trustProject: true,
        files: {
          '.claude/settings.json': JSON.stringify(
            hooksSettings([{ event: 'PostToolUseFailure', matcher: 'Read', command: h.cmd({ stderr: 'check the file name', exit: 2 }) }])
          )
        }
      }
    )
    const result = await f.session.run('go')
    const [fail] = h.events('PostToolUseFailure')
    expect(fail).toMatchObject({ tool_name: 'Read', tool_input: { file_path: 'missing.txt' }, is_interrupt: false, duration_ms: expect.any(Number) })
    expect(fail.error).toContain('missing.txt')
    expect(result.result).toContain('PostToolUseFailure hook feedback: check the file name')
  })
})

describe('Notification', () => {
  it('permission_prompt for the main agent, agent_needs_input for a subagent, agent_completed when a subagent ends', async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the writer', turns: [reply.toolUse('Write', { file_path: 'by-writer.txt', content: 'w' }), reply.text('written')] },
          {
            match: MAIN,
            turns: [
              reply.toolUse('Write', { file_path: 'by-main.txt', content: 'm' }),
              reply.toolUse('Agent', { description: 'write it', prompt: 'Write.', subagent_type: 'writer', name: 'scribe' }),
              reply.text('done')
            ]
          }
        ])
      },
      {
        trustProject: true,
        files: {
          '.claude/agents/writer.md': agentFile('writer', 'tools: Write\n'),
          '.claude/settings.json': JSON.stringify(
            hooksSettings([
              { event: 'Notification', command: h.cmd() },
              { event: 'Notification', matcher: 'agent_completed', command: h.cmd({ stdout: 'seen' }) }
            ])
          )
        }
      }
    )
    f.session.bus.subscribe((e) => {
      if (e.type === 'permission_request') queueMicrotask(() => f.session.respondPermission(e.requestId, 'allow'))
    })
    await f.session.run('go')
    await f.session.idle()
    const notes = h.events('Notification').map((n) => [n.notification_type, n.message])
    expect(notes).toEqual(
      expect.arrayContaining([
        ['permission_prompt', 'Claude needs your permission to use Write'],
        ['agent_needs_input', 'scribe (writer) needs your input: allow or deny Write'],
        ['agent_completed', 'scribe (writer) finished']
      ])
    )
    // Two entries match agent_completed: both ran.
    expect(notes.filter(([t]) => t === 'agent_completed')).toHaveLength(2)
    const writerId = starts(f.events).find((e) => e.agentType === 'writer')!.agentId
    expect(h.events('Notification').find((n) => n.notification_type === 'agent_needs_input')).toMatchObject({
      agent_id: writerId,
      agent_type: 'writer',
      hook_event_name: 'Notification'
    })
  })
})

describe('TeammateIdle and TaskCompleted', () => {
  it('TaskCompleted exit 2 refuses the completion with its reason; TeammateIdle exit 2 keeps the member working', async () => {
    const h = hookDir()
    const member = (req: ParsedRequest) => {
      const last = req.toolResults[0]?.content ?? ''
      const text = JSON.stringify(req.messages)
      if (req.turn === 0) return reply.toolUse('TaskClaim', {})
      if (last.includes('You claimed task 1') || last.includes('was not marked completed'))
        return reply.toolUse('TaskUpdate', { taskId: '1', status: 'completed', result: 'done' })
      if (req.lastUserText.includes('TeammateIdle hook asks you to keep working')) return reply.text('double-checked')
      return reply.text(text.includes('You updated task 1') ? 'finished' : 'stuck')
    }
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the worker', turns: Array.from({ length: 10 }, () => member) },
          {
            match: MAIN,
            turns: [
              reply.toolUse('TeamCreate', {
                team_name: 'crew',
                members: [{ name: 'w1', agent_type: 'worker', prompt: 'Do the task.' }],
                tasks: [{ subject: 'ship it', description: 'the release' }]
              })
            ],
            then: reply.text('ok')
          }
        ])
      },
      {
        teams: true,
        trustProject: true,
        files: {
          '.claude/agents/worker.md': agentFile('worker', 'tools: Read\n'),
          '.claude/settings.json': JSON.stringify(
            hooksSettings([
              { event: 'TaskCompleted', command: h.cmd({ times: 1, stderr: 'attach the test log first', exit: 2 }) },
              { event: 'TeammateIdle', command: h.cmd({ times: 1, stderr: 'double-check your work', exit: 2 }) }
            ])
          )
        }
      }
    )
    await f.session.run('Form a team.')
    await f.session.idle()
    const updates = toolEnds(f.events, 'TaskUpdate')
    expect(updates[0]).toMatchObject({
      isError: true,
      output: expect.stringContaining('Task 1 was not marked completed: a TaskCompleted hook blocked it:\nattach the test log first')
    })
    expect(updates[1].isError).toBe(false)
    expect(h.events('TaskCompleted')[0]).toMatchObject({
      task_id: '1',
      task_subject: 'ship it',
      task_description: 'the release',
      teammate_name: 'w1',
      team_name: 'crew'
    })
    const idle = h.events('TeammateIdle')
    expect(idle[0]).toMatchObject({ teammate_name: 'w1', team_name: 'crew', agent_type: 'worker' })
    expect(idle.length).toBeGreaterThanOrEqual(2)
  })
})

describe('WorktreeCreate and WorktreeRemove', () => {
  it('a WorktreeCreate hook makes the isolated agent’s folder instead of git; WorktreeRemove is asked to remove it', async () => {
    const h = hookDir()
    const r = makeTempRepo()
    repos.push(r)
    const made = join(h.dir, 'made-by-hook')
    const script = join(h.dir, 'create.mjs')
    writeFileSync(
      script,
      `import { mkdirSync, readFileSync, appendFileSync } from 'node:fs'\nconst input = JSON.parse(readFileSync(0, 'utf8'))\nappendFileSync(${JSON.stringify(h.log)}, JSON.stringify({ input }) + '\\n')\nmkdirSync(${JSON.stringify(made)} + '/' + input.name, { recursive: true })\nprocess.stdout.write(${JSON.stringify(made)} + '/' + input.name + '\\n')\n`
    )
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the isolated', turns: [reply.toolUse('Write', { file_path: 'out.txt', content: 'here' }), reply.text('wrote')] },
          { match: MAIN, turns: [reply.toolUse('Agent', { description: 'iso', prompt: 'Write out.txt.', subagent_type: 'isolated' }), reply.text('done')] }
        ])
      },
      {
        cwd: r.root,
        permissionMode: 'acceptEdits',
        trustProject: true,
        files: {
          '.claude/agents/isolated.md': agentFile('isolated', 'tools: Write\nisolation: worktree\n'),
          '.claude/settings.json': JSON.stringify(
            hooksSettings([
              { event: 'WorktreeCreate', command: `node ${JSON.stringify(script)}` },
              { event: 'WorktreeRemove', command: h.cmd() }
            ])
          )
        }
      }
    )
    await f.session.run('go')
    const start = starts(f.events).find((e) => e.agentType === 'isolated')!
    const folder = join(made, `agent-${start.agentId}`)
    expect(start.cwd).toBe(folder)
    expect(readFileSync(join(folder, 'out.txt'), 'utf8')).toBe('here')
    expect(h.events('WorktreeCreate')[0]).toMatchObject({ name: `agent-${start.agentId}`, agent_id: start.agentId })
    expect(h.events('WorktreeRemove')[0]).toMatchObject({ worktree_path: folder, agent_id: start.agentId })
    // git was not asked for a worktree.
    expect(r.git('worktree', 'list')).not.toContain('.fanout-worktrees')
  })

  it('a WorktreeCreate hook that fails stops the agent before it starts, saying why', async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptLead(reply.toolUse('Agent', { description: 'iso', prompt: 'x', subagent_type: 'isolated' }), (req) =>
          reply.text(req.toolResults[0].content)
        )
      },
      {
        trustProject: true,
        files: {
          '.claude/agents/isolated.md': agentFile('isolated', 'tools: Read\nisolation: worktree\n'),
          '.claude/settings.json': JSON.stringify(hooksSettings([{ event: 'WorktreeCreate', command: h.cmd({ stderr: 'svn checkout failed', exit: 1 }) }]))
        }
      }
    )
    const result = await f.session.run('go')
    expect(result.result).toMatch(/^Could not isolate the agent: WorktreeCreate hook failed: failed with exit code 1\nsvn checkout failed/)
  })
})
