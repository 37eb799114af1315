// The counts every summary line shows (header, tab strip, status bar): each subagent in exactly one group,
// so the groups add up to the total and no two views can disagree.
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/events'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState } from '../../../shared/view/session-state'
import { agentCounts, countParts, listedSubagents, progressText, subagentsText } from './agent-counts'

const S = 's1'

function session(...build: Build[]) {
  const clock = manualClock()
  const main = agentEvents(S, 'main', clock)
  const sub = (id: string) => agentEvents(S, id, clock, { agentId: 'main', toolUseId: `tu-${id}` })
  const events: AgentEvent[] = [main.start()]
  for (const b of build) events.push(...b(sub))
  return applyEvents(emptyEventsState(), events).sessions[S]
}

type Build = (sub: (id: string) => ReturnType<typeof agentEvents>) => AgentEvent[]

/** Three subagents: a reading, b waiting for permission, c done. */
const readingAskingDone: Build[] = [
  (sub) => [sub('a').start(), sub('a').text('reading')],
  (sub) => [sub('b').start(), sub('b').permissionRequest('r1', 'Bash', { command: 'npm test' })],
  (sub) => [sub('c').start(), sub('c').end('completed')]
]

describe('agent counts by status', () => {
  it('an agent waiting for permission is waiting, not running; stopped and failed agents are counted', () => {
    const s = session(
      ...readingAskingDone,
      (sub) => [sub('d').start(), sub('d').end('stopped')],
      (sub) => [sub('e').start(), sub('e').end('max_turns')],
      (sub) => [sub('f').start(), sub('f').end('failed', { error: 'Overloaded' })]
    )
    const c = agentCounts(s)
    expect(c).toMatchObject({ total: 6, running: 1, waiting: 1, done: 1, stopped: 2, failed: 1, active: 2 })
    expect(c.running + c.waiting + c.done + c.stopped + c.failed).toBe(c.total)
    expect(countParts(c).map((p) => p.text)).toEqual(['1 running', '1 waiting for permission', '1 done', '2 stopped', '1 failed'])
    // A narrow tab strip shows the start of each part; the rest stays for screen readers and the tooltip.
    expect(countParts(c).map((p) => p.short)).toEqual(['1 running', '1 waiting', '1 done', '2 stopped', '1 failed'])
    for (const p of countParts(c)) expect(p.text.startsWith(p.short)).toBe(true)
  })

  it('the main agent is never counted: twelve subagents read as twelve', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `w${i}`)
    const s = session(...ids.map((id) => (sub: (id: string) => ReturnType<typeof agentEvents>) => [sub(id).start()]))
    expect(agentCounts(s)).toMatchObject({ total: 12, running: 12, active: 12 })
    expect(countParts(agentCounts(s)).map((p) => p.text)).toEqual(['12 running'])
  })

  it('a finished run with one agent stopped says so instead of leaving it out', () => {
    const s = session(
      (sub) => [sub('a').start(), sub('a').end('completed')],
      (sub) => [sub('b').start(), sub('b').end('stopped')]
    )
    expect(countParts(agentCounts(s)).map((p) => p.text)).toEqual(['1 done', '1 stopped'])
  })
})

describe('the count in words, the same in every view', () => {
  it('header: "2 of 4 subagents working" while any works, "4 subagents" after', () => {
    const s = session(...readingAskingDone, (sub) => [sub('d').start(), sub('d').end('failed', { error: 'Overloaded' })])
    expect(progressText(agentCounts(s))).toBe('2 of 4 subagents working')
    const done = session(
      (sub) => [sub('a').start(), sub('a').end('completed')],
      (sub) => [sub('b').start(), sub('b').end('stopped')]
    )
    expect(progressText(agentCounts(done))).toBe('2 subagents')
  })

  it('says subagents, never agents, and none as "no subagents"', () => {
    expect(subagentsText(0)).toBe('no subagents')
    expect(subagentsText(1)).toBe('1 subagent')
    expect(subagentsText(4)).toBe('4 subagents')
  })

  it('a session listing counts the main agent too: five listed agents are four subagents', () => {
    expect(subagentsText(listedSubagents(5))).toBe('4 subagents')
    expect(subagentsText(listedSubagents(1))).toBe('no subagents')
    expect(listedSubagents(0)).toBe(0)
  })
})
