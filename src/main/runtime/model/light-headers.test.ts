// light-headers.ts against Node's own Headers and FormData: the same operations give the same answers,
// so the SDK (which gets these in the CLI bundle) builds the same requests and reads the same responses.
import { describe, expect, it } from 'vitest'
import { FormData as LightFormData, Headers as LightHeaders, isBlob, isReadableStream } from './light-headers'

type HeadersInit = ConstructorParameters<typeof globalThis.Headers>[0]

type AnyHeaders = {
  append(n: string, v: string): void
  set(n: string, v: string): void
  delete(n: string): void
  get(n: string): string | null
  has(n: string): boolean
  getSetCookie(): string[]
  entries(): Iterable<[string, string]>
}
type Make = (init?: unknown) => AnyHeaders

const builtIn: Make = (init) => new globalThis.Headers(init as HeadersInit)
const light: Make = (init) => new LightHeaders(init as never)

/** Runs `steps` on a Headers of each kind; what each returns or throws, and the final listing. */
function outcome(make: Make, init: unknown, steps: (h: AnyHeaders) => unknown[]): unknown {
  let h: AnyHeaders
  try {
    h = make(init)
  } catch (err) {
    return { constructorThrew: (err as Error).constructor.name }
  }
  const answers = steps(h).map(String)
  return { answers, entries: [...h.entries()], setCookies: h.getSetCookie() }
}

const attempt = (f: () => unknown) => {
  try {
    return f()
  } catch (err) {
    return `threw ${(err as Error).constructor.name}`
  }
}

const CASES: [string, unknown, (h: AnyHeaders) => unknown[]][] = [
  ['empty', undefined, (h) => [h.get('x'), h.has('x')]],
  ['record init, mixed case', { 'X-Api-Key': 'k', Accept: 'application/json' }, (h) => [h.get('x-api-key'), h.get('ACCEPT')]],
  [
    'pairs init with repeats',
    [
      ['a', '1'],
      ['A', '2'],
      ['b', '3']
    ],
    (h) => [h.get('a')]
  ],
  [
    'append then set then delete',
    undefined,
    (h) => [h.append('X-A', '1'), h.append('x-a', '2'), h.get('x-a'), h.set('X-A', '3'), h.get('x-a'), h.delete('X-a'), h.has('x-a')]
  ],
  ['values trimmed of HTTP whitespace', undefined, (h) => [h.append('t', ' \t v \r\n'), h.get('t')]],
  ['inner spaces kept', { t: 'a  b' }, (h) => [h.get('t')]],
  ['set-cookie kept apart', undefined, (h) => [h.append('Set-Cookie', 'a=1'), h.append('set-cookie', 'b=2'), h.get('set-cookie')]],
  ['sorted listing', { zeta: '1', Alpha: '2', mid: '3' }, () => []],
  ['invalid name refused', undefined, (h) => [attempt(() => h.append('bad name', 'v')), attempt(() => h.set('', 'v')), attempt(() => h.get('a:b'))]],
  ['CR/LF/NUL inside a value refused', undefined, (h) => [attempt(() => h.append('x', 'a\r\nInjected: 1')), attempt(() => h.set('x', 'a\0b')), h.has('x')]],
  ['invalid record init refused', { 'bad name': 'v' }, () => []],
  ['a pair of three refused', [['a', '1', '2']], () => []],
  [
    'copy of a Headers',
    new globalThis.Headers([
      ['Set-Cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['X', 'y']
    ]),
    (h) => [h.get('x')]
  ]
]

describe('light Headers', () => {
  it.each(CASES)('%s: as the built-in Headers', (_name, init, steps) => {
    expect(outcome(light, init, steps)).toEqual(outcome(builtIn, init, steps))
  })

  it('is an instance of Headers as the SDK checks it, and so is a built-in one; plain objects are not', () => {
    expect(new LightHeaders() instanceof LightHeaders).toBe(true)
    expect(new globalThis.Headers() instanceof LightHeaders).toBe(true)
    expect({ get: () => null } instanceof LightHeaders).toBe(false)
    expect(Object.prototype.toString.call(new LightHeaders())).toBe('[object Headers]')
  })

  it('is taken by the built-in Headers and fetch as headers', () => {
    const ours = new LightHeaders({ 'X-A': '1', 'set-cookie': 'c=1' })
    ours.append('set-cookie', 'd=2')
    const theirs = new globalThis.Headers(ours as unknown as HeadersInit)
    expect([...theirs.entries()]).toEqual([...ours.entries()])
    expect(new globalThis.Request('http://127.0.0.1/', { headers: ours as unknown as HeadersInit }).headers.get('x-a')).toBe('1')
  })
})

describe('light FormData', () => {
  it('answers instanceof for built-in FormData only, and makes built-in ones', () => {
    expect(new globalThis.FormData() instanceof LightFormData).toBe(true)
    expect({} instanceof LightFormData).toBe(false)
    expect(new URLSearchParams() instanceof LightFormData).toBe(false)
    const made = new LightFormData()
    made.append('a', '1')
    expect(made).toBeInstanceOf(globalThis.FormData)
    expect(made.get('a')).toBe('1')
  })
})

describe('the SDK’s body tests without the web globals', () => {
  // What scripts/build.mjs puts in place of `globalThis.X && v instanceof globalThis.X` in the SDK: the same answer.
  class MyStream extends (ReadableStream as new () => object) {}
  const values: Array<[string, unknown]> = [
    ['a ReadableStream', new ReadableStream()],
    ['a subclass of it', new MyStream()],
    ['a Blob', new Blob(['a'])],
    ['a File', new File(['a'], 'a.txt')],
    ['a plain object', { a: 1 }],
    ['an async iterator', (async function* () {})()],
    ['a string', 'text'],
    ['bytes', new Uint8Array(2)],
    ['null', null],
    ['nothing', undefined]
  ]
  it.each(values)('%s', (_label, v) => {
    expect(isReadableStream(v)).toBe(v instanceof globalThis.ReadableStream)
    expect(isBlob(v)).toBe(v instanceof globalThis.Blob)
  })
})
