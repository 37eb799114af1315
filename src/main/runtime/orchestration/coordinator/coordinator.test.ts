// Coordinator mode end to end, in a real git repository: research with parallel Explore agents, a plan from
// a Plan agent, two workers each isolated in its own worktree, a verifier that runs real checks, a fix by
// continuing the failing worker (not a fresh one), and a second verification.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, AgentStartEvent, PhaseEvent, ToolEndEvent } from '../../../../shared/events'
import { reply, scriptByAgent, type ParsedRequest } from '../../model/scripted'
import type { TempRepo } from '../../worktrees/testing/temp-repo'
import { COORDINATOR_TOOLS } from './coordinator-prompt'
import { closeFixtures, tempRepo, makeFixture, starts } from '../testing/session-fixture'
import { mainAgent, scriptedAgent } from '../testing/scripted-agents'

afterEach(closeFixtures)

function calculatorRepo(): TempRepo {
  const r = tempRepo()
  r.write('README.md', '# calc\nsrc/add.js and src/mul.js are missing.\n')
  const check = (fn: string, op: string, want: number) =>
    `const f = require('../src/${fn}.js')\nconst got = f(2, 3)\nif (got !== ${want}) { console.error('${fn}(2, 3) returned ' + got + ', expected ${want} (${op})'); process.exit(1) }\nconsole.log('${fn} ok')\n`
  r.write('checks/add.check.js', check('add', 'sum', 5))
  r.write('checks/mul.check.js', check('mul', 'product', 6))
  r.commitAll('calculator checks')
  return r
}

const worktreeOf = (text: string) => /checked out at (\S+)/.exec(text)?.[1] ?? '(no worktree)'
const verifyCommands = (req: ParsedRequest) =>
  [...req.firstUserText.matchAll(/(add|mul) at (\S+)/g)].map(([, fn, path]) => ({
    name: 'Bash',
    input: { command: `cd ${path} && node checks/${fn}.check.js`, description: `check ${fn}` }
  }))
const verdict = (req: ParsedRequest) =>
  req.toolResults
    .map((r) => (r.isError ? `FAIL: ${r.content.split('\n').find((l) => /returned/.test(l)) ?? r.content}` : `PASS: ${r.content.trim().split('\n')[0]}`))
    .join('\n')

function script() {
  return scriptByAgent([
    {
      name: 'explorer',
      match: /Survey the (checks|README)/,
      turns: [
        (req) => reply.toolUse('Glob', { pattern: req.firstUserText.includes('checks') ? 'checks/*.js' : '*.md' }),
        (req) => reply.text(`Found: ${req.toolResults[0].content.trim()}`)
      ]
    },
    {
      name: 'planner',
      match: 'Make a plan',
      turns: [
        reply.text('Plan: 1. src/add.js exports (a, b) => a + b. 2. src/mul.js exports (a, b) => a * b. Independent units; verify with checks/*.check.js.')
      ]
    },
    {
      name: 'adder',
      match: 'Implement src/add.js',
      turns: [reply.toolUse('Write', { file_path: 'src/add.js', content: 'module.exports = (a, b) => a + b\n' }), reply.text('add.js written.')]
    },
    scriptedAgent('multiplier', 'Implement src/mul.js', [
      // A slip the verifier will catch: a sum, not a product.
      reply.toolUse('Write', { file_path: 'src/mul.js', content: 'module.exports = (a, b) => a + b\n' }),
      reply.text('mul.js written.'),
      (req) =>
        reply.toolUse('Write', {
          file_path: 'src/mul.js',
          content: req.lastUserText.includes('returned 5') ? 'module.exports = (a, b) => a * b\n' : 'wrong message\n'
        }),
      reply.text('mul.js fixed: it multiplies now.')
    ]),
    {
      name: 'verifier',
      match: 'You verify work that other agents did',
      turns: [(req) => reply.toolUses(verifyCommands(req)), (req) => reply.text(verdict(req))]
    },
    scriptedAgent('coordinator', 'You are the coordinator of a crew', [
      reply.toolUses([
        { name: 'SetPhase', input: { phase: 'research', note: 'what exists' } },
        { name: 'Agent', input: { description: 'Survey checks', prompt: 'Survey the checks folder.', subagent_type: 'Explore' } },
        { name: 'Agent', input: { description: 'Survey readme', prompt: 'Survey the README.', subagent_type: 'Explore' } }
      ]),
      reply.toolUses([
        { name: 'SetPhase', input: { phase: 'synthesis' } },
        { name: 'Agent', input: { description: 'Plan the calculator', prompt: 'Make a plan from these findings.', subagent_type: 'Plan' } }
      ]),
      reply.toolUses([
        { name: 'SetPhase', input: { phase: 'implementation' } },
        { name: 'Agent', input: { description: 'Write add', prompt: 'Implement src/add.js.', name: 'adder' } },
        { name: 'Agent', input: { description: 'Write mul', prompt: 'Implement src/mul.js.', name: 'multiplier' } }
      ]),
      (req) =>
        reply.toolUses([
          { name: 'SetPhase', input: { phase: 'verification' } },
          {
            name: 'Agent',
            input: {
              description: 'Verify both',
              prompt: `Verify: add at ${worktreeOf(req.toolResults[1].content)} and mul at ${worktreeOf(req.toolResults[2].content)}`,
              subagent_type: 'verifier'
            }
          }
        ]),
      (req) =>
        reply.toolUse('SendMessage', { to: 'multiplier', message: `Verification failed:\n${req.toolResults[1].content.split('\n')[1]}\nFix src/mul.js.` }),
      reply.text('Waiting for the multiplier to fix its work.'),
      // Woken by the multiplier's report: check the fix with a fresh verifier.
      (req) => reply.toolUse('Agent', { description: 'Verify the fix', prompt: `Verify: mul at ${worktreeOf(req.lastUserText)}`, subagent_type: 'verifier' }),
      (req) => reply.text(`Done. Verification:\n${req.toolResults[0].content.split('\n')[0]}`)
    ])
  ])
}

const phases = (events: AgentEvent[]) => events.filter((e): e is PhaseEvent => e.type === 'phase')

/** Each subagent's phase: the one in force when it (last) started, as the UI groups them (parallel starts sorted). */
function byPhase(events: AgentEvent[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  let phase = 'none'
  for (const e of events) {
    if (e.type === 'phase') phase = e.phase
    if (e.type === 'agent_start' && e.depth > 0) (out[phase] ??= []).push(e.name ?? e.agentType)
  }
  for (const list of Object.values(out)) list.sort()
  return out
}

describe('coordinator mode', () => {
  it('runs research, synthesis, implementation in isolated worktrees and verification with real checks, continuing the worker that failed', async () => {
    const r = calculatorRepo()
    const f = await makeFixture({ respond: script() }, { root: r.sandbox, cwd: r.root, permissionMode: 'bypassPermissions', coordinator: true })
    await f.session.run('Add add() and mul() to the calculator and make the checks pass.')
    await f.session.idle()
    const s = f.session

    // The coordinator had orchestration tools only, and its own prompt.
    const coordReq = f.model.server.requests.find((q) => q.system.includes('You are the coordinator of a crew'))!
    expect([...coordReq.toolNames].sort()).toEqual([...COORDINATOR_TOOLS].sort())
    const main = starts(f.events).find((e) => e.agentId === s.mainAgentId)!
    expect(main.agentType).toBe('coordinator')

    // Four phases, announced by the coordinator, each grouping the agents it started.
    expect(phases(f.events).map((p) => [p.phase, p.agentId])).toEqual([
      ['research', s.mainAgentId],
      ['synthesis', s.mainAgentId],
      ['implementation', s.mainAgentId],
      ['verification', s.mainAgentId]
    ])
    expect(byPhase(f.events)).toEqual({
      research: ['Explore', 'Explore'],
      synthesis: ['Plan'],
      implementation: ['adder', 'multiplier'],
      verification: ['multiplier', 'verifier', 'verifier']
    })

    // The workers were isolated although the coordinator did not ask: separate worktrees and branches.
    const workers = starts(f.events).filter(
      (e): e is AgentStartEvent & { worktree: { path: string; branch: string } } => (e.name === 'adder' || e.name === 'multiplier') && !!e.worktree
    )
    const adder = workers.find((w) => w.name === 'adder')!
    const multiplierRuns = workers.filter((w) => w.name === 'multiplier')
    expect(multiplierRuns).toHaveLength(2)
    expect(multiplierRuns[1].agentId).toBe(multiplierRuns[0].agentId) // continued, not replaced
    expect(multiplierRuns[1].worktree.path).toBe(multiplierRuns[0].worktree.path)
    const mul = multiplierRuns[0]
    expect(adder.worktree.path).not.toBe(mul.worktree.path)
    expect(adder.worktree.branch).toBe(`fanout/${adder.agentId}`)
    expect(mul.worktree.branch).toBe(`fanout/${mul.agentId}`)
    // Each branch holds only its own work; the person's checkout holds neither.
    expect(r.git('show', '--name-only', '--format=', adder.worktree.branch)).toBe('src/add.js')
    expect(r.git('diff', '--name-only', 'main', mul.worktree.branch)).toBe('src/mul.js')
    expect(r.git('show', `${mul.worktree.branch}:src/mul.js`)).toBe('module.exports = (a, b) => a * b')
    for (const file of ['src/add.js', 'src/mul.js']) expect(existsSync(join(r.root, file))).toBe(false)
    expect(r.git('status', '--porcelain')).toBe('')

    // The verifier ran the real checks in the worktrees: the first time mul failed, after the fix it passed.
    const bash = f.events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === 'Bash')
    expect(
      bash.map((b) => [
        b.isError,
        b.output.includes('add ok') ? 'add ok' : b.output.includes('mul ok') ? 'mul ok' : /mul\(2, 3\) returned 5/.test(b.output) ? 'mul returned 5' : b.output
      ])
    ).toEqual([
      [false, 'add ok'],
      [true, 'mul returned 5'],
      [false, 'mul ok']
    ])
    const verifiers = starts(f.events).filter((e) => e.agentType === 'verifier')
    expect(new Set(verifiers.map((v) => v.agentId)).size).toBe(2) // a fresh verifier for the fix
    expect(verifiers.every((v) => v.tools.every((t) => ['Read', 'Glob', 'Grep', 'Bash'].includes(t)))).toBe(true)
    expect(s.lastResult?.result).toBe('Done. Verification:\nPASS: mul ok')
  })

  it('is off by default: the main agent keeps its own prompt and tools, and SetPhase does not exist', async () => {
    const f = await makeFixture({ respond: scriptByAgent([mainAgent([reply.toolUse('SetPhase', { phase: 'research' }), reply.text('ok')])]) })
    await f.session.run('hello')
    const req = f.model.server.requests[0]
    expect(req.toolNames).toContain('Read')
    expect(req.toolNames).not.toContain('SetPhase')
    expect(req.toolNames).not.toContain('TeamCreate')
    expect(phases(f.events)).toEqual([])
    expect(f.events.find((e) => e.type === 'tool_end' && e.name === 'SetPhase')).toMatchObject({
      isError: true,
      output: expect.stringContaining('No tool named "SetPhase"')
    })
  })

  it('reopens as the coordinator after a restart', async () => {
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          {
            name: 'coordinator',
            match: 'You are the coordinator of a crew',
            turns: [reply.toolUse('SetPhase', { phase: 'implementation' }), reply.text('first'), reply.text('second')]
          }
        ])
      },
      { coordinator: true }
    )
    await f.session.run('one')
    await f.session.close()
    const reopened = await f.reopen((base) =>
      import('../session/session').then(({ AgentSession }) =>
        AgentSession.open({ ...base, sessionId: f.session.sessionId, ripgrep: false, managedSettingsFile: null })
      )
    )
    // It is still in the phase it was in, so its next workers still get worktrees.
    expect(reopened.coordinator?.phase).toBe('implementation')
    const result = await reopened.run('two')
    expect(result.result).toBe('second')
    const last = f.model.server.requests[f.model.server.requests.length - 1]
    expect(last.system).toContain('You are the coordinator of a crew')
    expect(last.toolNames).not.toContain('Read')
  })
})
