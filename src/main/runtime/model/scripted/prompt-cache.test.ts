// The simulated prompt cache against the rules the API documents ("Prompt caching"), each case named after
// the rule it checks. The clock is a variable: nothing here waits.
import { describe, expect, it } from 'vitest'
import { cacheBlocks, PromptCache, type CachePlan } from './prompt-cache'

const CC = { type: 'ephemeral' }
const HOUR = { type: 'ephemeral', ttl: '1h' }
const text = (t: string, control?: object) => ({ type: 'text', text: t, ...(control ? { cache_control: control } : {}) })
const big = (label: string, chars = 8000) => `${label} ${'x'.repeat(chars)}`

function clock() {
  const c = { t: 1_000_000, now: () => c.t }
  return c
}

/** Running token count through block i (0-based over tools, system, message blocks). */
function tokensThrough(body: object, i: number): number {
  const chain = cacheBlocks(body, '')
  if ('error' in chain) throw new Error(chain.error)
  return i < 0 ? 0 : chain.blocks[i].tokens
}

function plan(cache: PromptCache, body: object, workspace = ''): CachePlan {
  const p = cache.plan(body, workspace)
  if ('error' in p) throw new Error(p.error)
  return p
}

/** Plans and commits at once: a request whose response began before the next one arrived. */
function send(cache: PromptCache, body: object, workspace = ''): CachePlan {
  const p = plan(cache, body, workspace)
  cache.commit(p)
  return p
}

const tools = [
  { name: 'Read', description: big('read a file'), input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'Glob', description: big('find files'), input_schema: { type: 'object', properties: { pattern: { type: 'string' } } } }
]
const withTools = (over: object = {}) => ({
  model: 'claude-sonnet-4-5',
  tools,
  system: [text(big('You are a careful agent.'), CC)],
  messages: [{ role: 'user', content: [text('Task one', CC)] }],
  ...over
})

describe('the simulated prompt cache', () => {
  it('writes the prefix up to each breakpoint on a miss, and reads it on the next request', () => {
    const cache = new PromptCache({ now: clock().now })
    const body = withTools()
    const first = send(cache, body)
    expect(first).toMatchObject({ read: 0, write1h: 0, hitAt: -1 })
    expect(first.write5m).toBe(tokensThrough(body, 3)) // tools (2), system (1), the task: all written
    expect(first.uncached).toBe(first.total - first.write5m)
    const again = send(cache, body)
    expect(again).toMatchObject({ read: first.write5m, write5m: 0, hitAt: 3 })
    expect(again.uncached + again.read + again.write5m + again.write1h).toBe(again.total)
  })

  it('makes an entry readable only once the response that wrote it has begun', () => {
    const cache = new PromptCache({ now: clock().now })
    const body = withTools()
    const a = plan(cache, body)
    const b = plan(cache, body) // sent before a's response began: both write
    expect(a.read).toBe(0)
    expect(b.read).toBe(0)
    expect(b.write5m).toBe(a.write5m)
    cache.commit(a)
    expect(plan(cache, body).read).toBe(a.write5m)
  })

  it('shares a stable prefix between siblings: the system breakpoint is read, only the task is written', () => {
    const cache = new PromptCache({ now: clock().now })
    send(cache, withTools())
    const sibling = withTools({ messages: [{ role: 'user', content: [text('Task two, a different one', CC)] }] })
    const p = send(cache, sibling)
    expect(p.read).toBe(tokensThrough(sibling, 2))
    expect(p.write5m).toBe(tokensThrough(sibling, 3) - tokensThrough(sibling, 2))
  })

  it('does not cache a prefix shorter than the model’s minimum, with no error', () => {
    const cache = new PromptCache({ now: clock().now })
    const small = { model: 'claude-sonnet-4-5', system: [text('short system', CC)], messages: [{ role: 'user', content: 'hi' }] }
    expect(send(cache, small)).toMatchObject({ read: 0, write5m: 0, write1h: 0 })
    expect(send(cache, small)).toMatchObject({ read: 0, write5m: 0 })
    // 1,024 tokens suffice for Sonnet 4.5 but not for Haiku 4.5 (4,096) or Opus 4.5 (4,096); Opus 5 needs 512.
    const mid = (model: string) => ({ model, system: [text('y'.repeat(4 * 1500), CC)], messages: [{ role: 'user', content: 'hi' }] })
    expect(send(cache, mid('claude-sonnet-4-5')).write5m).toBeGreaterThan(0)
    expect(send(cache, mid('claude-haiku-4-5')).write5m).toBe(0)
    expect(send(cache, mid('claude-opus-4-5-20251101')).write5m).toBe(0)
    expect(send(cache, mid('claude-opus-5')).write5m).toBeGreaterThan(0)
  })

  it('keys entries per model and per workspace', () => {
    const cache = new PromptCache({ now: clock().now })
    send(cache, withTools(), 'key-a')
    expect(send(cache, withTools({ model: 'claude-opus-4-8' }), 'key-a').read).toBe(0)
    expect(send(cache, withTools(), 'key-b').read).toBe(0)
    expect(send(cache, withTools(), 'key-a').read).toBeGreaterThan(0)
  })

  it('lets an entry live 5 minutes from the start of the request that wrote or last read it', () => {
    const c = clock()
    const cache = new PromptCache({ now: c.now })
    const body = withTools()
    const writer = plan(cache, body)
    c.t += 4 * 60_000 // a response that took 4 minutes to begin
    cache.commit(writer)
    c.t += 59_000
    const read = send(cache, body) // 4:59 after the writer started: still there, and refreshed from now
    expect(read.read).toBeGreaterThan(0)
    c.t += 4 * 60_000 + 59_000
    expect(send(cache, body).read).toBeGreaterThan(0)
    c.t += 5 * 60_000 + 1
    expect(send(cache, body).read).toBe(0)
  })

  it('keeps a 1-hour entry for an hour and bills it as a 1-hour write', () => {
    const c = clock()
    const cache = new PromptCache({ now: c.now })
    const body = withTools({ system: [text(big('You are a careful agent.'), HOUR)], messages: [{ role: 'user', content: 'Task' }] })
    const w = send(cache, body)
    expect(w).toMatchObject({ write5m: 0, write1h: tokensThrough(body, 2) })
    c.t += 59 * 60_000
    expect(send(cache, body).read).toBe(tokensThrough(body, 2))
    c.t += 60 * 60_000 + 1
    expect(send(cache, body).read).toBe(0)
  })

  it('bills mixed TTLs at the documented positions A (hit), B (last 1-hour write) and C (last write)', () => {
    const cache = new PromptCache({ now: clock().now })
    const body = withTools({
      tools: [tools[0], { ...tools[1], cache_control: HOUR }],
      system: [text(big('system'), HOUR)],
      messages: [{ role: 'user', content: [text(big('task'), CC)] }]
    })
    const p = send(cache, body)
    expect(p).toMatchObject({ read: 0, write1h: tokensThrough(body, 2), write5m: tokensThrough(body, 3) - tokensThrough(body, 2) })
    const next = withTools({ tools: body.tools, system: body.system, messages: [{ role: 'user', content: [text(big('another task'), CC)] }] })
    expect(send(cache, next)).toMatchObject({ read: tokensThrough(next, 2), write1h: 0, write5m: tokensThrough(next, 3) - tokensThrough(next, 2) })
  })

  it('refuses a 1-hour breakpoint after a 5-minute one, more than four breakpoints, and cache_control on thinking', () => {
    const cache = new PromptCache({ now: clock().now })
    expect(cache.plan(withTools({ system: [text('a', CC), text('b', HOUR)] }), '')).toMatchObject({ error: expect.stringMatching(/1h.*5m/) })
    const five = withTools({ system: [text('a', CC), text('b', CC), text('c', CC), text('d', CC)] })
    expect(cache.plan(five, '')).toMatchObject({ error: expect.stringMatching(/maximum of 4.*Found 5/) })
    const thinking = withTools({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 's', cache_control: CC }] },
        { role: 'user', content: 'go' }
      ]
    })
    expect(cache.plan(thinking, '')).toMatchObject({ error: expect.stringMatching(/Thinking blocks/) })
    expect(cache.plan(withTools({ system: [text('a', { type: 'ephemeral', ttl: '2h' })] }), '')).toMatchObject({ error: expect.stringMatching(/ttl/) })
  })

  describe('the 20-block lookback (the docs’ growing-conversation example)', () => {
    // No tools or system: block n (1-based) is the nth message block.
    const conversation = (n: number, breakpoints: number[]) => {
      const messages: object[] = []
      for (let i = 1; i <= n; i++)
        messages.push({ role: i % 2 ? 'user' : 'assistant', content: [text(`block ${i} ${'z'.repeat(2000)}`, breakpoints.includes(i) ? CC : undefined)] })
      return { model: 'claude-sonnet-4-5', messages }
    }

    it('turn 2 reads turn 1’s entry 5 blocks back; turn 3, 20 blocks past it, misses; a second breakpoint finds it', () => {
      const cache = new PromptCache({ now: clock().now })
      send(cache, conversation(10, [10]))
      const turn2 = send(cache, conversation(15, [15]))
      expect(turn2.hitAt).toBe(9)
      expect(turn2.read).toBe(tokensThrough(conversation(15, [15]), 9))
      expect(send(new PromptCache({ now: clock().now }), conversation(15, [15])).read).toBe(0)
      const turn3 = plan(cache, conversation(35, [35]))
      expect(turn3.read).toBe(0)
      const turn3b = plan(cache, conversation(35, [15, 35]))
      expect(turn3b.hitAt).toBe(14)
    })

    it('counts the breakpoint as the first of the 20 positions', () => {
      const cache = new PromptCache({ now: clock().now })
      send(cache, conversation(10, [10]))
      expect(plan(cache, conversation(29, [29])).hitAt).toBe(9) // positions 29..10
      expect(plan(cache, conversation(30, [30])).hitAt).toBe(-1) // positions 30..11
    })

    it('never finds stable content behind a breakpoint on a block that changes (the docs’ common mistake)', () => {
      const cache = new PromptCache({ now: clock().now })
      const req = (stamp: string) => ({
        model: 'claude-sonnet-4-5',
        system: [text(big('static context'))],
        messages: [{ role: 'user', content: [text(`${stamp} question`, CC)] }]
      })
      send(cache, req('10:00'))
      const p = send(cache, req('10:01'))
      expect(p.read).toBe(0)
      expect(p.write5m).toBeGreaterThan(0)
    })
  })

  describe('what invalidates the cache (tools → system → messages)', () => {
    const layered = (over: object = {}) =>
      withTools({ tools: [tools[0], { ...tools[1], cache_control: CC }], messages: [{ role: 'user', content: [text(big('long task'), CC)] }], ...over })

    it('a change to the tools invalidates everything', () => {
      const cache = new PromptCache({ now: clock().now })
      send(cache, layered())
      expect(
        send(
          cache,
          layered({
            tools: [
              { ...tools[0], description: 'changed' },
              { ...tools[1], cache_control: CC }
            ]
          })
        ).read
      ).toBe(0)
    })

    it('a change to the system prompt keeps the tools entry', () => {
      const cache = new PromptCache({ now: clock().now })
      send(cache, layered())
      const other = layered({ system: [text(big('A different system prompt'), CC)] })
      expect(send(cache, other).read).toBe(tokensThrough(other, 1))
    })

    it('tool_choice, thinking, effort and images invalidate the messages only', () => {
      for (const over of [{ tool_choice: { type: 'none' } }, { thinking: { type: 'enabled', budget_tokens: 2000 } }, { output_config: { effort: 'low' } }]) {
        const cache = new PromptCache({ now: clock().now })
        send(cache, layered())
        const changed = layered(over)
        expect(send(cache, changed).read).toBe(tokensThrough(changed, 2))
      }
      const cache = new PromptCache({ now: clock().now })
      send(cache, layered())
      const image = layered({
        messages: [
          { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }, text(big('long task'), CC)] }
        ]
      })
      expect(send(cache, image).read).toBe(tokensThrough(image, 2))
    })

    it('leaves Claude Code’s attribution line out of the prompt, as the API lifts it out', () => {
      const cache = new PromptCache({ now: clock().now })
      const billed = (tag: string) =>
        layered({ system: [text(`x-anthropic-billing-header: cc_version=2.1.328.${tag}; cc_entrypoint=sdk-cli;`), text(big('You are a careful agent.'), CC)] })
      send(cache, billed('093'))
      const other = billed('471; cc_is_subagent=true')
      expect(send(cache, other).read).toBe(tokensThrough(other, 3)) // everything: the line is not in the chain
    })

    it('the order of keys in a tool definition is part of the prefix', () => {
      const cache = new PromptCache({ now: clock().now })
      send(cache, layered())
      const [a, b] = layered().tools as any[]
      const reordered = { input_schema: a.input_schema, name: a.name, description: a.description }
      expect(send(cache, layered({ tools: [reordered, b] })).read).toBe(0)
    })

    it('moving a breakpoint does not change the prefix: the marker is not part of it', () => {
      const cache = new PromptCache({ now: clock().now })
      send(cache, withTools({ messages: [{ role: 'user', content: [text(big('q1'), CC)] }] }))
      const grown = withTools({
        messages: [
          { role: 'user', content: [text(big('q1'))] },
          { role: 'assistant', content: 'a1' },
          { role: 'user', content: [text('q2', CC)] }
        ]
      })
      expect(send(cache, grown).hitAt).toBe(3)
    })
  })

  describe('automatic caching (a top-level cache_control)', () => {
    const turn = (n: number, over: object = {}) => {
      const messages: object[] = []
      for (let i = 1; i <= n; i++) {
        messages.push({ role: 'user', content: `User(${i}) ${'u'.repeat(3000)}` })
        if (i < n) messages.push({ role: 'assistant', content: `Asst(${i}) ${'a'.repeat(3000)}` })
      }
      return { model: 'claude-sonnet-4-5', cache_control: CC, system: 'You remember the conversation.', messages, ...over }
    }

    it('moves the breakpoint to the last block each turn: the docs’ multi-turn table', () => {
      const cache = new PromptCache({ now: clock().now })
      const r1 = send(cache, turn(2))
      expect(r1).toMatchObject({ read: 0, write5m: r1.total })
      const r2 = send(cache, turn(3))
      expect(r2.read).toBe(r1.total)
      expect(r2.write5m).toBe(r2.total - r1.total)
      expect(r2.uncached).toBe(0)
    })

    it('is a no-op on a last block that already has the same breakpoint, and refuses a different TTL there or a fifth slot', () => {
      const cache = new PromptCache({ now: clock().now })
      const same = { model: 'claude-sonnet-4-5', cache_control: CC, messages: [{ role: 'user', content: [text('a'), text(big('b'), CC)] }] }
      expect('error' in cache.plan(same, '')).toBe(false)
      expect(cache.plan({ ...same, cache_control: HOUR }, '')).toMatchObject({ error: expect.stringMatching(/ttl '5m'/) })
      const four = {
        model: 'claude-sonnet-4-5',
        cache_control: CC,
        system: [text('1', CC), text('2', CC), text('3', CC), text('4', CC)],
        messages: [{ role: 'user', content: 'q' }]
      }
      expect(cache.plan(four, '')).toMatchObject({ error: expect.stringMatching(/automatic caching needs one/) })
    })

    it('walks back past a block that cannot carry a breakpoint', () => {
      const body = {
        model: 'claude-sonnet-4-5',
        cache_control: CC,
        messages: [
          { role: 'user', content: big('question') },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }] }
        ]
      }
      const p = send(new PromptCache({ now: clock().now }), body)
      expect(p.write5m).toBe(tokensThrough(body, 0))
    })
  })
})
