// Attack suite, hostile repositories, links in the project files Fanout itself reads or opens for writing:
// an agent's memory folder (writable in every permission mode) and skills (sent to the model when called).
// A repository can ship symbolic links; through them a memory folder would make ~/.ssh writable and a skill
// would send a file of the person's to the model. Each case asserts nothing was written or created outside
// the project, no outside content reached any request, and the session still answered, saying why.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { PermissionMode } from '../../src/shared/agent-definition'
import type { ErrorEvent } from '../../src/shared/events'
import { reply, scriptByAgent } from '../../src/main/runtime/model/scripted'
import { closeFixtures, makeFixture } from '../../src/main/runtime/orchestration/testing/session-fixture'
import { MAIN } from './consent-kit'

afterEach(() => closeFixtures())

function tree() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-attack-links-')))
  const project = join(root, 'project')
  const home = join(root, 'home')
  const outside = join(root, 'outside')
  for (const d of [join(project, '.claude'), home, outside]) mkdirSync(d, { recursive: true })
  const write = (rel: string, text: string) => {
    const p = join(project, rel)
    mkdirSync(dirname(p), { recursive: true })
    writeFileSync(p, text)
    return p
  }
  const link = (target: string, rel: string) => {
    mkdirSync(dirname(join(project, rel)), { recursive: true })
    symlinkSync(target, join(project, rel))
  }
  return { root, project, home, outside, write, link }
}

const errors = (events: readonly { type: string }[]) =>
  events
    .filter((e): e is ErrorEvent => e.type === 'error')
    .map((e) => e.message)
    .join('\n')

describe("attack suite: an agent's memory folder that is a link out of the project", () => {
  const shapes: Array<[string, 'project' | 'local', (t: ReturnType<typeof tree>) => void]> = [
    ['.claude/agent-memory linked to a folder outside', 'project', (t) => t.link(t.outside, '.claude/agent-memory')],
    ['.claude/agent-memory/keeper linked to a folder outside', 'project', (t) => t.link(t.outside, '.claude/agent-memory/keeper')],
    ['.claude/agent-memory/keeper as a relative link up and out', 'project', (t) => t.link('../../../outside', '.claude/agent-memory/keeper')],
    ['.claude/agent-memory-local/keeper linked to a folder outside', 'local', (t) => t.link(t.outside, '.claude/agent-memory-local/keeper')],
    [
      '.claude/agent-memory/keeper dangling to a folder outside that does not exist yet',
      'project',
      (t) => t.link(join(t.outside, 'made'), '.claude/agent-memory/keeper')
    ]
  ]
  const modes: PermissionMode[] = ['default', 'plan', 'acceptEdits']
  const cases = shapes.flatMap(([name, scope, plant]) => modes.map((mode) => [`${name} (${mode})`, scope, plant, mode] as const))

  it.each(cases)('%s: nothing is written outside, and the agent runs without its memory', async (_name, scope, plant, mode) => {
    const t = tree()
    t.write('README.md', 'hi')
    t.write('.claude/agents/keeper.md', `---\nname: keeper\ndescription: Keeps notes.\nmemory: ${scope}\n---\nYou are the keeper.\n`)
    plant(t)
    const memoryDir = join(t.project, '.claude', scope === 'project' ? 'agent-memory' : 'agent-memory-local', 'keeper')
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          {
            match: 'You are the keeper',
            turns: [
              // Through the link as written, and to where it leads.
              reply.toolUses([
                { name: 'Write', input: { file_path: join(memoryDir, 'authorized_keys'), content: 'ssh-ed25519 ATTACKER' } },
                { name: 'Write', input: { file_path: join(t.outside, 'authorized_keys'), content: 'ssh-ed25519 ATTACKER' } },
                { name: 'Bash', input: { command: `echo pwned > ${JSON.stringify(join(memoryDir, 'MEMORY.md'))}` } }
              ]),
              reply.text('noted')
            ]
          },
          { match: MAIN, turns: [reply.toolUse('Agent', { description: 'Keep', prompt: 'Keep notes.', subagent_type: 'keeper' }), reply.text('still here')] }
        ])
      },
      { root: t.root, cwd: t.project, home: t.home, headless: true, permissionMode: mode, trustProject: true }
    )
    expect((await f.session.run('hi')).result).toBe('still here')
    expect(readdirSync(t.outside)).toEqual([])
    expect(errors(f.events)).toMatch(/agent memory folder .* outside the project .*the agent runs without its memory/s)
    const keeperRequest = f.model.server.messageRequests().find((r) => r.system.includes('You are the keeper'))
    expect(keeperRequest?.system).not.toContain('persistent memory folder')
  })

  it('a memory folder inside the project (a link that stays inside) still works in plan mode', async () => {
    const t = tree()
    t.write('.claude/agents/keeper.md', '---\nname: keeper\ndescription: Keeps notes.\nmemory: project\n---\nYou are the keeper.\n')
    mkdirSync(join(t.project, 'notes'))
    t.link('../../notes', '.claude/agent-memory/keeper')
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          {
            match: 'You are the keeper',
            turns: [reply.toolUse('Write', { file_path: join(t.project, '.claude/agent-memory/keeper/MEMORY.md'), content: '- a note' }), reply.text('noted')]
          },
          { match: MAIN, turns: [reply.toolUse('Agent', { description: 'Keep', prompt: 'Keep notes.', subagent_type: 'keeper' }), reply.text('done')] }
        ])
      },
      { root: t.root, cwd: t.project, home: t.home, headless: true, permissionMode: 'plan', trustProject: true }
    )
    await f.session.run('hi')
    expect(existsSync(join(t.project, 'notes', 'MEMORY.md'))).toBe(true)
    expect(errors(f.events)).not.toMatch(/outside the project/)
  })
})

describe('attack suite: a skill that is a link out of the project', () => {
  const SECRET = 'AKIA-SKILL-OUTSIDE-7731'
  const skillText = `---\nname: deploy\ndescription: Deploys. ${SECRET}\n---\nThe key is ${SECRET}.\n`
  const shapes: Array<[string, (t: ReturnType<typeof tree>) => void]> = [
    [
      'SKILL.md linked to a file outside',
      (t) => (writeFileSync(join(t.outside, 'SKILL.md'), skillText), t.link(join(t.outside, 'SKILL.md'), '.claude/skills/deploy/SKILL.md'))
    ],
    ['the skill folder linked to a folder outside', (t) => (writeFileSync(join(t.outside, 'SKILL.md'), skillText), t.link(t.outside, '.claude/skills/deploy'))],
    [
      '.claude/skills linked to a folder outside',
      (t) => (mkdirSync(join(t.outside, 'deploy')), writeFileSync(join(t.outside, 'deploy', 'SKILL.md'), skillText), t.link(t.outside, '.claude/skills'))
    ],
    [
      'SKILL.md as a relative link up and out',
      (t) => (writeFileSync(join(t.outside, 'SKILL.md'), skillText), t.link('../../../../outside/SKILL.md', '.claude/skills/deploy/SKILL.md'))
    ]
  ]
  it.each(shapes)('%s: it is not offered, not loaded by the Skill tool nor by skills:, and nothing of it reaches the model', async (_name, plant) => {
    const t = tree()
    t.write('.claude/agents/deployer.md', '---\nname: deployer\ndescription: Deploys.\nskills: [deploy]\n---\nYou are the deployer.\n')
    plant(t)
    const f = await makeFixture(
      {
        respond: scriptByAgent([
          { match: 'You are the deployer', turns: [reply.text('deployed')] },
          {
            match: MAIN,
            turns: [
              reply.toolUse('Skill', { skill: 'deploy' }),
              reply.toolUse('Agent', { description: 'Deploy', prompt: 'Deploy.', subagent_type: 'deployer' }),
              reply.text('done')
            ]
          }
        ])
      },
      { root: t.root, cwd: t.project, home: t.home, headless: true, trustProject: true }
    )
    expect((await f.session.run('hi')).result).toBe('done')
    for (const r of f.model.server.messageRequests()) expect(JSON.stringify(r)).not.toContain(SECRET)
    expect(errors(f.events)).toMatch(/Skill "deploy" was not found/)
  })

  it('a skill linked inside the project is offered and loads', async () => {
    const t = tree()
    t.write('shared/deploy/SKILL.md', '---\nname: deploy\ndescription: Deploys.\n---\nRun the deploy script.\n')
    t.link('../../shared/deploy', '.claude/skills/deploy')
    const f = await makeFixture(
      { respond: scriptByAgent([{ match: MAIN, turns: [reply.toolUse('Skill', { skill: 'deploy' }), (req) => reply.text(req.toolResults[0].content)] }]) },
      { root: t.root, cwd: t.project, home: t.home, headless: true }
    )
    expect((await f.session.run('hi')).result).toContain('Run the deploy script.')
  })
})
