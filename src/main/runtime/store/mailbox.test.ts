import { spawn } from 'node:child_process'
import { appendFile, readdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { claimMessages, peekMessages, postMessage, type MailboxMessage } from './mailbox'
import { tempDataDir } from './test-fixtures'

let dataDir: string
let cleanup: () => Promise<void>
beforeEach(async () => ({ dir: dataDir, cleanup } = await tempDataDir()))
afterEach(() => cleanup())

const S = 'sess'

/** Every message exactly once; each sender's messages in the order sent within every claim. */
function expectExactlyOnce(claims: MailboxMessage[][], senders: number, perSender: number): void {
  const all = claims.flat()
  const ids = new Set(all.map((m) => m.id))
  expect(ids.size).toBe(all.length) // nothing twice
  expect(all.length).toBe(senders * perSender) // nothing lost
  for (const claim of claims) {
    const last = new Map<string, number>()
    for (const m of claim) {
      expect(Number(m.text)).toBeGreaterThan(last.get(m.from) ?? -1)
      last.set(m.from, Number(m.text))
    }
  }
}

describe('mailbox', () => {
  it('an agent that never had mail finds none and leaves nothing on disk', async () => {
    expect(await claimMessages(dataDir, S, 'newcomer')).toEqual([])
    expect(await readdir(dataDir, { recursive: true })).not.toContainEqual(expect.stringContaining('newcomer'))
    await postMessage(dataDir, S, 'newcomer', { from: 'main', text: 'late' })
    expect((await claimMessages(dataDir, S, 'newcomer')).map((m) => m.text)).toEqual(['late'])
  })

  it('delivers posted messages once, oldest first, and keeps a peek non-destructive', async () => {
    await postMessage(dataDir, S, 'reviewer', { from: 'main', text: 'first', summary: 'hello' })
    await postMessage(dataDir, S, 'reviewer', { from: 'main', text: 'second' })
    expect((await peekMessages(dataDir, S, 'reviewer')).map((m) => m.text)).toEqual(['first', 'second'])
    const got = await claimMessages(dataDir, S, 'reviewer')
    expect(got).toMatchObject([{ from: 'main', to: 'reviewer', text: 'first', summary: 'hello' }, { text: 'second' }])
    expect(await claimMessages(dataDir, S, 'reviewer')).toEqual([])
    expect(await peekMessages(dataDir, S, 'reviewer')).toEqual([])
    await postMessage(dataDir, S, 'reviewer', { from: 'x', text: 'third' })
    expect((await claimMessages(dataDir, S, 'reviewer')).map((m) => m.text)).toEqual(['third'])
    expect(await claimMessages(dataDir, S, 'nobody')).toEqual([])
  })

  it('leaves a line still being written for the next reader, and survives a torn fragment', async () => {
    const file = join(dataDir, 'sessions', S, 'mailbox', 'a.jsonl')
    await postMessage(dataDir, S, 'a', { from: 'm', text: 'one' })
    await appendFile(file, '\n{"id":"half') // a writer mid-line (or one that crashed there)
    expect((await claimMessages(dataDir, S, 'a')).map((m) => m.text)).toEqual(['one'])
    await postMessage(dataDir, S, 'a', { from: 'm', text: 'two' })
    const problems: string[] = []
    expect((await claimMessages(dataDir, S, 'a', { onProblem: (p) => problems.push(p) })).map((m) => m.text)).toEqual(['two'])
    expect(problems).toEqual([expect.stringContaining('skipped a line that is not a message')])
  })

  it('under load (dozens of writers, racing readers) loses nothing and delivers nothing twice', async () => {
    const senders = 40
    const perSender = 100
    const claims: MailboxMessage[][] = []
    let writing = true
    const writers = Array.from({ length: senders }, async (_, w) => {
      for (let i = 0; i < perSender; i++) await postMessage(dataDir, S, 'hub', { from: `w${w}`, text: String(i) })
    })
    const readers = Array.from({ length: 8 }, async () => {
      while (writing) {
        const got = await claimMessages(dataDir, S, 'hub')
        if (got.length) claims.push(got)
        await new Promise((r) => setImmediate(r))
      }
    })
    await Promise.all(writers)
    writing = false
    await Promise.all(readers)
    claims.push(await claimMessages(dataDir, S, 'hub'))
    expectExactlyOnce(claims, senders, perSender)
    expect(claims.filter((c) => c.length).length).toBeGreaterThan(1) // the readers really did share the work
  })

  it('holds across processes: writer and reader processes racing on one mailbox', async () => {
    const out = join(dataDir, 'mailbox-bundle.mjs')
    await build({ entryPoints: [resolve(__dirname, 'mailbox.ts')], outfile: out, bundle: true, platform: 'node', format: 'esm', logLevel: 'silent' })
    const done = join(dataDir, 'writers-done')
    const driver = join(dataDir, 'driver.mjs')
    await writeFile(
      driver,
      `import { existsSync } from 'node:fs'
import { postMessage, claimMessages } from ${JSON.stringify(out)}
const [role, dataDir, n, count] = process.argv.slice(2)
if (role === 'write') {
  for (let i = 0; i < Number(count); i++) await postMessage(dataDir, 'sess', 'hub', { from: 'p' + n, text: String(i) })
} else {
  for (;;) {
    const finished = existsSync(${JSON.stringify(done)})
    const got = await claimMessages(dataDir, 'sess', 'hub')
    if (got.length) process.stdout.write(JSON.stringify(got) + '\\n')
    if (finished) break
  }
}
`
    )
    const run = (args: string[]) =>
      new Promise<string>((ok, fail) => {
        const p = spawn(process.execPath, [driver, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
        let stdout = ''
        let stderr = ''
        p.stdout.on('data', (d) => (stdout += d))
        p.stderr.on('data', (d) => (stderr += d))
        p.on('exit', (code) => (code === 0 ? ok(stdout) : fail(new Error(`${args[0]} process failed (${code}): ${stderr}`))))
      })
    const senders = 12
    const perSender = 150
    const readers = Array.from({ length: 4 }, () => run(['read', dataDir, '0', '0']))
    await Promise.all(Array.from({ length: senders }, (_, n) => run(['write', dataDir, String(n), String(perSender)])))
    await writeFile(done, '')
    const claims = (await Promise.all(readers)).flatMap((s) =>
      s
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as MailboxMessage[])
    )
    claims.push(await claimMessages(dataDir, S, 'hub'))
    expectExactlyOnce(claims, senders, perSender)
    // Nothing is deleted: the claim chain records every range taken.
    expect((await readdir(join(dataDir, 'sessions', S, 'mailbox', 'hub.claims'))).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })
})
