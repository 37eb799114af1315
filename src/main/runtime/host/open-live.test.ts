// Opening a session while it streams (a page reloaded mid-run): the view from the transcripts joined to
// the live events that arrive meanwhile must read exactly as the live page does — no text twice, none lost.
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createEventPump } from '../../../shared/event-pump'
import type { AgentEvent } from '../../../shared/events'
import { eventsAfter } from '../../../shared/view/live-join'
import { applyEvents } from '../../../shared/view/reducer'
import { emptyEventsState, type EventsState } from '../../../shared/view/session-state'
import { reply, startScriptedServer } from '../model/scripted'
import { LocalRuntimeHost } from './runtime-host'
import { hostOptions } from '../../../../test/support/host'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c()
})

const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')
const mainText = (s: EventsState, sessionId: string) => {
  const view = s.sessions[sessionId]
  return view?.rootAgentId ? view.items[view.rootAgentId].flatMap((i) => (i.kind === 'text' ? [i.text] : [])).join('|') : ''
}

it('a session opened mid-stream, again and again, reads as the live page does', async () => {
  const server = await startScriptedServer({ respond: () => reply.shaped({ textChunk: 7, chunkDelayMs: 1 }, reply.text(words)) })
  const tmp = mkdtempSync(join(tmpdir(), 'fanout-open-live-'))
  mkdirSync(join(tmp, 'project'))
  const h = new LocalRuntimeHost(hostOptions({ cwd: join(tmp, 'project'), dataDir: join(tmp, 'data'), home: join(tmp, 'home') }, server.url))
  cleanup.push(async () => {
    await h.close()
    await server.close()
  })
  // What the page receives: the host's events batched by the same pump the app and browser mode use.
  const batches: AgentEvent[][] = []
  const pump = createEventPump({ send: (b) => batches.push(b) })
  h.onEvents((events) => pump.push(events))

  const { sessionId } = await h.handlers['session.start']({ prompt: 'Say many words.', cwd: join(tmp, 'project') })
  const ended = () => batches.flat().some((e) => e.type === 'agent_end' && e.parentAgentId === null)
  const deltas = () => batches.flat().filter((e) => e.type === 'text_delta').length
  const joins: Array<{ state: EventsState; from: number }> = []
  let opened = 0
  while (!ended()) {
    if (deltas() > 0) {
      const from = batches.length
      const { view, upTo } = await h.handlers['sessions.open']({ sessionId })
      opened++
      expect(upTo).toBeTypeOf('number')
      const held = batches.slice(from).flat()
      joins.push({ state: applyEvents({ sessions: { [sessionId]: view } }, eventsAfter(held, view, upTo)), from: batches.length })
    }
    await new Promise((r) => setTimeout(r, 7))
  }
  expect(opened).toBeGreaterThan(3)

  // The live page saw every batch from the start; each opened page saw the view and what came after it.
  const live = applyEvents(emptyEventsState(), batches.flat())
  expect(mainText(live, sessionId)).toBe(words)
  for (const j of joins.slice(0, -1)) {
    // Mid-stream, before the reply's final message could repair anything, and at the end.
    const midway = applyEvents(j.state, batches.slice(j.from, j.from + 3).flat())
    const upToThere = applyEvents(emptyEventsState(), batches.slice(0, j.from + 3).flat())
    expect(mainText(midway, sessionId)).toBe(mainText(upToThere, sessionId))
    expect(mainText(applyEvents(j.state, batches.slice(j.from).flat()), sessionId)).toBe(words)
  }
})
