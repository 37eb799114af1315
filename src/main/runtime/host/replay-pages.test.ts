import { describe, expect, it } from 'vitest'
import { applyEvents } from '../../../shared/view/reducer'
import { mergeOlderPage } from '../../../shared/view/session-pages'
import { emptyEventsState } from '../../../shared/view/session-state'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { ReplayPages } from './replay-pages'

function longSession() {
  const main = agentEvents('s1', 'main', manualClock())
  const events = [main.start(), main.user('Go')]
  for (let i = 1; i <= 5_000; i++) events.push(main.assistant(`Step ${i}.`))
  return applyEvents(emptyEventsState(), events).sessions.s1
}

describe('ReplayPages', () => {
  it('hands out each older page once, in order, until the session is whole', () => {
    const pages = new ReplayPages()
    const state = longSession()
    const opened = pages.open('s1', state)
    expect(opened.view.items.main).toHaveLength(200)
    let joined = opened.view
    for (let more = opened.more; more; ) {
      const next = pages.take('s1', more)
      joined = mergeOlderPage(joined, next.page)
      expect(() => pages.take('s1', more!)).toThrow(/no page/)
      more = next.more
    }
    expect(joined).toEqual(state)
    pages.close()
  })

  it('answers not_found for another session’s cursor or one it never gave', () => {
    const pages = new ReplayPages()
    const { more } = pages.open('s1', longSession())
    expect(() => pages.take('s2', more!)).toThrow(expect.objectContaining({ code: 'not_found' }))
    expect(() => pages.take('s1', 'nonsense')).toThrow(expect.objectContaining({ code: 'not_found' }))
    expect(pages.open('s3', applyEvents(emptyEventsState(), [agentEvents('s3', 'main', manualClock()).start()]).sessions.s3).more).toBeNull()
    pages.close()
  })
})
