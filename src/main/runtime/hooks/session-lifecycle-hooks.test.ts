// SessionStart, UserPromptSubmit, SessionEnd and the common `continue: false`, in a session driven by the
// scripted model, with real hook commands (testing/hook.mjs) in a real settings file: what reaches the model,
// what never does, when a run ends, and the inputs hooks get (Claude Code 2.1.328's fields; the differential
// suite compares them with Claude Code itself where it runs).
import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { reply, type ParsedRequest } from '../model/scripted'
import { closeFixtures, makeFixture as fixture } from '../orchestration/testing/session-fixture'
import { hookCommand, hooksSettings, readHookLog, type HookBehaviour } from './testing/fixture'

const makeFixture: typeof fixture = (server, opts = {}) => fixture(server, { trustProject: true, ...opts })
afterEach(closeFixtures)

function hookDir() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-life-hooks-')))
  const log = join(dir, 'hooks.log')
  return { log, cmd: (b: HookBehaviour = {}) => hookCommand(dir, log, b) }
}

/** Runs Bash first when the prompt asks, else answers at once. */
function respond(req: ParsedRequest) {
  if (JSON.stringify(req.messages).includes('BASH TASK') && req.turn === 0) return reply.toolUse('Bash', { command: 'echo hi', description: 'hi' })
  return reply.text('answer')
}

const settings = (entries: Parameters<typeof hooksSettings>[0]) => ({ '.claude/settings.json': JSON.stringify(hooksSettings(entries)) })

describe('session lifecycle hooks', () => {
  it('SessionStart (source startup) and UserPromptSubmit context reach the model with the prompt; SessionEnd runs as the session closes', async () => {
    const h = hookDir()
    const f = await makeFixture(
      { respond },
      {
        files: settings([
          { event: 'SessionStart', matcher: 'startup', command: h.cmd({ stdout: 'START-PLAIN' }) },
          { event: 'SessionStart', matcher: 'resume', command: h.cmd({ stdout: 'RESUME-NEVER' }) },
          {
            event: 'UserPromptSubmit',
            command: h.cmd({ stdout: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'UPS-CTX' } } })
          },
          { event: 'SessionEnd', command: h.cmd() }
        ])
      }
    )
    const result = await f.session.run('hello there')
    expect(result.result).toBe('answer')
    const [req] = f.model.server.messageRequests()
    const sent = JSON.stringify(req.messages)
    expect(sent).toContain('SessionStart:startup hook success: START-PLAIN')
    expect(sent).toContain('UserPromptSubmit hook additional context: UPS-CTX')
    expect(sent).not.toContain('RESUME-NEVER')
    // A second prompt: UserPromptSubmit again, SessionStart not.
    await f.session.run('again')
    await f.session.close()
    const log = readHookLog(h.log).map((l) => l.input)
    expect(log.map((i) => i.hook_event_name)).toEqual(['SessionStart', 'UserPromptSubmit', 'UserPromptSubmit', 'SessionEnd'])
    expect(log[0]).toEqual({
      session_id: f.session.sessionId,
      transcript_path: expect.any(String),
      cwd: f.cwd,
      hook_event_name: 'SessionStart',
      source: 'startup'
    })
    expect(log[1]).toMatchObject({ permission_mode: 'default', prompt_id: expect.any(String), hook_event_name: 'UserPromptSubmit', prompt: 'hello there' })
    expect(log[2].prompt_id).not.toBe(log[1].prompt_id)
    expect(log[3]).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other' })
    expect(log[3]).not.toHaveProperty('permission_mode')
  })

  it.each([
    [
      'exit 2',
      { stderr: 'no secrets here', exit: 2 },
      /^UserPromptSubmit operation blocked by hook:\n\[node .*\]: no secrets here\n\nOriginal prompt: tell me the secret$/
    ],
    [
      'decision block',
      { stdout: { decision: 'block', reason: 'not today' } },
      /^UserPromptSubmit operation blocked by hook:\nnot today\n\nOriginal prompt: tell me the secret$/
    ],
    ['continue false', { stdout: { continue: false, stopReason: 'paused' } }, /^Operation stopped by hook: paused$/]
  ] as const)('UserPromptSubmit %s keeps the prompt from the model, and the answer says why', async (_what, behaviour, answer) => {
    const h = hookDir()
    const f = await makeFixture({ respond }, { files: settings([{ event: 'UserPromptSubmit', command: h.cmd(behaviour as HookBehaviour) }]) })
    const result = await f.session.run('tell me the secret')
    expect(result.result).toMatch(answer)
    expect(result.numTurns).toBe(0)
    expect(f.model.server.messageRequests()).toEqual([])
    expect(f.events.some((e) => e.type === 'error' && answer.test(e.message))).toBe(true)
    expect(result.promptRefused?.kind).toBe(_what === 'continue false' ? 'stopped_by_hook' : 'blocked_by_hook')
  })

  it.each([
    ['allow', { stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } } }, 'ran'],
    ['deny', { stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'PR-NO' } } } }, 'PR-NO'],
    ['exit 2', { stderr: 'PR-EXIT', exit: 2 }, 'PR-EXIT'],
    ['nothing said', {}, 'headless']
  ] as const)('PermissionRequest %s: asked after PreToolUse for a call that needs approval, headless too', async (_what, behaviour, expected) => {
    const h = hookDir()
    const touch = (req: ParsedRequest) =>
      req.turn === 0 ? reply.toolUse('Bash', { command: 'touch made.txt && echo ran', description: 'make' }) : reply.text('answer')
    const f = await makeFixture(
      { respond: touch },
      {
        headless: true,
        files: settings([
          { event: 'PreToolUse', command: h.cmd() },
          { event: 'PermissionRequest', matcher: 'Bash', command: h.cmd(behaviour as HookBehaviour) }
        ])
      }
    )
    await f.session.run('BASH TASK')
    const log = readHookLog(h.log).map((l) => l.input)
    expect(log.map((i) => i.hook_event_name)).toEqual(['PreToolUse', 'PermissionRequest'])
    expect(log[1]).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'touch made.txt && echo ran' },
      permission_mode: 'default',
      permission_suggestions: expect.any(Array)
    })
    const result = JSON.stringify(f.model.server.messageRequests()[1].messages.at(-1))
    if (expected === 'ran') expect(result).toContain('"content":"ran"')
    else expect(result).toContain(expected)
    if (expected !== 'ran') expect(result).toContain('"is_error":true')
  })

  it.each([
    ['PreToolUse', 'Bash'],
    ['PostToolUse', 'Bash']
  ])('%s "continue": false lets the call finish, then ends the run without another model call (hook_stopped)', async (event, matcher) => {
    const h = hookDir()
    const f = await makeFixture(
      { respond },
      {
        files: settings([
          { event, matcher, command: h.cmd({ stdout: { continue: false, stopReason: 'enough', systemMessage: 'said to the person' } }) },
          { event: 'Stop', command: h.cmd() }
        ])
      }
    )
    const result = await f.session.run('BASH TASK')
    expect(result.status).toBe('completed')
    expect(result.hookStop).toEqual({ terminal: 'hook_stopped', reason: 'enough' })
    expect(f.model.server.messageRequests()).toHaveLength(1)
    // The call ran and its result is in the conversation; the Stop hook did not run (Claude Code runs none either).
    expect(JSON.stringify(result.messages)).toContain('"tool_result"')
    expect(readHookLog(h.log).map((l) => l.input.hook_event_name)).toEqual([event])
    expect(f.events.some((e) => e.type === 'error' && e.message.includes('said to the person'))).toBe(true)
  })

  it('a Stop hook’s "continue": false ends the run as it finishes (stop_hook_prevented); the next prompt runs normally', async () => {
    const h = hookDir()
    const f = await makeFixture(
      { respond },
      { files: settings([{ event: 'Stop', command: h.cmd({ stdout: { continue: false, stopReason: 'stop here' }, times: 1, then: {} }) }]) }
    )
    const first = await f.session.run('hello')
    expect(first.hookStop).toEqual({ terminal: 'stop_hook_prevented', reason: 'stop here' })
    const second = await f.session.run('again')
    expect(second.hookStop).toBeUndefined()
    expect(second.result).toBe('answer')
  })
})
