import { afterEach, describe, expect, it } from 'vitest'
import { agentEvents, manualClock } from '../../../shared/testing/event-builder'
import { plainTail, plainTailOf, tailWindow } from '../lib/plain-preview'
import { applyReplayed, receiveEvents, resetStore, useApp } from './store'
import { followTextTail, streamedTail } from './stream-tails'

const clock = manualClock()
const main = agentEvents('s1', 'main', clock)
const a = agentEvents('s1', 'a', clock, { agentId: 'main', toolUseId: 't1' })

const lastItem = () => {
  const items = useApp.getState().events.sessions.s1.items.a
  const it = items[items.length - 1]
  if (it.kind !== 'text' && it.kind !== 'thinking') throw new Error(`last item is ${it.kind}`)
  return it
}

/** A delta of markdown as models write it: words, code, bold, now and then a new paragraph or list. */
const delta = (i: number) =>
  `${i % 7 === 3 ? '`code()` ' : ''}${i % 11 === 5 ? '**bold** ' : ''}word${i} and more${i % 17 === 16 ? '\n\n- item ' : ' '}${i % 29 === 28 ? '\n' : ''}`

afterEach(() => resetStore())

describe("a tile's view of its agent's newest text", () => {
  it('reads as plainTail of the whole text at every delta, without reading the whole text', () => {
    receiveEvents([main.start(), a.start(), a.text('Start ')])
    const max = 92
    const follow = followTextTail('s1', 'a', tailWindow(max))
    follow(lastItem())
    // The item's text as the tile sees it, counting the reads that copy it (its length is free).
    let reads = 0
    const watched = (item: { key: string; text: string }) => {
      const text = item.text
      const watchedText = { length: text.length, slice: (...args: [number, number?]) => (reads++, text.slice(...args)) }
      return { key: item.key, text: watchedText as unknown as string }
    }
    for (let i = 0; i < 600; i++) {
      receiveEvents(i % 3 ? [a.text(delta(i))] : [a.text(delta(i)), a.text(delta(i + 1000))])
      const item = lastItem()
      const { window, cut } = follow(watched(item))
      expect(window).toBe(item.text.slice(-tailWindow(max)))
      expect(plainTailOf(window, cut, max)).toBe(plainTail(item.text, max))
    }
    expect(lastItem().text.length).toBeGreaterThan(10_000)
    // Read when the tile first looked (above), never again as the text grew.
    expect(reads).toBe(0)
    expect(streamedTail('s1', 'a').text.length).toBeLessThanOrEqual(4096)
  })

  it('reads the item again when the text changed another way: a new item, text thinking, events replayed', () => {
    receiveEvents([main.start(), a.start(), a.thinking('Let me think about the lexer. ')])
    const follow = followTextTail('s1', 'a', tailWindow(40))
    const check = () => {
      const { window, cut } = follow(lastItem())
      expect(plainTailOf(window, cut, 40)).toBe(plainTail(lastItem().text, 40))
    }
    check()
    receiveEvents([a.thinking('It keeps its position. '.repeat(5))])
    check()
    // Text after thinking is a new item: its own start, not the thinking's end.
    receiveEvents([a.text('The **answer** is short. ')])
    check()
    expect(plainTailOf(...(Object.values(follow(lastItem())) as [string, boolean]), 40)).toBe('The answer is short.')
    // Folded without passing the live path (a replay, a session opened): the counts disagree, the item is read.
    applyReplayed([a.text('Replayed words arrive here. ')])
    check()
    receiveEvents([a.text('And live again. ')])
    check()
    receiveEvents([a.toolStart('t2', 'Read'), a.toolRun('t2', 'Read', { file_path: 'x' }), a.toolEnd('t2', 'Read', 'ok'), a.text('After the tool. ')])
    check()
    expect(follow(lastItem()).window).toBe('After the tool. ')
  })
})
