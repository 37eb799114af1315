import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from './events'
import { EventRedactor, safeCut } from './redact-events'
import {
  clearSecrets,
  holdsSecret,
  madeClean,
  prepareRedaction,
  REDACTED,
  redactedJson,
  redactText,
  redactValue,
  registerEnvironmentSecrets,
  registerSecret
} from './redact'

afterEach(() => clearSecrets())

const KEY = 'sk-ant-api03-Zq9x_K2mW7vB4nR8tY1uP6sD3fG5hJ0kL-aXcVbNmQwErTyUiOpAsDfGhJkLzXcVbNm-AAAA'

describe('redactText', () => {
  it('removes a registered secret wherever it is, even without a known shape', () => {
    registerSecret('gw-token-7f3a9c1e55d04b2a')
    expect(redactText('upstream said: bad token gw-token-7f3a9c1e55d04b2a (expired)')).toBe(`upstream said: bad token ${REDACTED} (expired)`)
    expect(redactText('a{"t":"gw-token-7f3a9c1e55d04b2a"}b')).toBe(`a{"t":"${REDACTED}"}b`)
  })

  it('removes Anthropic key shapes it was never told about', () => {
    expect(redactText(`key=${KEY} end`)).not.toContain('Zq9x')
    expect(redactText(`"${KEY}"`)).toBe(`"${REDACTED}"`)
    expect(redactText('sk-ant-admin01-abcdefgh12345678')).toBe(REDACTED)
    expect(redactText('sk-ant-oat01-abcdefgh12345678')).toBe(REDACTED)
  })

  it('removes credential header values in HTTP, JSON and code forms, keeping the name', () => {
    expect(redactText('x-api-key: abcd1234efgh5678')).toBe(`x-api-key: ${REDACTED}`)
    expect(redactText('{"x-api-key":"abcd1234efgh5678","other":"keep-me-here"}')).toBe(`{"x-api-key":"${REDACTED}","other":"keep-me-here"}`)
    expect(redactText('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig')).toBe(`Authorization: Bearer ${REDACTED}`)
    expect(redactText("headers: { 'authorization': 'Basic dXNlcjpwYXNzd29yZA==' }")).toBe(`headers: { 'authorization': 'Basic ${REDACTED}' }`)
    expect(redactText('proxy-authorization=Bearer abcdefgh')).toBe(`proxy-authorization=Bearer ${REDACTED}`)
  })

  it('removes credential-named assignments (an env dump, a .env file) but not references to them', () => {
    const env = 'PATH=/usr/bin\nANTHROPIC_API_KEY=abcdefgh12345678\nGITHUB_TOKEN=ghp_abcdefghijklmnop\nHOME=/home/me'
    expect(redactText(env)).toBe(`PATH=/usr/bin\nANTHROPIC_API_KEY=${REDACTED}\nGITHUB_TOKEN=${REDACTED}\nHOME=/home/me`)
    expect(redactText('"AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG"')).toBe(`"AWS_SECRET_ACCESS_KEY": "${REDACTED}"`)
    expect(redactText('export API_KEY=$ANTHROPIC_API_KEY')).toBe('export API_KEY=$ANTHROPIC_API_KEY')
    expect(redactText('token: "${GITHUB_TOKEN}"')).toBe('token: "${GITHUB_TOKEN}"')
  })

  it('leaves ordinary prose and code alone', () => {
    const prose = [
      'Authorization: the user must be signed in before the token is checked.',
      'const apiKey = process.env.ANTHROPIC_API_KEY',
      'The secret to a good test is that it can fail.',
      'function authorize(token) { return token.length > 0 }',
      'sk-ant- is the prefix of an Anthropic key'
    ]
    for (const text of prose) expect(redactText(text)).toBe(text)
  })

  it('leaves numbered words and counts alone when a secret holds a run of digits, yet still finds its dump', () => {
    // The hex of "0123456789" is 30 31 … 39: words like w30 w31 … (or decimal bytes 48 49 …) in ordinary output
    // are not a dump of it.
    const key = 'sk-ant-api03-e2e-secret-key-0123456789abcdef'
    registerSecret(key)
    const words = Array.from({ length: 120 }, (_, n) => `w${n}`).join(' ')
    expect(redactText(words)).toBe(words)
    const bytes = Array.from({ length: 60 }, (_, n) => String(40 + n)).join(', ')
    expect(redactText(`item ${bytes}`)).toBe(`item ${bytes}`)
    const hex = [...new TextEncoder().encode(key)].map((b) => b.toString(16).padStart(2, '0')).join(' ')
    expect(holdsSecret(hex)).toBe(true)
    const cEscaped = [...new TextEncoder().encode(key)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')
    expect(holdsSecret(cEscaped)).toBe(true)
  })

  it('registers credential-named environment values only, and ignores values too short to be secrets', () => {
    const isSecret = (name: string) => /TOKEN|SECRET/.test(name)
    registerEnvironmentSecrets(
      { MY_SERVICE_TOKEN: 'tok_5f1e2d3c4b5a', HOME: '/home/someone-long-name', DEBUG_TOKEN: 'x', AWS_SECRET_ACCESS_KEY: 'verysecretvalue99' },
      isSecret
    )
    expect(redactText('a tok_5f1e2d3c4b5a b verysecretvalue99 c /home/someone-long-name')).toBe(`a ${REDACTED} b ${REDACTED} c /home/someone-long-name`)
    registerSecret('short')
    expect(redactText('a short word')).toBe('a short word')
  })
})

describe('redactValue', () => {
  it('copies only what changed and never mutates its argument', () => {
    registerSecret('s3cr3t-value-xyz')
    const clean = { a: { b: ['x', 'y'] }, n: 1 }
    expect(redactValue(clean)).toBe(clean)
    const dirty = { a: { b: ['x', 'it is s3cr3t-value-xyz'] }, keep: { z: 1 } }
    const out = redactValue(dirty)
    expect(out).toEqual({ a: { b: ['x', `it is ${REDACTED}`] }, keep: { z: 1 } })
    expect(dirty.a.b[1]).toBe('it is s3cr3t-value-xyz')
    expect(out.keep).toBe(dirty.keep)
  })

  it('redacts object keys too', () => {
    expect(JSON.stringify(redactValue({ [KEY]: 1 }))).not.toContain('Zq9x')
  })
})

describe('EventRedactor: a key cut between deltas', () => {
  const base = { agentId: 'a1', parentAgentId: null, parentToolUseId: null, sessionId: 's', ts: 1 }
  const delta = (text: string, agentId = 'a1'): AgentEvent => ({ ...base, agentId, type: 'text_delta', text })
  const joined = (events: AgentEvent[]) => events.map((e) => (e.type === 'text_delta' ? e.text : `<${e.type}>`)).join('')

  it('never sends any part of a registered key, however the stream is cut, and loses no other text', () => {
    registerSecret('gw_AbCdEfGhIjKlMnOpQrStUvWx')
    const text = 'The gateway answered 401 for gw_AbCdEfGhIjKlMnOpQrStUvWx, so I stopped.\nNext line.'
    for (let size = 1; size <= 12; size++) {
      const r = new EventRedactor()
      const out: AgentEvent[] = []
      for (let i = 0; i < text.length; i += size) out.push(...r.take(delta(text.slice(i, i + size))))
      out.push(...r.take({ ...base, type: 'turn_end', stopReason: 'end_turn' } as AgentEvent))
      const sent = joined(out)
      expect(sent).toBe(`The gateway answered 401 for ${REDACTED}, so I stopped.\nNext line.<turn_end>`)
      for (const e of out) if (e.type === 'text_delta') expect(e.text).not.toMatch(/AbCd|MnOp|UvWx|gw_/)
    }
  })

  it('holds a header name until its value is complete, then sends them redacted together', () => {
    const r = new EventRedactor()
    const parts = ['curl -H "x-api', '-key: ', 'abcd1234', 'efgh5678" https://x', '\n']
    const out = parts.flatMap((p) => r.take(delta(p)))
    out.push(...r.flush())
    expect(joined(out)).toBe(`curl -H "x-api-key: ${REDACTED}" https://x\n`)
    expect(out.some((e) => e.type === 'text_delta' && e.text.includes('abcd'))).toBe(false)
  })

  it("keeps each agent's order: held text goes out before that agent's next event, other agents are not held up", () => {
    const r = new EventRedactor()
    expect(joined(r.take(delta('hello wor')))).toBe('hello ')
    expect(joined(r.take(delta('other agent ', 'a2')))).toBe('other agent ')
    expect(joined(r.take({ ...base, type: 'tool_start', toolUseId: 't', name: 'Read' } as AgentEvent))).toBe('wor<tool_start>')
  })

  it('redacts a secret registered mid-stream from the deltas after it, and a secret in a stream id every time', () => {
    const r = new EventRedactor()
    const key = 'tok-mid-stream-0a1b2c3d4e5f'
    expect(joined(r.take(delta(`first ${key} `)))).toBe(`first ${key} `) // not a secret yet
    registerSecret(key)
    expect(joined(r.take(delta(`then ${key} `)))).toBe(`then ${REDACTED} `)
    const input = (partialJson: string): AgentEvent => ({ ...base, type: 'tool_input_delta', toolUseId: `tu_${key}`, partialJson })
    for (const e of [...r.take(input('{"a": 1 ')), ...r.take(input(', "b": 2 '))]) expect(JSON.stringify(e)).not.toContain(key)
  })

  it('hands the exits deltas they need not read again, yet never stale after a secret is registered', () => {
    const r = new EventRedactor()
    const later = 'tok-after-the-delta-5e6f7a8b9c'
    const [sent] = r.take(delta(`says ${later} `))
    expect(redactValue(sent)).toBe(sent) // redacted whole already: the WebSocket and IPC send it as it is
    registerSecret(later)
    expect(redactedJson(sent)).not.toContain(later)
  })

  it('cuts after whitespace, and never holds more than a bounded tail', () => {
    expect(safeCut('two words ')).toBe(10)
    expect(safeCut('two words')).toBe(4)
    expect(safeCut('x'.repeat(2000))).toBe(2000 - 512)
    expect(safeCut('Authorization: Bearer ')).toBe(0)
  })

  it('holdsSecret says whether text still carries one', () => {
    expect(holdsSecret(`x ${KEY}`)).toBe(true)
    expect(holdsSecret('nothing here')).toBe(false)
  })
})

describe('encoded forms', () => {
  it('hides the base64 of a registered secret, whatever comes before or after it', () => {
    const key = 'sk-live-9d8c7b6a5f4e3d2c1b0a'
    registerSecret(key)
    for (const around of [
      ['', ''],
      ['x', '\n'],
      ['Bearer ', ''],
      ['ab', 'cd']
    ]) {
      const b64 = btoa(around[0] + key + around[1])
      expect(holdsSecret(`output: ${b64}`)).toBe(true)
    }
  })

  // A view's pieces are indexed at the first text that could hold one (secret-pieces.ts): secrets registered
  // before and after plain texts were read are all found, in every view, in any order of texts.
  it('finds each secret in each encoding whenever it was registered, before or after texts that needed no view but letters', () => {
    const first = 'tok-first-4b8e1d7a9c2f6053e1'
    const second = 'tok-second-a1c9e7f3b5d2480693'
    const bytes = (s: string) => [...new TextEncoder().encode(s)]
    const hex = (s: string) =>
      bytes(s)
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('')
    const decimal = (s: string) => bytes(s).join('')
    registerSecret(first)
    expect(redactText('a plain sentence, nothing in it')).toBe('a plain sentence, nothing in it')
    registerSecret(second)
    for (const secret of [second, first]) {
      expect(holdsSecret(`dump: ${hex(secret)}`)).toBe(true)
      expect(holdsSecret(`bytes: ${decimal(secret)}`)).toBe(true)
      expect(holdsSecret(`piece: ${secret.slice(6, 20)}`)).toBe(true)
    }
    const third = 'tok-third-0e5d3c8b1a9f7246d5'
    registerSecret(third)
    expect(holdsSecret(`bytes: ${decimal(third)}`)).toBe(true)
    expect(holdsSecret(`dump: ${hex(third)}`)).toBe(true)
    expect(holdsSecret(`rev: ${[...third].reverse().join('')}`)).toBe(true)
  })
})

describe('ids made here, and the index built ahead', () => {
  const bytesOf = (s: string) => [...new TextEncoder().encode(s)]
  const hexOf = (s: string) =>
    bytesOf(s)
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('')
  /** Hex digits grouped as a UUID is: 8-4-4-4-12. */
  const asUuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`

  it('never scans an id made here, yet redacts the same shape carrying a piece of the key: only the made id is exempt', () => {
    registerSecret(KEY)
    // madeClean is the caller's word that the text came from random bits: it is taken, not checked. Given text a
    // scan would redact, it shows that the made id is not scanned (only ids made here may be passed to it).
    const made = madeClean(asUuid(hexOf(KEY.slice(20, 36))))
    expect(redactText(made)).toBe(made)
    // A secret registered later (which forgets every string found clean) does not bring it back under scan.
    registerSecret('tok-later-4b8e1d7a9c2f6053e1')
    expect(redactText(made)).toBe(made)
    // What a command could print to pass the key off as an id is redacted all the same.
    const disguised = asUuid(hexOf(KEY.slice(36, 52)))
    expect(redactText(disguised)).not.toBe(disguised)
    expect(redactText(`session ${disguised}`)).toContain(REDACTED)
  })

  it('finds the same pieces with the index built ahead as with the index built at the first text that needs it', () => {
    const texts = [
      `dump: ${hexOf(KEY.slice(14, 40))}`,
      `bytes: ${bytesOf(KEY.slice(20, 40)).join('')}`,
      `piece: ${KEY.slice(30, 50)} and ${[...KEY.slice(15, 45)].reverse().join('')}`,
      `b64: ${btoa(KEY.slice(13))}`,
      'nothing here: 0123456789abcdef0123 is not hers'
    ]
    registerSecret(KEY)
    const lazily = texts.map(redactText)
    clearSecrets()
    registerSecret(KEY)
    prepareRedaction()
    expect(texts.map(redactText)).toEqual(lazily)
    expect(lazily.slice(0, 4).every((t) => t.includes(REDACTED))).toBe(true)
  })
})

describe('redactedJson', () => {
  it('serializes with every string value redacted', () => {
    registerSecret('s3cr3t-value-xyz')
    expect(redactedJson({ a: ['s3cr3t-value-xyz', 1], b: { c: 'x-api-key: abcdefgh1234' } })).toBe(`{"a":["${REDACTED}",1],"b":{"c":"x-api-key: ${REDACTED}"}}`)
  })

  it('hides what only the whole text shows, as redactText of that text would: a credential named by its key, a secret as a key', () => {
    // Each string alone is clean: the key names a credential, the value beside it is one.
    const env = { env: { DEPLOY_API_KEY: 'q8w7e6r5t4y3', authorization: 'Zm9vYmFyYmF6cXV4cXV1eDEyMzQ1Njc4' } }
    const text = redactedJson(env, { wholeText: true })
    expect(text).not.toContain('q8w7e6r5t4y3')
    expect(text).not.toContain('Zm9vYmFyYmF6cXV4cXV1eDEyMzQ1Njc4')
    expect(text).toBe(redactText(JSON.stringify(env)))
    registerSecret('tok-as-a-key-1a2b3c4d5e6f')
    const keyed = redactValue({ note: 'clean' }) // walked clean once: its keys are trusted only inside it
    expect(redactedJson({ wrapper: { 'tok-as-a-key-1a2b3c4d5e6f': 1 }, keyed }, { wholeText: true })).not.toContain('tok-as-a-key-1a2b3c4d5e6f')
  })

  it('leaves a clean line exactly as JSON.stringify writes it', () => {
    const summary = {
      type: 'result',
      result: 'done',
      usage: { input_tokens: 3, output_tokens: 5 },
      agents: [{ agent_id: 'a1b2c3d4e5f6a7b8c', status: 'completed' }]
    }
    expect(redactedJson(summary, { wholeText: true })).toBe(JSON.stringify(summary))
  })
})

describe('redacted once, yet never stale', () => {
  // An event is redacted on the session's bus and written again by a UI transport: the second pass trusts the
  // first only while no secret was registered since, and only for what the first pass read whole.
  const later = 'tok-registered-later-9f8e7d6c5b4a'

  it('redacts again what was redacted before a secret was registered', () => {
    const event = { type: 'tool_end', result: `output mentions ${later}`, nested: { text: `${later}!` } }
    expect(redactValue(event)).toBe(event)
    expect(redactedJson({ events: [event] })).toContain(later)
    registerSecret(later)
    expect(JSON.stringify(redactValue(event))).not.toContain(later)
    expect(redactedJson({ events: [event] })).not.toContain(later)
  })

  it('forgets a long text found clean once that text becomes a secret', () => {
    const long = `${'line of ordinary output\n'.repeat(100)}${later}`
    expect(redactText(long)).toBe(long)
    registerSecret(later)
    expect(redactText(long)).not.toContain(later)
    expect(redactText(long.split('').reverse().join(''))).not.toContain('9f8e7d6c5b4a'.split('').reverse().join(''))
  })

  it('forgets short texts found clean (ids, field names) once a secret they carry is registered', () => {
    const id = `agent-${later}`
    const key = later.slice(-12)
    expect(redactText(id)).toBe(id)
    expect(redactText(`${key}-x`)).toBe(`${key}-x`)
    expect(redactValue({ [id]: 1 })).toEqual({ [id]: 1 })
    registerSecret(later)
    expect(redactText(id)).not.toContain(later)
    expect(Object.keys(redactValue({ [id]: 1 }) as object).join()).not.toContain(later)
    expect(redactText(`${key}-x`)).toBe('[REDACTED]-x') // a piece of it, found clean before, too
  })

  it('stays correct past the short clean strings it keeps (the oldest are forgotten, nothing stale is kept)', () => {
    const many = Array.from({ length: 9000 }, (_, i) => `field-name-${i}`)
    for (const s of many) expect(redactText(s)).toBe(s)
    registerSecret(later)
    expect(redactText(`x ${later} y`)).toBe('x [REDACTED] y')
    for (const s of many.slice(0, 50)) expect(redactText(s)).toBe(s)
  })

  it('still reads, when serializing, what a first pass left unread: class instances and very deep values', () => {
    registerSecret(later)
    class Box {
      constructor(readonly held: string) {}
    }
    const event = { type: 'x', box: new Box(later) }
    expect(redactValue(event)).toBe(event)
    expect(redactedJson({ events: [event] })).not.toContain(later)
    let deep: Record<string, unknown> = { s: later }
    for (let i = 0; i < 80; i++) deep = { d: deep }
    redactValue(deep)
    expect(redactedJson(deep)).not.toContain(later)
  })

  it('writes what a redaction returned without reading it again, and redacts what sits beside it', () => {
    registerSecret(later)
    const redacted = redactValue({ type: 'message', text: `key ${later}` })
    expect(redacted.text).toBe(`key ${REDACTED}`)
    expect(redactedJson({ events: [redacted], notice: later })).toBe(`{"events":[{"type":"message","text":"key ${REDACTED}"}],"notice":"${REDACTED}"}`)
  })
})
