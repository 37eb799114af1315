// `@path` in a prompt sends the file to the model with the prompt, as Claude Code does (the Read tool's
// numbered lines in two reminders after the prompt). What a person's reading in the project may not reach
// is not sent: a file the folder's deny rules protect, a link leading out of the project, a path outside it,
// a credential store. `@agent-type` names an agent, not a file: Claude Code's reminder for an agent the
// session has, nothing for one it does not.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentMentions, fileMentions } from '../../context/file-mentions'
import { reply, type ParsedRequest } from '../../model/scripted'
import { closeFixtures, makeFixture } from '../testing/session-fixture'

afterEach(closeFixtures)

const userText = (req: ParsedRequest): string => (req.messages[0].content as Array<{ type: string; text?: string }>).map((b) => b.text ?? '').join('\n---\n')

describe('file mentions in a prompt', () => {
  it('parses mentions as Claude Code does: quoted paths, trailing punctuation, agents left out', () => {
    expect(fileMentions('see @src/a.ts, and @"docs/my notes.md". Ask @agent-reviewer; mail a@b.c')).toEqual(['src/a.ts', 'docs/my notes.md'])
    expect(agentMentions('Ask @agent-reviewer, then @agent-plugin:fixer. Not mail@agent-x')).toEqual(['reviewer', 'plugin:fixer'])
  })

  it('sends a mentioned file after the prompt; protected, outside and linked-out files are not sent', async () => {
    let seen = ''
    const f = await makeFixture(
      [
        {
          name: 'main',
          match: 'lead agent in Fanout',
          turns: [
            (req: ParsedRequest) => {
              seen = userText(req)
              return reply.text('read')
            }
          ]
        }
      ],
      {
        headless: true,
        files: {
          'src/a.ts': 'export const answer = 42\n',
          'secret.env': 'TOKEN=do-not-send\n',
          '.claude/settings.json': JSON.stringify({ permissions: { deny: ['Read(./secret.env)'] } }),
          '.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews\n---\nYou review.'
        }
      }
    )
    const outside = join(f.home, 'outside.txt')
    writeFileSync(outside, 'OUTSIDE-CONTENT\n')
    symlinkSync(outside, join(f.cwd, 'link.txt'))
    mkdirSync(join(f.home, '.ssh'), { recursive: true })
    writeFileSync(join(f.home, '.ssh', 'id_rsa'), 'PRIVATE-KEY\n')
    await f.session.run(`Fix @src/a.ts; compare @secret.env @link.txt @${outside} @~/.ssh/id_rsa @missing.ts and ask @agent-reviewer, not @agent-nobody`)
    const blocks = seen.split('\n---\n')
    expect(blocks[0]).toMatch(/^Fix @src\/a\.ts/)
    // The agent the session knows (Claude Code's words); none for an agent it does not.
    expect(blocks[1]).toContain('The user has expressed a desire to invoke the agent "reviewer". Please invoke the agent appropriately')
    expect(blocks[2]).toContain(`Called the Read tool with the following input: {"file_path":"${join(f.cwd, 'src/a.ts')}"}`)
    expect(blocks[3]).toMatch(/Result of calling the Read tool:\n\s+1\texport const answer = 42/)
    expect(blocks).toHaveLength(4)
    expect(seen).not.toContain('"nobody"')
    for (const secret of ['do-not-send', 'OUTSIDE-CONTENT', 'PRIVATE-KEY']) expect(seen).not.toContain(secret)
  })
})
