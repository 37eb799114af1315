// The cache minimum, end to end: sixteen Explore siblings on Haiku, whose tools and system prompt (~2,300 tokens)
// are under Haiku's 4,096-token minimum, so nothing of theirs is ever cached. Filled with context that helps them
// (the project's instructions Explore leaves out, a listing of the folder), their shared prefix crosses it: one
// sibling writes it and fifteen read it, and the billed input (uncached ×1, writes ×1.25, reads ×0.1) falls.
// Two siblings gain nothing from a write and are left as they were.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { reply, scriptByAgent, type RecordedRequest } from '../../model/scripted'
import { minCacheableTokens } from '../../model/prompt-cache-rules'
import { closeCacheSession, openCacheSession } from '../testing/cache-session'
import { mainAgent } from '../testing/scripted-agents'

afterEach(closeCacheSession)

const INSTRUCTIONS = 'Tests live beside the code they test. Run one file with `npx vitest run <file>`.'

const explorers = (n: number, brief: string) =>
  reply.toolUses(
    Array.from({ length: n }, (_, i) => ({ name: 'Agent', input: { subagent_type: 'Explore', description: `Look ${i}`, prompt: `${brief}Explore task ${i}` } }))
  )

async function fanOut(
  n: number,
  opts: { brief?: string; turns?: ReturnType<typeof reply.text>[]; onSession?: (session: object) => void } = {}
): Promise<RecordedRequest[]> {
  const respond = scriptByAgent([
    { name: 'explorer', match: /Explore task \d+/, turns: [reply.text('found it')] },
    mainAgent(opts.turns ?? [explorers(n, opts.brief ?? ''), reply.text('done')])
  ])
  const { model, session } = await openCacheSession({
    respond,
    sharing: 'first',
    prefix: 'fanout-cache-fill-',
    prepare: (root) => {
      writeFileSync(join(root, 'CLAUDE.md'), `${INSTRUCTIONS}\n`)
      for (const dir of ['src', 'src/model', 'src/view', 'test', 'docs']) mkdirSync(join(root, dir), { recursive: true })
      // A project of a few hundred files, as most are: its listing is what an Explore agent would look for first.
      for (let i = 0; i < 360; i++) writeFileSync(join(root, ['src', 'src/model', 'src/view', 'test', 'docs'][i % 5], `feature-module-${i}.ts`), '')
    },
    session: { permissionMode: 'bypassPermissions' }
  })
  opts.onSession?.(session)
  const result = await session.run('Fan out.')
  expect(result.status).toBe('completed')
  return model.server.messageRequests().filter((r) => /Explore task \d+/.test(r.firstUserText))
}

/** Billed input of a request in base-price tokens, as the API bills a 5-minute cache. */
const billed = (r: RecordedRequest) => r.cache!.uncached + r.cache!.write5m * 1.25 + r.cache!.write1h * 2 + r.cache!.read * 0.1
const systemText = (r: RecordedRequest) => JSON.stringify((r.body as { system?: unknown }).system ?? '')

describe('filling a fan-out’s shared prefix up to the cache minimum', () => {
  it('sixteen Explore siblings on Haiku: filled with context that helps, one writes the prefix and fifteen read it', async () => {
    const reqs = await fanOut(16)
    expect(reqs).toHaveLength(16)
    expect(minCacheableTokens(reqs[0].model)).toBe(4096)
    // The fill is the context promised: the instructions Explore otherwise goes without, and the folder.
    for (const r of reqs) {
      expect(systemText(r)).toContain(INSTRUCTIONS.slice(0, 40))
      expect(systemText(r)).toContain('src/model/')
    }
    const readers = reqs.filter((r) => r.cache!.read >= 4096)
    expect(readers).toHaveLength(15)
    const writers = reqs.filter((r) => r.cache!.write5m >= 4096)
    expect(writers).toHaveLength(1)
    // What the fan-out paid for its input, against what the same prompts cost uncached (no fill, nothing cached).
    const paid = reqs.reduce((n, r) => n + billed(r), 0)
    const plainPrefix = Math.min(...reqs.map((r) => r.cache!.uncached + r.cache!.read + r.cache!.write5m)) // filled size: an upper bound
    expect(paid).toBeLessThan((16 * plainPrefix) / 2.5)
  })

  it("gives the parent's brief, what every sibling's prompt starts with, in the shared prefix, and no sibling's own part", async () => {
    const brief = `${'We are moving the billing module to the new ledger API; keep the public names. '.repeat(8)}\n`
    const reqs = await fanOut(16, { brief })
    for (const r of reqs) {
      expect(systemText(r)).toContain('<shared_brief>')
      expect(systemText(r)).toContain('keep the public names')
      expect(systemText(r)).not.toMatch(/Explore task \d+/)
    }
    expect(reqs.filter((r) => r.cache!.read >= 4096)).toHaveLength(15)
  })

  it('lists the folder again for a later fan-out once a tool wrote to it', async () => {
    const reqs = await fanOut(4, {
      turns: [explorers(4, ''), reply.toolUse('Write', { file_path: 'src/written-by-the-agent.ts', content: 'x\n' }), explorers(4, ''), reply.text('done')]
    })
    expect(reqs).toHaveLength(8)
    expect(reqs.slice(0, 4).some((r) => systemText(r).includes('written-by-the-agent'))).toBe(false)
    for (const r of reqs.slice(4)) expect(systemText(r)).toContain('src/written-by-the-agent.ts')
  })

  it("keeps the folder's listing through a fan-out: starting agents changes no file, so no sibling walks the folder again", async () => {
    // Each Agent call is a tool that changes something (it starts an agent), and its write-ahead used to drop the
    // listing the siblings share: a fan-out whose calls start one by one as they stream walked the folder for each.
    let dropped = 0
    const reqs = await fanOut(16, {
      onSession: (session) => {
        const defs = (session as unknown as { services: { definitions: { filesMayHaveChanged(): void } } }).services.definitions
        const drop = defs.filesMayHaveChanged.bind(defs)
        defs.filesMayHaveChanged = () => (dropped++, drop())
      }
    })
    expect(reqs).toHaveLength(16)
    expect(dropped).toBe(0)
    expect(reqs.filter((r) => r.cache!.read >= 4096)).toHaveLength(15)
  })

  it('two siblings: a write would cost more than it saves, so their prompts go as they are', async () => {
    const reqs = await fanOut(2)
    expect(reqs).toHaveLength(2)
    for (const r of reqs) {
      expect(systemText(r)).not.toContain('src/model/')
      expect(r.cache!.read + r.cache!.write5m).toBe(0)
    }
  })
})
