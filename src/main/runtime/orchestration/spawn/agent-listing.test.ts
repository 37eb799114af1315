// What an agent is told about starting agents: only the types its `tools: Agent(a, b)` allows (and no fork
// line unless it may fork), and, at the nesting limit, why it has no Agent tool at all.
import { afterEach, describe, expect, it } from 'vitest'
import { reply, type ParsedRequest } from '../../model/scripted'
import { closeFixtures, makeFixture } from '../testing/session-fixture'

afterEach(closeFixtures)

const MAIN = 'lead agent in Fanout'
const agentFile = (name: string, tools: string) => `---\nname: ${name}\ndescription: The ${name} agent.\ntools: ${tools}\n---\nYou are the ${name}.`
const listing = (req: ParsedRequest) => {
  const d = req.tools.find((t) => t.name === 'Agent')?.description ?? ''
  const at = d.indexOf('Available agent types')
  const block = d.slice(at).split('\n\n')[0]
  return block
    .split('\n')
    .slice(1)
    .filter((l) => l.startsWith('- '))
    .map((l) => l.split(':')[0].slice(2))
}

describe('the Agent tool an agent gets', () => {
  it('lists only the agent types Agent(...) allows, without fork unless allowed', async () => {
    const seen: Record<string, ParsedRequest> = {}
    const f = await makeFixture(
      [
        { match: /You are the (lead|forker)\./, turns: [(req) => ((seen[/You are the (\w+)/.exec(req.system)![1]] = req), reply.text('ok'))] },
        {
          match: MAIN,
          turns: [
            (req) => (
              (seen.main = req),
              reply.toolUses([
                { name: 'Agent', input: { description: 'l', prompt: 'go', subagent_type: 'lead' } },
                { name: 'Agent', input: { description: 'f', prompt: 'go', subagent_type: 'forker' } }
              ])
            ),
            reply.text('done')
          ]
        }
      ],
      {
        files: {
          '.claude/agents/lead.md': agentFile('lead', 'Agent(Explore), Read'),
          '.claude/agents/forker.md': agentFile('forker', 'Agent(Plan, fork), Read')
        }
      }
    )
    await f.session.run('go')
    expect(listing(seen.main)).toEqual(expect.arrayContaining(['general-purpose', 'Explore', 'Plan', 'lead', 'forker', 'fork']))
    expect(listing(seen.lead)).toEqual(['Explore'])
    expect(seen.lead.tools.find((t) => t.name === 'Agent')?.description).toContain('Your definition lets you start only this agent type: Explore.')
    expect(listing(seen.forker)).toEqual(['Plan', 'fork'])
    // The tools' cache breakpoint closes the part every agent shares: an Agent tool of its own comes after it.
    const marked = (req: ParsedRequest) => (req.body.tools as Array<{ name: string; cache_control?: unknown }>).findLastIndex((t) => t.cache_control)
    const agentAt = (req: ParsedRequest) => req.tools.findIndex((t) => t.name === 'Agent')
    expect(marked(seen.main)).toBeGreaterThanOrEqual(agentAt(seen.main))
    expect(marked(seen.lead)).toBeLessThan(agentAt(seen.lead))
    expect(marked(seen.lead)).toBeGreaterThan(-1)
  })

  it('at the nesting limit: no Agent tool, and the agent is told why in its first message', async () => {
    let deep: ParsedRequest | undefined
    const f = await makeFixture(
      [
        { match: 'level two', turns: [(req) => ((deep = req), reply.text('did it myself'))] },
        { match: 'level one', turns: [reply.toolUse('Agent', { description: 'two', prompt: 'level two' }), reply.text('ok')] },
        { match: MAIN, turns: [reply.toolUse('Agent', { description: 'one', prompt: 'level one' }), reply.text('done')] }
      ],
      { limits: { maxDepth: 2 } }
    )
    await f.session.run('go')
    expect(deep!.toolNames).not.toContain('Agent')
    expect(deep!.lastUserText).toContain("You have no Agent tool: you run at nesting depth 2, the session's limit (maxDepth 2), so you cannot start agents.")
  })
})
