// The pooled fetch over TLS as a user's process runs it: a CA given by NODE_EXTRA_CA_CERTS (read by Node at
// start, so the client runs in a process of its own), and connections opened ahead (preconnect) that are
// verified like the pool's own (made by the https Agent's own createConnection, which also offers them the
// TLS session it cached).
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { TLSSocket } from 'node:tls'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../tools/test-kit'

const hasOpenssl = spawnSync('openssl', ['version']).status === 0
const { dir, cleanup } = makeTempDir('fanout-tls-')
let server: Server
let url = ''
const secured: TLSSocket[] = []
const held: (() => void)[] = []
/** What the server saw, in order: TLS handshakes done and requests. */
const order: string[] = []

beforeAll(async () => {
  if (!hasOpenssl) return
  // A self-signed certificate for 127.0.0.1: trusted only through NODE_EXTRA_CA_CERTS.
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1'
    ],
    { stdio: 'ignore' }
  )
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
    order.push('request')
    req.resume()
    req.on('end', () => {
      if (req.url !== '/hold') return res.end('ok')
      held.push(() => res.end('held'))
      // Four calls at once, each answered only when all four arrived: each had a connection of its own.
      if (held.length === 4) for (const answer of held.splice(0)) answer()
    })
  })
  server.on('secureConnection', (s: TLSSocket) => {
    secured.push(s)
    order.push('handshake')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  await build({
    entryPoints: [join(__dirname, 'http-fetch.ts')],
    outfile: join(dir, 'http-fetch.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent'
  })
  writeFileSync(
    join(dir, 'client.cjs'),
    `const { createHttpFetch } = require('./http-fetch.cjs')
const url = process.argv[2]
;(async () => {
  const fetch = createHttpFetch()
  if (process.argv[3] === 'ahead') {
    // A run's first call: its connection opened before anything was sent to the origin, while the run is busy.
    const opened = fetch.preconnect(url, 1)
    await new Promise((r) => setTimeout(r, 300))
    const first = await (await fetch(url + '/ok', { method: 'POST', body: '{}' })).text()
    return process.stdout.write(JSON.stringify({ opened, first }))
  }
  const first = await (await fetch(url + '/ok', { method: 'POST', body: '{}' })).text()
  const opened = fetch.preconnect(url, 4)
  const held = await Promise.all([1, 2, 3, 4].map(() => fetch(url + '/hold', { method: 'POST', body: '{}' }).then((r) => r.text())))
  process.stdout.write(JSON.stringify({ first, opened, held }))
})().catch((err) => { process.stdout.write(JSON.stringify({ error: String(err && err.cause || err) })) })
`
  )
}, 60_000)

afterAll(async () => {
  if (server) await new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())))
  cleanup()
})

const runClient = (env: Record<string, string>, mode = '') =>
  new Promise<any>((resolve) => {
    const child = spawn(process.execPath, [join(dir, 'client.cjs'), url, mode], { env: { PATH: process.env.PATH, ...env } })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d))
    child.on('close', () => resolve(JSON.parse(out || '{}')))
  })

describe.skipIf(!hasOpenssl)('the pooled fetch over TLS (skipped without openssl: it makes the test certificate)', () => {
  it('trusts a CA given by NODE_EXTRA_CA_CERTS, and connections opened ahead carry the sibling calls', async () => {
    secured.length = 0
    const r = await runClient({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') })
    expect(r).toEqual({ first: 'ok', opened: 3, held: ['held', 'held', 'held', 'held'] })
    // The first call's connection and the three opened ahead: no call made a connection of its own.
    expect(secured).toHaveLength(4)
  }, 60_000)

  it("a connection opened ahead of a run's first call is verified and handshaken before the call, which then uses it", async () => {
    secured.length = 0
    order.length = 0
    const r = await runClient({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') }, 'ahead')
    expect(r).toEqual({ opened: 1, first: 'ok' })
    // One TLS connection, its handshake done before the request came: the call did not make its own.
    expect(secured).toHaveLength(1)
    expect(order).toEqual(['handshake', 'request'])
  }, 60_000)

  it('without the CA the server is not trusted: the call fails with the certificate error, as the built-in fetch would', async () => {
    const r = await runClient({})
    expect(String(r.error)).toMatch(/self.signed|certificate/i)
  }, 60_000)
})
