// `fanout run` never says success when work was left undone, and its result says why: an API error (as
// Claude Code's `API Error: …`), a tool call cut off by max_tokens, a resumed session whose main conversation
// is gone, a data folder that filled up. Stream faults are retried for subagents too, foreground and background.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliProject, runCli, useCliServers } from '../../../test/support/cli'
import { byAttempt, reply, scriptByAgent } from '../runtime/model/scripted'
import type { MessageReply } from '../runtime/model/scripted/types'
import { CAN_MOUNT, CANNOT_MOUNT_REASON, mountSmallDisk } from '../runtime/store/testing/full-disk'
import { readSessionSummary } from '../runtime/store'

const serve = useCliServers()
const json = ['--output-format', 'json']

function onlySession(dataDir: string): { sessionId: string; agents: string } {
  const sessions = join(dataDir, 'sessions')
  const [sessionId] = readdirSync(sessions)
  return { sessionId, agents: join(sessions, sessionId, 'agents') }
}

describe('fanout run: results that tell the truth', () => {
  it("an API error puts Claude Code's `API Error: <status> <message>` in result, exits 1 and says it on stderr", async () => {
    const { project, env } = cliProject('fanout-apierr-', {})
    const server = await serve({ respond: () => reply.badRequest('messages.0: something the API refused') })
    const r = await runCli(['run', '-p', 'Go.', '--cwd', project, ...json], { env: env(server.url) })
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({
      is_error: true,
      subtype: 'error_during_execution',
      terminal_reason: 'api_error',
      api_error_status: 400,
      api_error_type: 'invalid_request_error',
      result: 'API Error: 400 messages.0: something the API refused'
    })
    expect(r.stderr).toContain('fanout run: failed: Invalid request (400): messages.0: something the API refused')
    // The text format prints the same result on stdout.
    const text = await runCli(['run', '-p', 'Go.', '--cwd', project], { env: env(server.url) })
    expect(text.code).toBe(1)
    expect(text.stdout).toBe('API Error: 400 messages.0: something the API refused\n')
  })

  it('a 500 storm gives up with the budget said while waiting and the attempts and time in the result', async () => {
    const { project, env } = cliProject('fanout-storm-', {})
    const server = await serve({ respond: () => reply.serverError(500) })
    // Claude Code's knob for the budget: 2 retries wait about 0.5 s and 1 s.
    const r = await runCli(['run', '-p', 'Go.', '--cwd', project, ...json], { env: { ...env(server.url), CLAUDE_CODE_MAX_RETRIES: '2' } })
    expect(r.code).toBe(1)
    const retries = r.stderr.split('\n').filter((l) => l.includes('Retrying in'))
    expect(retries.length).toBeGreaterThan(0)
    expect(retries[0]).toMatch(
      /^fanout: API error \(500\): Internal server error\. Retrying in [\d.]+ m?s \(attempt 2 of 3; [\d.]+ m?s spent of at most 10 min retrying\)\.$/
    )
    const out = JSON.parse(r.stdout)
    expect(out.result).toMatch(/^API Error: 500 Internal server error$/)
    expect(out.error).toMatch(/\(gave up after 3 attempts over [\d.]+ (ms|s|min)\)$/)
  }, 120_000)

  it('a tool call cut off by max_tokens fails the run (exit 1) with the reason; the call never runs', async () => {
    const { project, env } = cliProject('fanout-cut-', {})
    const server = await serve({
      respond: () => reply.cutByMaxTokens(reply.toolUse('Write', { file_path: join(project, 'made.txt'), content: 'should never be written' }))
    })
    const r = await runCli(['run', '-p', 'Go.', '--cwd', project, ...json, '--permission-mode', 'bypassPermissions'], { env: env(server.url) })
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ is_error: true, subtype: 'error_during_execution', terminal_reason: 'model_error', status: 'failed' })
    expect(out.result).toMatch(/^The model's reply reached its output limit \(max_tokens 128,000\) in the middle of a call to Write, so the call was not run/)
    expect(r.stderr).toContain('fanout run: failed: The model')
    expect(readdirSync(project)).not.toContain('made.txt')
  })

  it('a subagent whose tool call max_tokens cut off is failed, and its parent is told why', async () => {
    const { project, env } = cliProject('fanout-subcut-', {})
    const server = await serve({
      respond: scriptByAgent([
        { name: 'sub', match: 'SUB TASK', turns: [reply.cutByMaxTokens(reply.toolUse('Glob', { pattern: '**/*.ts' }))] },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('Agent', { description: 'Sub work', prompt: 'SUB TASK', subagent_type: 'general-purpose' })],
          then: (req) => reply.text(`main saw: ${req.toolResults[0]?.content ?? 'nothing'}`)
        }
      ])
    })
    const r = await runCli(['run', '-p', 'Go.', '--cwd', project, ...json], { env: env(server.url) })
    const out = JSON.parse(r.stdout)
    expect(out.subagent_stats).toMatchObject({ failed: 1, completed: 0 })
    expect(out.agents.find((a: { agent_type: string }) => a.agent_type === 'general-purpose').status).toBe('failed')
    expect(out.result).toMatch(/main saw: .*reached its output limit \(max_tokens [\d,]+\) in the middle of a call to Glob/s)
    // As Claude Code: the main agent was told and answered, so the run is its answer (exit 0).
    expect(r.code).toBe(0)
  })

  it('the answer rehearsed while a subagent still works changes nothing the answer says, and prints nothing', async () => {
    const { project, env } = cliProject('fanout-rehearsed-', {})
    const server = await serve({
      respond: scriptByAgent([
        // Still at work when the answer's steps are rehearsed (60 ms after the first request): unfinished then.
        { name: 'sub', match: 'SUB TASK', turns: [{ ...reply.text('sub done'), delayMs: 400 }] },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('Agent', { description: 'Sub work', prompt: 'SUB TASK', subagent_type: 'general-purpose' })],
          then: (req) => reply.text(`main saw: ${req.toolResults[0]?.content ?? 'nothing'}`)
        }
      ])
    })
    for (const format of ['json', 'events', 'text']) {
      const r = await runCli(['run', '-p', 'Go.', '--cwd', project, '--output-format', format], { env: env(server.url) })
      expect(r.code, r.stderr).toBe(0)
      const lines = r.stdout.trimEnd().split('\n')
      if (format === 'text') {
        expect(r.stdout).toMatch(/^main saw: .*sub done.*\n$/s)
        continue
      }
      const results = lines.map((l) => JSON.parse(l)).filter((l) => l.type === 'result')
      expect(results, format).toHaveLength(1)
      expect(results[0]).toMatchObject({ is_error: false, subtype: 'success', terminal_reason: 'completed', status: 'completed' })
      expect(results[0].result).toMatch(/^main saw: .*sub done/s)
      expect(results[0].errors).toBeUndefined()
      expect(results[0].subagent_stats).toMatchObject({ completed: 1, failed: 0 })
    }
  })

  it('stream faults in a subagent, foreground and background, are retried and the run completes', async () => {
    const { project, env } = cliProject('fanout-subfault-', {})
    const faults: Array<(r: MessageReply) => MessageReply> = [(r) => reply.malformedAfter(1, r), (r) => reply.dropAfter(1, r)]
    const answer = (name: string) => reply.text(`${name} finished its part of the work`, { textChunk: 4 })
    const server = await serve({
      respond: scriptByAgent([
        { name: 'fg', match: 'FOREGROUND TASK', turns: [byAttempt(faults[0](answer('fg')), answer('fg'))] },
        { name: 'bg', match: 'BACKGROUND TASK', turns: [byAttempt(faults[1](answer('bg')), reply.emptyStream(answer('bg')), answer('bg'))] },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [
            reply.toolUses([
              { name: 'Agent', input: { description: 'Fg', prompt: 'FOREGROUND TASK', subagent_type: 'general-purpose' } },
              { name: 'Agent', input: { description: 'Bg', prompt: 'BACKGROUND TASK', subagent_type: 'general-purpose', run_in_background: true } }
            ])
          ],
          then: reply.text('main is done')
        }
      ])
    })
    const r = await runCli(['run', '-p', 'Go.', '--cwd', project, ...json], { env: env(server.url) })
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.subagent_stats).toMatchObject({ completed: 2, failed: 0 })
    expect(r.stderr).toMatch(/general-purpose [\w-]+: The response stream was malformed \(a data line is not JSON/)
    expect(r.stderr).toMatch(/general-purpose [\w-]+: The connection dropped/)
    expect(r.stderr).toMatch(/general-purpose [\w-]+: The response stream ended before the message was complete \(no events at all\)/)
  })

  it.each([
    ['deleted', (file: string) => rmSync(file)],
    ['emptied', (file: string) => truncateSync(file, 0)],
    ['unreadable', (file: string) => (rmSync(file), mkdirSync(file))]
  ])('--resume of a session whose main transcript was %s is refused: exit 1, the reason in result, no fresh start', async (_how, spoil) => {
    const { project, dataDir, env } = cliProject('fanout-lost-', {})
    const server = await serve({ respond: (req) => reply.text(`answer to ${req.lastUserText}`) })
    const first = await runCli(['run', '-p', 'first', '--cwd', project, ...json], { env: env(server.url) })
    expect(first.code).toBe(0)
    const { sessionId, agents } = onlySession(dataDir)
    const main = readdirSync(agents).find((f) => f.startsWith('main-') && f.endsWith('.jsonl'))!
    spoil(join(agents, main))
    const before = server.messageRequests().length
    const r = await runCli(['run', '--resume', sessionId, '-p', 'second', ...json], { env: env(server.url) })
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ is_error: true, subtype: 'error_during_execution', status: 'failed' })
    expect(out.result).toMatch(new RegExp(`^cannot resume session ${sessionId}: the main agent's transcript .*though the session says it ran 1 turn$`))
    expect(r.stderr).toContain(`fanout run: failed: cannot resume session ${sessionId}`)
    expect(server.messageRequests()).toHaveLength(before)
  })

  it('a team task still claimed by a member that is not running makes the run an error (stalled_team_tasks), exit 1', async () => {
    const { project, env } = cliProject('fanout-stalled-', {})
    const server = await serve({
      respond: scriptByAgent([
        // The member claims the task, then goes idle without finishing it.
        { name: 'member', match: 'WORKER TASK', turns: [reply.toolUse('TaskClaim', {})], then: reply.text('I will get to it later.') },
        {
          name: 'lead',
          match: 'lead agent in Fanout',
          turns: [
            reply.toolUse('TeamCreate', {
              team_name: 'crew',
              description: 'does the one task',
              members: [{ name: 'w1', agent_type: 'general-purpose', prompt: 'WORKER TASK' }],
              tasks: [{ subject: 'write the changelog' }]
            })
          ],
          then: reply.text('Noted.')
        }
      ])
    })
    const r = await runCli(['run', '-p', 'Use a team.', '--cwd', project, '--teams', ...json], { env: env(server.url) })
    expect(r.code, r.stderr).toBe(1)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ is_error: true, subtype: 'error_during_execution', terminal_reason: 'stalled_team_tasks' })
    expect(out.result).toMatch(/^Noted\.\n\n\[Team task \w+ \("write the changelog"\) is still claimed by w1, who is not running: it will not be finished\.\]$/)
    expect(r.stderr).toContain('fanout run: failed: Team task')
    // Resumed, the task is still stalled: every resume says so and exits 1, never 0.
    const again = await runCli(['run', '--resume', out.session_id, '-p', 'continue', '--teams', ...json], { env: env(server.url) })
    expect(again.code, again.stderr).toBe(1)
    expect(JSON.parse(again.stdout).terminal_reason).toBe('stalled_team_tasks')
  })

  it('a data folder that fills up mid-run makes the result an error, never "success"', async (ctx) => {
    if (!CAN_MOUNT) return ctx.skip(CANNOT_MOUNT_REASON)
    const { project, dataDir, env } = cliProject('fanout-full-', {})
    mkdirSync(dataDir, { recursive: true })
    const disk = mountSmallDisk('1m', dataDir)
    try {
      const filler = join(dataDir, 'filler')
      const server = await serve({
        respond: (req) => {
          if (req.turn === 0) {
            // Fill the disk while the run waits on the model: what it writes next cannot be written.
            try {
              writeFileSync(filler, Buffer.alloc(1024 * 1024))
            } catch {}
            return reply.toolUse('Glob', { pattern: '*' }, { text: 'Looking around the project folder. '.repeat(40) })
          }
          // The disk stays full to the end: the answer comes, but the session's record cannot be complete.
          return reply.text('All done.')
        }
      })
      // The disk stays full: after the wait for space (3 s here, 2 min by default) the run stops, and says so.
      const r = await runCli(['run', '-p', 'Go.', '--cwd', project, ...json], { env: { ...env(server.url), FANOUT_DISK_WAIT_MS: '3000' } })
      const out = JSON.parse(r.stdout)
      expect(r.code).toBe(1)
      expect(out.is_error).toBe(true)
      expect(out.subtype).not.toBe('success')
      expect(out.terminal_reason).toMatch(/transcript_write_failed|session_not_saved/)
      expect(out.result).toMatch(/ENOSPC|no space/i)
    } finally {
      disk.unmount()
    }
  })
  it('killed once its answer is out (the close under way), the session reads as it ended: listed done, resumed with nothing called interrupted', async () => {
    const { project, dataDir, env } = cliProject('fanout-killed-after-answer-', {})
    const home = join(dataDir, '..')
    const killed = join(home, 'killed-once')
    // A SessionEnd hook runs in the close, after the answer is printed: the first one kills `fanout` (its parent).
    mkdirSync(join(home, '.claude'), { recursive: true })
    const hook = `[ -e '${killed}' ] || { touch '${killed}'; kill -9 $PPID; sleep 5; }`
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: hook }] }] } }))
    const server = await serve({
      respond: scriptByAgent([
        { name: 'sub', match: 'COUNT THE FILES', turns: [reply.text('There are no files.')] },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('Agent', { description: 'Count', prompt: 'COUNT THE FILES', subagent_type: 'general-purpose' })],
          then: (req) => reply.text(`All done (turn ${req.turn}).`)
        }
      ])
    })
    const r = await runCli(['run', '-p', 'Count the files.', '--cwd', project, ...json], { env: env(server.url) })
    expect(existsSync(killed), r.stderr).toBe(true)
    expect(r.code, 'killed by its SessionEnd hook').toBeNull()
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ is_error: false, subtype: 'success', result: 'All done (turn 1).' })
    // What the record says once the process is gone: the run ended, as the answer said.
    const { sessionId, agents } = onlySession(dataDir)
    expect((await readSessionSummary(dataDir, sessionId)).status).toBe('completed')
    for (const file of readdirSync(agents).filter((f) => f.endsWith('.jsonl'))) {
      const ends = readFileSync(join(agents, file), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"type":"agent_end"'))
      expect(ends, file).toHaveLength(1)
      expect(JSON.parse(ends[0]!).status, file).toBe('completed')
    }
    // Resumed, nothing is run again and nobody (the model, the person) is told of an interruption.
    const before = server.messageRequests().length
    const again = await runCli(['run', '--resume', sessionId, '-p', 'And now?', ...json], { env: env(server.url) })
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).not.toMatch(/interrupt/i)
    const sent = server.messageRequests().slice(before)
    expect(sent).toHaveLength(1)
    expect(JSON.stringify(sent[0]!.messages)).not.toMatch(/interrupt/i)
    expect(sent[0]!.lastUserText).toContain('And now?')
    expect(JSON.parse(again.stdout).result).toBe('All done (turn 2).')
  })
})

describe("fanout run --resume ID --retry: a failed run runs again as the app's Retry runs it", () => {
  it('the failed main agent sends its failed request again and the run answers (exit 0); nothing failed: exit 1 saying so', async () => {
    const { project, dataDir, env } = cliProject('fanout-retry-', {})
    let refuse = true
    const server = await serve({ respond: (req) => (refuse ? reply.badRequest('messages.0: refused once') : reply.text(`answer to ${req.lastUserText}`)) })
    const first = await runCli(['run', '-p', 'Summarise the project.', '--cwd', project, ...json], { env: env(server.url) })
    expect(first.code).toBe(1)
    const { sessionId } = onlySession(dataDir)
    refuse = false
    const failed = server.messageRequests().at(-1)!
    const r = await runCli(['run', '--resume', sessionId, '--retry', ...json], { env: env(server.url) })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('fanout: retrying the main agent')
    const sent = server.messageRequests().at(-1)!
    // The same request, not the task from scratch nor a new prompt.
    expect(sent.messages).toEqual(failed.messages)
    expect(JSON.parse(r.stdout)).toMatchObject({ is_error: false, result: 'answer to Summarise the project.', session_id: sessionId })
    // Now nothing has failed: a second --retry says so and exits 1.
    const again = await runCli(['run', '--resume', sessionId, '--retry', ...json], { env: env(server.url) })
    expect(again.code).toBe(1)
    expect(JSON.parse(again.stdout).result).toBe(`nothing to retry: no agent of session ${sessionId} failed`)
    expect(again.stderr).toContain('fanout run: failed: nothing to retry')
  })

  it('a failed subagent runs again from its conversation; its new report reaches the main agent, which answers', async () => {
    const { project, dataDir, env } = cliProject('fanout-retrysub-', {})
    let cut = true
    const server = await serve({
      respond: scriptByAgent([
        {
          name: 'sub',
          match: 'SUB TASK',
          turns: [() => (cut ? reply.cutByMaxTokens(reply.toolUse('Glob', { pattern: '*' })) : reply.text('SUB REPORT: 3 files'))]
        },
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [reply.toolUse('Agent', { description: 'Sub work', prompt: 'SUB TASK', subagent_type: 'general-purpose' })],
          then: (req) => reply.text(`main saw: ${JSON.stringify(req.messages).includes('SUB REPORT') ? 'the report' : 'a failure'}`)
        }
      ])
    })
    const first = await runCli(['run', '-p', 'Go.', '--cwd', project, ...json], { env: env(server.url) })
    expect(JSON.parse(first.stdout)).toMatchObject({ result: 'main saw: a failure', subagent_stats: { failed: 1 } })
    const { sessionId } = onlySession(dataDir)
    cut = false
    const r = await runCli(['run', '--resume', sessionId, '--retry', ...json], { env: env(server.url) })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/fanout: retrying general-purpose [\w-]+\n/)
    expect(JSON.parse(r.stdout).result).toBe('main saw: the report')
    // Its retry sent its own failed request again: its task, once.
    const subs = server.messageRequests().filter((q) => q.firstUserText.startsWith('SUB TASK'))
    expect(subs).toHaveLength(2)
    expect(subs[1].messages).toEqual(subs[0].messages)
  })

  it('--retry needs a recorded session and no prompt', async () => {
    const { project, env } = cliProject('fanout-retryargs-', {})
    const server = await serve({ respond: () => reply.text('never') })
    const alone = await runCli(['run', '--retry', '--cwd', project], { env: env(server.url) })
    expect(alone.code).toBe(1)
    expect(alone.stderr).toContain('Error: --retry runs a failed agent of a recorded session again: pass --resume SESSION_ID or --continue.')
    const withPrompt = await runCli(['run', '--resume', 'x', '--retry', '-p', 'do it', '--cwd', project], { env: env(server.url) })
    expect(withPrompt.code).toBe(1)
    expect(withPrompt.stderr).toContain('Error: --retry sends the failed request again: give no prompt with it.')
    expect(server.messageRequests()).toHaveLength(0)
  })
})
