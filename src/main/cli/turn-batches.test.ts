import { describe, expect, it } from 'vitest'
import { turnBatches } from './turn-batches'

/** An async stream of lines the test pushes into, as stdin delivers them. */
function lines() {
  const queued: Array<IteratorResult<string>> = []
  let wake: (() => void) | null = null
  let failure: Error | null = null
  const push = (r: IteratorResult<string>) => {
    queued.push(r)
    wake?.()
  }
  return {
    send: (text: string) => push({ value: text, done: false }),
    end: () => push({ value: undefined, done: true }),
    fail: (err: Error) => {
      failure = err
      wake?.()
    },
    stream: {
      [Symbol.asyncIterator]: () => ({
        async next(): Promise<IteratorResult<string>> {
          while (!queued.length && !failure) await new Promise<void>((r) => (wake = r))
          if (failure) throw failure
          return queued.shift()!
        }
      })
    } as AsyncIterable<string>
  }
}

const tick = () => new Promise((r) => setTimeout(r, 5))

describe('turnBatches', () => {
  it('runs the first message alone and sends those that arrived during a turn together as the next', async () => {
    const input = lines()
    const batches = turnBatches(input.stream)
    input.send('one')
    input.send('two')
    expect((await batches.next()).value).toEqual(['one'])
    // While turn one runs, two more arrive.
    input.send('three')
    await tick()
    expect((await batches.next()).value).toEqual(['two', 'three'])
    const next = batches.next()
    input.send('four')
    expect((await next).value).toEqual(['four'])
    input.end()
    expect((await batches.next()).done).toBe(true)
  })

  it('throws what reading the input threw, after the turns already read', async () => {
    const input = lines()
    const batches = turnBatches(input.stream)
    input.send('one')
    expect((await batches.next()).value).toEqual(['one'])
    input.fail(new Error('stdin: not JSON at line 2'))
    await expect(batches.next()).rejects.toThrow('stdin: not JSON at line 2')
  })
})
