// The Skill tool over the project's, the user's and the plugins' skills, and unknown `skills:` names warned
// about at run time and by `fanout agents check`.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ToolEndEvent, ToolRunEvent } from '../../../../shared/events'
import { agentsCommand } from '../../../cli/agents-command'
import { reply } from '../../model/scripted'
import { closeFixtures, makeFixture } from '../testing/session-fixture'
import { spawnAllThenDone } from '../testing/scripted-agents'

afterEach(closeFixtures)

const MAIN = 'lead agent in Fanout'
const skill = (name: string, description: string, body: string, extra = '') => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`
const ends = (events: AgentEvent[], name: string) => events.filter((e): e is ToolEndEvent => e.type === 'tool_end' && e.name === name)

function writeUserAndPluginSkills(root: string, home: string): string {
  mkdirSync(join(home, '.claude/skills/changelog'), { recursive: true })
  writeFileSync(join(home, '.claude/skills/changelog/SKILL.md'), skill('changelog', 'Write the changelog entry', 'List the changes by kind.'))
  const plugin = join(root, 'plugins', 'shipit')
  mkdirSync(join(plugin, 'skills/deploy'), { recursive: true })
  writeFileSync(join(plugin, 'skills/deploy/SKILL.md'), skill('deploy', 'Deploy to staging', 'Run ./deploy.sh staging.'))
  return plugin
}

describe('the Skill tool', () => {
  it("lists every skill the model may call and loads one's instructions with its arguments; an unknown name is refused with the nearest one", async () => {
    let tool: { description?: string } | undefined
    const f = await makeFixture(
      [
        {
          match: MAIN,
          turns: [
            (req) => {
              tool = req.tools.find((t) => t.name === 'Skill')
              return reply.toolUses([
                { name: 'Skill', input: { skill: 'release-notes', args: 'v2.0' } },
                { name: 'Skill', input: { skill: 'shipit:deploy' } },
                { name: 'Skill', input: { skill: 'changelg' } },
                { name: 'Skill', input: { skill: 'secret-ops' } }
              ])
            },
            reply.text('done')
          ]
        }
      ],
      {
        files: {
          '.claude/skills/release-notes/SKILL.md': skill('release-notes', 'Draft release notes', 'Write notes for version $ARGUMENTS from the git log.'),
          '.claude/skills/secret-ops/SKILL.md': skill('secret-ops', 'Only for people', 'Do not run this.', 'disable-model-invocation: true\n')
        }
      }
    )
    const plugin = writeUserAndPluginSkills(f.root, f.home)
    const s = await f.reopen(async (base) => {
      const { AgentSession } = await import('../session/session')
      return AgentSession.create({
        ...base,
        ripgrep: false,
        managedSettingsFile: null,
        onError: () => undefined,
        agentSources: { pluginDirs: [{ name: 'shipit', dir: plugin }] }
      })
    })
    const events: AgentEvent[] = []
    s.bus.subscribe((e) => events.push(e))
    await s.run('release it')
    expect(tool?.description).toContain('- release-notes: Draft release notes\n- changelog: Write the changelog entry\n- shipit:deploy: Deploy to staging')
    expect(tool?.description).not.toContain('secret-ops')
    // Concurrent calls end in any order: each result by the call it answers.
    const runs = events.filter((e): e is ToolRunEvent => e.type === 'tool_run' && e.name === 'Skill')
    const result = (name: string) =>
      ends(events, 'Skill').find((e) => e.toolUseId === runs.find((r) => (r.input as { skill: string }).skill === name)?.toolUseId)!
    const [notes, deploy, typo, hidden] = ['release-notes', 'shipit:deploy', 'changelg', 'secret-ops'].map(result)
    expect(notes.isError, notes.output).toBe(false)
    expect(notes.output).toContain('Write notes for version v2.0 from the git log.')
    expect(notes.output).toContain(join(f.cwd, '.claude/skills/release-notes'))
    expect(deploy.output).toContain('Run ./deploy.sh staging.')
    expect(typo).toMatchObject({ isError: true, output: expect.stringContaining('There is no skill named "changelg".') })
    expect(hidden.isError).toBe(true)
  })

  it('a subagent has the Skill tool when its tools allow it; an unknown skill in skills: is warned about as it starts', async () => {
    const seen: Record<string, string[]> = {}
    const f = await makeFixture(
      [
        { match: /You are (open|narrow)\./, turns: [(req) => ((seen[/You are (\w+)/.exec(req.system)![1]] = req.toolNames), reply.text('ok'))] },
        {
          match: MAIN,
          turns: spawnAllThenDone([
            { description: 'o', prompt: 'go', subagent_type: 'open' },
            { description: 'n', prompt: 'go', subagent_type: 'narrow' }
          ])
        }
      ],
      {
        files: {
          '.claude/agents/open.md': '---\nname: open\ndescription: open\nskills: [releas-notes]\n---\nYou are open.',
          '.claude/agents/narrow.md': '---\nname: narrow\ndescription: narrow\ntools: Read\n---\nYou are narrow.',
          '.claude/skills/release-notes/SKILL.md': skill('release-notes', 'Draft release notes', 'Write notes.')
        }
      }
    )
    await f.session.run('go')
    expect(seen.open).toContain('Skill')
    expect(seen.narrow).not.toContain('Skill')
    const warning = f.events.find((e) => e.type === 'error' && e.message.includes('releas-notes'))
    expect(warning).toMatchObject({
      retrying: false,
      message: expect.stringMatching(/open\.md: Skill "releas-notes" was not found: .*Did you mean "release-notes"\? The agent runs without it\.$/)
    })
  })

  it('is left out while there is no skill the model may load, and offered to the agents started once one is added', async () => {
    const seen: string[][] = []
    const record = (req: { toolNames: string[] }) => void seen.push(req.toolNames)
    const spawnHelper = () => reply.toolUse('Agent', { description: 'h', prompt: 'Helper task' })
    const f = await makeFixture(
      [
        { match: /Helper task/, turns: [(req) => (record(req), reply.text('ok'))] },
        { match: MAIN, turns: [(req) => (record(req), spawnHelper()), reply.text('done'), () => spawnHelper(), reply.text('done')] }
      ],
      // Only a skill the model may not call: nothing to offer it.
      { files: { '.claude/skills/secret-ops/SKILL.md': skill('secret-ops', 'Only for people', 'Do not run this.', 'disable-model-invocation: true\n') } }
    )
    await f.session.run('go')
    expect(seen).toHaveLength(2)
    for (const names of seen) {
      expect(names).toContain('Read')
      expect(names).not.toContain('Skill')
    }
    mkdirSync(join(f.cwd, '.claude/skills/release-notes'), { recursive: true })
    writeFileSync(join(f.cwd, '.claude/skills/release-notes/SKILL.md'), skill('release-notes', 'Draft release notes', 'Write notes.'))
    await f.session.reload()
    seen.length = 0
    await f.session.run('go again')
    expect(seen).toHaveLength(1)
    expect(seen[0]).toContain('Skill')
  })

  it('`fanout agents check` warns about a skill that is not installed, at the skills: line', async () => {
    const f = await makeFixture(
      { respond: () => reply.text('unused') },
      { files: { '.claude/agents/writer.md': '---\nname: writer\ndescription: Writes\nskills:\n  - missing-skill\n---\nYou write.' } }
    )
    const out: string[] = []
    const code = await agentsCommand(['check', '--cwd', f.cwd], { stdout: (t) => out.push(t), stderr: (t) => out.push(t), env: { HOME: f.home }, cwd: f.cwd })
    expect(code).toBe(0)
    expect(out.join('')).toMatch(
      /\.claude\/agents\/writer\.md:4:1: warning: Skill "missing-skill" was not found: no \.claude\/skills\/missing-skill\/SKILL\.md/
    )
  })
})
