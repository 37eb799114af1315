// Hooks in a session, end to end: real hook commands through the shell (testing/hook.mjs), configured in real
// settings files and agent files, around agents driven by the scripted model server.
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ErrorEvent, ToolEndEvent } from '../../../shared/events'
import { relayFirstLine, reply, scriptByAgent, scriptLead } from '../model/scripted'
import { closeFixtures, ends, latch, makeFixture as fixture, starts, waitForEvent } from '../orchestration/testing/session-fixture'

// What a folder's own hooks and servers do once the person has approved the folder (trust/ keeps them out until then).
const makeFixture: typeof fixture = (server, opts = {}) => fixture(server, { trustProject: true, ...opts })
import { hookCommand, hooksSettings, readHookLog, type HookBehaviour } from './testing/fixture'
import { MAX_STOP_BLOCKS } from './wiring'

afterEach(closeFixtures)

const MAIN = 'lead agent in Fanout'
const errors = (events: AgentEvent[]) => events.filter((e): e is ErrorEvent => e.type === 'error')
const toolEnds = (events: AgentEvent[], name: string) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)
const agentFile = (name: string, extra = '') => `---\nname: ${name}\ndescription: The ${name} agent\n${extra}---\nYou are the ${name}.`

/** A folder for hook logs and behaviour files, outside the project. */
function hookDir() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-hooks-')))
  const log = join(dir, 'hooks.log')
  return { dir, log, cmd: (b: HookBehaviour = {}) => hookCommand(dir, log, b) }
}

describe('SubagentStart and SubagentStop', () => {
  it('SubagentStart matches on agent type and adds context to that agent only; hooks get Claude Code’s input, in the project folder', async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the scout', turns: [(req) => reply.text(/secret word is (\w+)/.exec(req.lastUserText)?.[1] ?? 'no word')] },
          { match: 'You are the builder', turns: [(req) => reply.text(/secret word/.test(req.lastUserText) ? 'leaked' : 'no word')] },
          {
            match: MAIN,
            turns: [
              reply.toolUses([
                { name: 'Agent', input: { description: 'Scout', prompt: 'Scout around.', subagent_type: 'scout' } },
                { name: 'Agent', input: { description: 'Build', prompt: 'Build it.', subagent_type: 'builder' } }
              ]),
              (req) => reply.text(req.toolResults.map((r) => r.content.split('\n')[0]).join(', '))
            ]
          }
        ])
      },
      {
        files: {
          '.claude/agents/scout.md': agentFile('scout'),
          '.claude/agents/builder.md': agentFile('builder'),
          '.claude/settings.json': JSON.stringify(
            hooksSettings([
              {
                event: 'SubagentStart',
                matcher: 'scout',
                command: h.cmd({ stdout: { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'The secret word is PLUM.' } } })
              },
              { event: 'SubagentStop', command: h.cmd() }
            ])
          )
        }
      }
    )
    const result = await f.session.run('Send the scout and the builder.')
    expect(result.result).toBe('PLUM, no word')
    const scoutReq = f.model.server.requests.find((r) => r.system.includes('You are the scout'))!
    expect(scoutReq.lastUserText).toBe('Scout around.\n<system-reminder>\nSubagentStart hook additional context: The secret word is PLUM.\n</system-reminder>')
    const scoutId = starts(f.events).find((e) => e.agentType === 'scout')!.agentId
    const log = readHookLog(h.log)
    const scoutStart = log.find((l) => l.input.hook_event_name === 'SubagentStart')!
    expect(scoutStart.input).toEqual({
      session_id: f.session.sessionId,
      transcript_path: join(f.dataDir, 'sessions', f.session.sessionId, 'agents', `${f.session.mainAgentId}.jsonl`),
      cwd: f.cwd,
      prompt_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      permission_mode: 'default',
      agent_id: scoutId,
      agent_type: 'scout',
      hook_event_name: 'SubagentStart'
    })
    expect(scoutStart.cwd).toBe(f.cwd)
    expect(scoutStart.projectDir).toBe(f.cwd)
    // Only the scout matched SubagentStart; both ran SubagentStop, with their last message.
    expect(log.filter((l) => l.input.hook_event_name === 'SubagentStart').map((l) => l.input.agent_type)).toEqual(['scout'])
    const stops = log.filter((l) => l.input.hook_event_name === 'SubagentStop')
    expect(stops.map((l) => [l.input.agent_type, l.input.last_assistant_message, l.input.stop_hook_active]).sort()).toEqual([
      ['builder', 'no word', false],
      ['scout', 'PLUM', false]
    ])
    expect(stops.find((l) => l.input.agent_type === 'scout')!.input.agent_transcript_path).toBe(
      join(f.dataDir, 'sessions', f.session.sessionId, 'agents', `${scoutId}.jsonl`)
    )
  })

  it('exactly one SubagentStart and one SubagentStop per agent, whether it finishes, fails, is stopped by the person or killed by its parent', async () => {
    const h = hookDir()
    const hold = latch()
    let killedId = ''
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the finisher', turns: [reply.text('finished')] },
          { match: 'You are the failer', turns: [reply.badRequest('this request is malformed on purpose')] },
          { match: 'You are the waiter', turns: [async () => (await hold.wait, reply.text('too late'))] },
          { match: 'You are the sleeper', turns: [async () => (await hold.wait, reply.text('too late'))] },
          {
            match: MAIN,
            turns: [
              reply.toolUse('Agent', { description: 'Sleep', prompt: 'Sleep in the background.', subagent_type: 'sleeper', run_in_background: true }),
              (req) => {
                killedId = JSON.parse(req.toolResults[0].content.split('\n')[0]).agentId
                return reply.toolUses([
                  { name: 'Agent', input: { description: 'Finish', prompt: 'Finish.', subagent_type: 'finisher' } },
                  { name: 'Agent', input: { description: 'Fail', prompt: 'Fail.', subagent_type: 'failer' } },
                  { name: 'Agent', input: { description: 'Wait', prompt: 'Wait.', subagent_type: 'waiter' } }
                ])
              },
              () => reply.toolUse('TaskStop', { task_id: killedId }),
              reply.text('all ended')
            ]
          }
        ])
      },
      {
        files: {
          ...Object.fromEntries(['finisher', 'failer', 'waiter', 'sleeper'].map((n) => [`.claude/agents/${n}.md`, agentFile(n)])),
          '.claude/settings.json': JSON.stringify(
            hooksSettings([
              { event: 'SubagentStart', command: h.cmd() },
              { event: 'SubagentStop', command: h.cmd() }
            ])
          )
        }
      }
    )
    const run = f.session.run('Start four agents.')
    const waiter = await waitForEvent(f.session, f.events, (e) => e.type === 'agent_start' && e.agentType === 'waiter')
    f.session.stop(waiter.agentId)
    expect((await run).result).toBe('all ended')
    await f.session.idle()
    hold.open()

    const byType = new Map(
      starts(f.events)
        .filter((e) => e.depth === 1)
        .map((e) => [e.agentId, e.agentType])
    )
    expect(new Set(byType.values())).toEqual(new Set(['finisher', 'failer', 'waiter', 'sleeper']))
    expect(
      Object.fromEntries(
        ends(f.events)
          .filter((e) => byType.has(e.agentId))
          .map((e) => [byType.get(e.agentId), e.status])
      )
    ).toEqual({ finisher: 'completed', failer: 'failed', waiter: 'stopped', sleeper: 'stopped' })
    const log = readHookLog(h.log)
    for (const [id, type] of byType) {
      const mine = log.filter((l) => l.input.agent_id === id)
      expect(
        mine.map((l) => l.input.hook_event_name),
        type
      ).toEqual(['SubagentStart', 'SubagentStop'])
    }
    expect(Object.fromEntries(log.filter((l) => l.input.hook_event_name === 'SubagentStop').map((l) => [l.input.agent_type, l.input.status]))).toEqual({
      finisher: 'completed',
      failer: 'failed',
      waiter: 'stopped',
      sleeper: 'stopped'
    })
    expect(killedId).toMatch(/^a[0-9a-f]{16}$/)
  })

  it('a SubagentStop hook that blocks hands the agent its reason as the next instruction; stop_hook_active says it already did', async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the worker', turns: [reply.text('Done.'), (req) => reply.text(`Done, and: ${req.lastUserText.split('\n').slice(1).join(' ')}`)] },
          {
            match: MAIN,
            turns: [reply.toolUse('Agent', { description: 'Work', prompt: 'Do the work.', subagent_type: 'worker' }), relayFirstLine]
          }
        ])
      },
      {
        files: {
          '.claude/agents/worker.md': agentFile('worker'),
          '.claude/settings.json': JSON.stringify(
            hooksSettings([
              {
                event: 'SubagentStop',
                matcher: 'worker',
                command: h.cmd({ unlessActive: { stdout: { decision: 'block', reason: 'List the files you touched.' } } })
              }
            ])
          )
        }
      }
    )
    const result = await f.session.run('go')
    expect(result.result).toBe('Done, and: List the files you touched.')
    const second = f.model.server.requests.filter((r) => r.system.includes('You are the worker'))[1]
    expect(second.lastUserText).toBe('A SubagentStop hook did not let you finish yet:\nList the files you touched.')
    expect(readHookLog(h.log).map((l) => l.input.stop_hook_active)).toEqual([false, true])
  })

  it(`a SubagentStop hook that always blocks (exit code 2) lets the agent finish after ${MAX_STOP_BLOCKS} rounds, and says so`, async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the worker', turns: Array.from({ length: MAX_STOP_BLOCKS + 1 }, (_, i) => reply.text(`attempt ${i + 1}`)) },
          {
            match: MAIN,
            turns: [reply.toolUse('Agent', { description: 'Work', prompt: 'Do the work.', subagent_type: 'worker' }), relayFirstLine]
          }
        ])
      },
      {
        files: {
          '.claude/agents/worker.md': agentFile('worker'),
          '.claude/settings.json': JSON.stringify(hooksSettings([{ event: 'SubagentStop', command: h.cmd({ stderr: 'Not good enough.', exit: 2 }) }]))
        }
      }
    )
    const result = await f.session.run('go')
    expect(result.result).toBe(`attempt ${MAX_STOP_BLOCKS + 1}`)
    expect(readHookLog(h.log)).toHaveLength(MAX_STOP_BLOCKS + 1)
    const worker = starts(f.events).find((e) => e.agentType === 'worker')!
    expect(
      errors(f.events)
        .filter((e) => e.agentId === worker.agentId)
        .map((e) => e.message)
    ).toEqual([
      `SubagentStop hooks blocked agent worker from finishing ${MAX_STOP_BLOCKS} times in a row; it finished anyway so it cannot loop forever. The last reason was: Not good enough.`
    ])
  })
})

describe('PreToolUse and PostToolUse', () => {
  it('PreToolUse: exit 2 denies with its stderr; "allow" skips the approval but not a deny rule; updatedInput replaces the input; "ask" cannot be answered headless', async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptLead(
          reply.toolUses([
            { name: 'Write', input: { file_path: 'secrets.txt', content: 'x' } },
            { name: 'Bash', input: { command: 'echo allowed-by-hook > hook.txt' } },
            { name: 'Bash', input: { command: 'rm -f hook.txt' } },
            { name: 'Write', input: { file_path: 'notes.txt', content: 'original' } },
            { name: 'Edit', input: { file_path: 'notes.txt', old_string: 'a', new_string: 'b' } }
          ]),
          reply.text('done')
        )
      },
      {
        headless: true,
        files: {
          '.claude/settings.json': JSON.stringify({
            permissions: { deny: ['Bash(rm:*)'], allow: ['Write'] },
            ...hooksSettings([
              {
                event: 'PreToolUse',
                matcher: 'Write',
                command: `node -e "const i=JSON.parse(require('fs').readFileSync(0,'utf8'));if(i.tool_input.file_path==='secrets.txt'){process.stderr.write('writing secrets is not allowed');process.exit(2)}"`
              },
              {
                event: 'PreToolUse',
                matcher: 'Bash',
                command: h.cmd({
                  stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'shell is fine here' } }
                })
              },
              {
                event: 'PreToolUse',
                matcher: 'Write',
                command: h.cmd({
                  stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { file_path: 'notes.txt', content: 'rewritten by the hook' } } }
                })
              },
              {
                event: 'PreToolUse',
                matcher: 'Edit',
                command: h.cmd({
                  stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'edits need a look' } }
                })
              }
            ])
          })
        }
      }
    )
    await f.session.run('go')
    const writes = toolEnds(f.events, 'Write')
    expect(writes[0]).toMatchObject({ isError: true, output: 'A PreToolUse hook blocked this Write call: writing secrets is not allowed' })
    expect(existsSync(join(f.cwd, 'secrets.txt'))).toBe(false)
    // Headless and default mode would deny Bash; the hook's allow let it run. The deny rule still stopped rm.
    const bash = toolEnds(f.events, 'Bash')
    expect(bash[0].isError).toBe(false)
    expect(readFileSync(join(f.cwd, 'hook.txt'), 'utf8')).toBe('allowed-by-hook\n')
    expect(bash[1]).toMatchObject({ isError: true })
    expect(bash[1].output).toMatch(/Bash\(rm:\*\)/)
    expect(readFileSync(join(f.cwd, 'notes.txt'), 'utf8')).toBe('rewritten by the hook')
    expect(toolEnds(f.events, 'Edit')[0].output).toBe(
      'Edit was not run: a PreToolUse hook asked for approval (edits need a look), and nobody can answer in this run.'
    )
    const pre = readHookLog(h.log).find((l) => l.input.tool_name === 'Bash')!
    expect(pre.input).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_input: { command: 'echo allowed-by-hook > hook.txt' },
      tool_use_id: expect.stringMatching(/^toolu_/)
    })
    // The main agent's calls carry no agent_id or agent_type, as in Claude Code.
    expect('agent_id' in pre.input || 'agent_type' in pre.input).toBe(false)
  })

  it('PreToolUse "ask" puts even a read-only call to the person, with the hook\'s reason; the answer decides', async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptLead(
          reply.toolUses([
            { name: 'Read', input: { file_path: 'a.txt' } },
            { name: 'Read', input: { file_path: 'b.txt' } }
          ]),
          (req) => reply.text(req.toolResults.map((r) => (r.isError ? 'denied' : 'read')).join(','))
        )
      },
      {
        files: {
          'a.txt': 'alpha\n',
          'b.txt': 'beta\n',
          '.claude/settings.json': JSON.stringify(
            hooksSettings([
              {
                event: 'PreToolUse',
                matcher: 'Read',
                command: h.cmd({
                  stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'reads are audited' } }
                })
              }
            ])
          )
        }
      }
    )
    const answered = new Set<string>()
    f.session.bus.subscribe((e) => {
      if (e.type !== 'permission_request' || answered.has(e.requestId)) return
      answered.add(e.requestId)
      const file = (e.input as { file_path: string }).file_path
      queueMicrotask(() => f.session.respondPermission(e.requestId, file === 'a.txt' ? 'allow' : 'deny'))
    })
    const result = await f.session.run('go')
    expect(result.result).toBe('read,denied')
    const requests = f.events.filter((e) => e.type === 'permission_request')
    expect(requests.map((e) => (e.type === 'permission_request' ? [e.toolName, e.reason] : []))).toEqual([
      ['Read', 'reads are audited'],
      ['Read', 'reads are audited']
    ])
  })

  it('PostToolUse: additional context and a block reason reach the model with the result, and the hook sees the response', async () => {
    const h = hookDir()
    const f = await makeFixture(
      { respond: scriptLead(reply.toolUse('Read', { file_path: 'a.txt' }), (req) => reply.text(req.toolResults[0].content)) },
      {
        files: {
          'a.txt': 'alpha\n',
          '.claude/settings.json': JSON.stringify(
            hooksSettings([
              {
                event: 'PostToolUse',
                matcher: 'Read|Grep',
                command: h.cmd({ stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'a.txt is generated; do not edit it.' } } })
              },
              { event: 'PostToolUse', matcher: 'Re.*', command: h.cmd({ stdout: { decision: 'block', reason: 'Reading is logged.' } }) },
              { event: 'PostToolUse', matcher: 'Bash', command: h.cmd() }
            ])
          )
        }
      }
    )
    const result = await f.session.run('go')
    expect(result.result).toMatch(
      /alpha\n[\s\S]*<system-reminder>\nPostToolUse hook additional context: a\.txt is generated; do not edit it\.\n<\/system-reminder>/
    )
    expect(result.result).toContain('<system-reminder>\nPostToolUse hook feedback: Reading is logged.\n</system-reminder>')
    const log = readHookLog(h.log)
    expect(log).toHaveLength(2)
    // Claude Code's tool_response for Read, and the call's duration.
    expect(log[0].input).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: 'a.txt' },
      duration_ms: expect.any(Number)
    })
    expect(log[0].input.tool_response).toEqual({
      type: 'text',
      file: { filePath: join(f.cwd, 'a.txt'), content: 'alpha\n', numLines: 2, startLine: 1, totalLines: 2 }
    })
  })

  it('a failing hook (exit 1, timeout, bad JSON) is an error event with its command and stderr, and the agent carries on', async () => {
    const h = hookDir()
    const failing = h.cmd({ stderr: 'cannot reach the audit server', exit: 1 })
    const slow = h.cmd({ sleepMs: 10_000 })
    const garbled = h.cmd({ stdout: '{"decision": ' })
    const f = await makeFixture(
      {
        respond: scriptLead(reply.toolUse('Read', { file_path: 'a.txt' }), (req) =>
          reply.text(req.toolResults[0].content.includes('alpha') ? 'read fine' : 'no')
        )
      },
      {
        files: {
          'a.txt': 'alpha\n',
          '.claude/settings.json': JSON.stringify(
            hooksSettings([
              { event: 'PreToolUse', command: failing },
              { event: 'PreToolUse', command: slow, timeout: 0.5 },
              { event: 'PostToolUse', command: garbled }
            ])
          )
        }
      }
    )
    const result = await f.session.run('go')
    expect(result.status).toBe('completed')
    expect(result.result).toBe('read fine')
    const settingsFile = join(f.cwd, '.claude', 'settings.json')
    const messages = errors(f.events).map((e) => e.message)
    expect(messages).toHaveLength(3)
    expect(messages).toContain(`PreToolUse hook \`${failing}\` (${settingsFile}) failed with exit code 1; it was ignored.\ncannot reach the audit server`)
    expect(messages).toContain(`PreToolUse hook \`${slow}\` (${settingsFile}) did not finish within its 0.5 s timeout and was stopped; it was ignored.`)
    expect(messages.find((m) => m.startsWith('PostToolUse'))).toMatch(
      /^PostToolUse hook `.*` \(.*settings\.json\) printed output that starts like JSON but does not parse \(.+\); it was ignored\.$/
    )
    expect(errors(f.events).every((e) => e.agentId === f.session.mainAgentId && !e.retrying)).toBe(true)
  })

  it("a definition's hooks apply to that agent only, and its Stop hook is its SubagentStop", async () => {
    const h = hookDir()
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the guarded', turns: [reply.toolUse('Bash', { command: 'echo hi' }), (req) => reply.text(req.toolResults[0].content)] },
          {
            match: MAIN,
            turns: [
              reply.toolUse('Bash', { command: 'echo main-ran' }),
              reply.toolUse('Agent', { description: 'Guarded', prompt: 'Run echo.', subagent_type: 'guarded' }),
              relayFirstLine
            ]
          }
        ])
      },
      {
        permissionMode: 'bypassPermissions',
        files: {
          '.claude/agents/guarded.md': agentFile(
            'guarded',
            `hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ${JSON.stringify(h.cmd({ stderr: 'no shell for the guarded agent', exit: 2 }))}\n  Stop:\n    - hooks:\n        - type: command\n          command: ${JSON.stringify(h.cmd())}\n`
          )
        }
      }
    )
    const result = await f.session.run('go')
    expect(toolEnds(f.events, 'Bash')[0]).toMatchObject({ isError: false, output: expect.stringContaining('main-ran') })
    expect(result.result).toBe('A PreToolUse hook blocked this Bash call: no shell for the guarded agent')
    expect(readHookLog(h.log).map((l) => [l.input.hook_event_name, l.input.agent_type])).toEqual([
      ['PreToolUse', 'guarded'],
      ['SubagentStop', 'guarded']
    ])
  })
})
