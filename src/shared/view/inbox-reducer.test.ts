// Messages delivered to agents, as their transcripts show them: once, where they were delivered, in words
// (no protocol markup), never cutting a streamed block in two, and the same live and replayed.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../events'
import { agentEvents, manualClock } from '../testing/event-builder'
import { transcriptLines } from '../testing/transcript-lines'
import { applyEvents } from './reducer'
import { emptyEventsState, type SessionState } from './session-state'

const S = 's1'
const REPORT = [
  '<task-notification>',
  '<task-id>w1</task-id>',
  '<agent-type>general-purpose</agent-type>',
  '<name>ada</name>',
  '<status>completed</status>',
  '<summary>Agent "ada · team lexer-crew" completed</summary>',
  '<result>',
  'Nothing left for me.',
  '',
  'agentId: w1 (name: ada)',
  'worktree: its changes are on branch fanout/w1 (commit 36b9ac68b359), checked out at /tmp/p/.fanout-worktrees/w1',
  '<usage>tokens: 4981 in, 206 out; tool_uses: 4; duration_ms: 9282; cost_usd: 0.0180</usage>',
  '</result>',
  '</task-notification>'
].join('\n')
const fromUser = (text: string) => `<agent-message from="user">\n${text}\n</agent-message>`

function setup() {
  const clock = manualClock()
  const main = agentEvents(S, 'main', clock)
  const w1 = agentEvents(S, 'w1', clock, { agentId: 'main', toolUseId: 'tu1' })
  const w2 = agentEvents(S, 'w2', clock, { agentId: 'main', toolUseId: 'tu2' })
  const all: AgentEvent[] = []
  let state = emptyEventsState()
  const apply = (...events: AgentEvent[]): SessionState => {
    all.push(...events)
    state = applyEvents(state, events)
    return state.sessions[S]
  }
  const lines = (agentId: string) => transcriptLines(state.sessions[S], agentId)
  /** The same events folded at once, as a reopened session is. */
  const replayed = () => applyEvents(emptyEventsState(), all).sessions[S]
  return { main, w1, w2, apply, lines, replayed }
}

describe('messages delivered to agents', () => {
  it('a task notification is one report row; the user message that hands it to the model adds nothing', () => {
    const t = setup()
    t.apply(t.main.start(), t.w1.start({ name: 'ada' }), t.main.assistant('Waiting for the team.'), t.main.end('completed'))
    t.apply(
      t.main.received('w1', REPORT, 'ada · team lexer-crew: completed'),
      t.main.start({ prompt: REPORT, description: '<task-notification>' }),
      t.main.user([{ type: 'text', text: REPORT }]),
      t.main.assistant('Ada is done.')
    )
    expect(t.lines('main')).toEqual(['text:Waiting for the team.', 'report:ada:completed:Nothing left for me.', 'text:Ada is done.'])
    expect(JSON.stringify(t.replayed().items.main)).not.toMatch(/task-notification|agentId:|cost_usd|usage>/)
    // Woken by the report, the main agent keeps the task it was started with as its label.
    expect(t.replayed().agents.main.description).toBe('Task')
  })

  it('the person’s message to a working agent is their words as "You", shown once', () => {
    const t = setup()
    t.apply(t.main.start(), t.main.user('Review the parser'), t.main.assistant('On it.'))
    t.apply(t.main.received('user', fromUser('Please continue.')), t.main.user([{ type: 'text', text: fromUser('Please continue.') }]))
    expect(t.lines('main')).toEqual(['user:Review the parser', 'text:On it.', 'person:Please continue.'])
  })

  it('a message between agents names its sender, not its id', () => {
    const t = setup()
    t.apply(t.main.start(), t.w1.start({ name: 'ada' }), t.w2.start({ agentType: 'code-reviewer' }))
    t.apply(
      t.w2.received('w1', '<agent-message from="ada" summary="schema">\nThe schema is ready.\n</agent-message>', 'schema'),
      t.main.received('w2', '<agent-message from="w2">\nFound two bugs.\n</agent-message>')
    )
    expect(t.lines('w2')).toEqual(['message:ada:The schema is ready.'])
    expect(t.lines('main')).toEqual(['message:code-reviewer:Found two bugs.'])
  })

  it('a message that arrives mid-stream follows the reply being streamed instead of cutting it', () => {
    const t = setup()
    t.apply(t.main.start(), t.w1.start(), t.w1.turnStart(1), t.w1.text('1. `lex()` drops positions.\n2. S'))
    const received = t.apply(t.w1.received('user', fromUser('Also check the parser.')))
    // Nothing moves under the stream: the delta still extends the same block.
    expect(t.lines('w1')).toEqual(['text~:1. `lex()` drops positions.\n2. S'])
    const next = t.apply(t.w1.text('plitting loses them.'))
    expect(t.lines('w1')).toEqual(['text~:1. `lex()` drops positions.\n2. Splitting loses them.'])
    expect(next.agents).toBe(received.agents) // a delta still changes its item only
    t.apply(t.w1.assistant('1. `lex()` drops positions.\n2. Splitting loses them.'), t.w1.turnEnd(1))
    t.apply(t.w1.turnStart(2), t.w1.user([{ type: 'text', text: fromUser('Also check the parser.') }]), t.w1.text('Checking the parser.'))
    const expected = ['text:1. `lex()` drops positions.\n2. Splitting loses them.', 'person:Also check the parser.', 'text~:Checking the parser.']
    expect(t.lines('w1')).toEqual(expected)
    expect(transcriptLines(t.replayed(), 'w1')).toEqual(expected)
  })

  it('a message held behind a stream shows when the agent is stopped mid-reply', () => {
    const t = setup()
    t.apply(t.main.start(), t.w1.start(), t.w1.text('Half a'), t.w1.received('user', fromUser('Stop.')), t.w1.end('stopped'))
    expect(t.lines('w1')).toEqual(['text:Half a', 'person:Stop.'])
  })

  it('a message to an agent between replies (running a tool) shows at once', () => {
    const t = setup()
    t.apply(t.main.start(), t.w1.start(), t.w1.assistant([{ type: 'tool_use', id: 'r1', name: 'Read', input: {} }]), t.w1.toolRun('r1', 'Read', {}))
    t.apply(t.w1.received('user', fromUser('Stop after this file.')))
    expect(t.lines('w1')).toEqual(['tool:Read:running', 'person:Stop after this file.'])
  })

  it('a recorded envelope without its delivery event (an older transcript) is still shown in words', () => {
    const t = setup()
    t.apply(
      t.main.start(),
      t.w1.start({ name: 'ada' }),
      t.main.user([
        { type: 'text', text: REPORT },
        { type: 'text', text: fromUser('Go on.') },
        { type: 'text', text: 'Plain follow-up' }
      ])
    )
    expect(t.lines('main')).toEqual(['report:ada:completed:Nothing left for me.', 'person:Go on.', 'user:Plain follow-up'])
  })
})
