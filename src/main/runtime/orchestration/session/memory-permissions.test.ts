// An agent with `memory:` writes its own MEMORY.md in every permission mode, headless included, as in Claude
// Code: project and local memory too, and from a worktree (where the memory lives in the main checkout). It
// may not write another agent's memory, nor escape its folder through a symlink.
import { mkdirSync, readFileSync, symlinkSync, existsSync, realpathSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { PermissionMode } from '../../../../shared/agent-definition'
import type { AgentEvent, ToolEndEvent } from '../../../../shared/events'
import { reply } from '../../model/scripted'
import { closeFixtures, tempRepo, makeFixture } from '../testing/session-fixture'

afterEach(closeFixtures)

const MAIN = 'lead agent in Fanout'
const keeper = (scope: string, extra = '') =>
  `---\nname: keeper\ndescription: Keeps notes\ntools: Read, Write, Edit\nmemory: ${scope}\n${extra}---\nYou are the keeper.`
const writes = (events: AgentEvent[]) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === 'Write')

async function run(mode: PermissionMode, scope: 'user' | 'project' | 'local', targets: (f: { cwd: string; home: string }) => string[], extra = '') {
  let paths: string[] = []
  const f = await makeFixture(
    [
      {
        name: 'keeper',
        match: 'You are the keeper',
        turns: [() => reply.toolUses(paths.map((p, i) => ({ name: 'Write', input: { file_path: p, content: `note ${i}\n` } }))), reply.text('noted')]
      },
      {
        name: 'main',
        match: MAIN,
        turns: [reply.toolUse('Agent', { description: 'keep notes', prompt: 'Note it.', subagent_type: 'keeper' }), reply.text('done')]
      }
    ],
    { permissionMode: mode, headless: true, files: { '.claude/agents/keeper.md': keeper(scope, extra) } }
  )
  paths = targets(f)
  await f.session.run('go')
  return { f, results: writes(f.events) }
}

const memory = (root: string, scope: string) => join(root, '.claude', scope === 'local' ? 'agent-memory-local' : 'agent-memory', 'keeper', 'MEMORY.md')

describe('agent memory and permissions', () => {
  for (const mode of ['default', 'acceptEdits', 'plan', 'dontAsk'] as const) {
    it(`${mode}: the agent writes its own user, project and local MEMORY.md; not another agent's, nor project files`, async () => {
      for (const scope of ['user', 'project', 'local'] as const) {
        const { f, results } = await run(mode, scope, ({ cwd, home }) => [
          memory(scope === 'user' ? home : cwd, scope),
          // Another agent's user memory: outside the project, so no mode but bypass allows it.
          join(home, '.claude', 'agent-memory', 'other-agent', 'MEMORY.md'),
          ...(mode === 'acceptEdits' ? [] : [join(cwd, 'notes.txt')])
        ])
        const own = memory(scope === 'user' ? f.home : f.cwd, scope)
        expect(results[0].isError, `${mode} ${scope}: ${results[0].output}`).toBe(false)
        expect(readFileSync(own, 'utf8')).toBe('note 0\n')
        expect(results[1].isError, `${mode} ${scope}: another agent's memory`).toBe(true)
        expect(existsSync(join(f.home, '.claude', 'agent-memory', 'other-agent', 'MEMORY.md'))).toBe(false)
        if (mode !== 'acceptEdits') expect(results[2].isError).toBe(true)
        await closeFixtures()
      }
    })
  }

  it('a symlink in the memory folder that points elsewhere does not let a write out', async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-outside-')))
    const { f, results } = await run('default', 'project', ({ cwd }) => {
      const dir = join(cwd, '.claude', 'agent-memory', 'keeper')
      mkdirSync(dir, { recursive: true })
      symlinkSync(outside, join(dir, 'escape'))
      return [join(dir, 'escape', 'owned.txt')]
    })
    expect(results[0].isError).toBe(true)
    expect(existsSync(join(outside, 'owned.txt'))).toBe(false)
    expect(f.events.some((e) => e.type === 'agent_end')).toBe(true)
  })

  it('an isolated agent writes its project memory in the main checkout, not on its branch', async () => {
    const r = tempRepo()
    let target = ''
    const f = await makeFixture(
      [
        {
          name: 'keeper',
          match: 'You are the keeper',
          turns: [() => reply.toolUse('Write', { file_path: target, content: 'remembered\n' }), reply.text('noted')]
        },
        {
          name: 'main',
          match: MAIN,
          turns: [reply.toolUse('Agent', { description: 'keep notes', prompt: 'Note it.', subagent_type: 'keeper' }), reply.text('done')]
        }
      ],
      { cwd: r.root, permissionMode: 'default', headless: true, files: { '.claude/agents/keeper.md': keeper('project', 'isolation: worktree\n') } }
    )
    target = memory(r.root, 'project')
    await f.session.run('go')
    const [result] = writes(f.events)
    expect(result.isError, result.output).toBe(false)
    expect(readFileSync(target, 'utf8')).toBe('remembered\n')
  })
})
