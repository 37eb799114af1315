// Headers and FormData for the Anthropic SDK and http-fetch.ts, without Node's built-in fetch. Node 20
// loads all of undici (fetch, HTTP/2, WebSocket…) the first time anything touches the global `Headers`
// or `FormData`, ~15 ms of one thread, and the SDK touches both while it builds every request, so
// `fanout run` paid it before its first model request although http-fetch.ts sends it over node:http.
// scripts/build.mjs gives the SDK's modules these two names in the CLI bundle.
//
// Headers keeps the WHATWG behaviour the SDK and a server can tell apart: names are case-insensitive and
// listed lowercased in sorted order, values are trimmed of HTTP whitespace, repeated names read as one
// comma-joined value (set-cookie apart), and a name or value fetch would refuse throws the same TypeError.
// `instanceof Headers` holds for these and for the built-in ones (a response of the built-in fetch, say).

type HeadersInitLike = LightHeaders | globalThis.Headers | Iterable<readonly [string, string]> | Record<string, string> | undefined | null

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// Leading and trailing HTTP whitespace (tab, LF, CR, space) is removed; NUL, CR and LF are refused inside.
const EDGES = /^[\t\n\r ]+|[\t\n\r ]+$/g
const FORBIDDEN_IN_VALUE = /[\0\r\n]/

function checkedName(name: string): string {
  const s = String(name)
  if (!TOKEN.test(s)) throw new TypeError(`Headers: invalid header name: "${s}"`)
  return s.toLowerCase()
}

function checkedValue(name: string, value: string): string {
  const v = String(value).replace(EDGES, '')
  if (FORBIDDEN_IN_VALUE.test(v)) throw new TypeError(`Headers: invalid value for header "${name}"`)
  return v
}

class LightHeaders {
  // Lowercased name -> values in the order appended.
  readonly #values = new Map<string, string[]>()

  /** Ours, or the built-in's (both say so in their toStringTag). */
  static [Symbol.hasInstance](v: unknown): boolean {
    return typeof v === 'object' && v !== null && (#values in v || Object.prototype.toString.call(v) === '[object Headers]')
  }

  constructor(init?: HeadersInitLike) {
    if (init === undefined || init === null) return
    // Ours or a built-in one: the same methods.
    if (init instanceof LightHeaders) {
      const source = init as unknown as globalThis.Headers
      source.forEach((value, name) => this.append(name, value))
      // Should a built-in Headers join set-cookie in forEach, its own list keeps them apart.
      if (!(#values in init) && typeof source.getSetCookie === 'function') {
        const cookies = source.getSetCookie()
        if (cookies.length) this.#values.set('set-cookie', [...cookies])
      }
      return
    }
    if (typeof init !== 'object') throw new TypeError('Headers: init must be an object')
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly [string, string]>) {
        const entry = [...(pair as Iterable<string>)]
        if (entry.length !== 2) throw new TypeError('Headers: each header must be a [name, value] pair')
        this.append(entry[0]!, entry[1]!)
      }
      return
    }
    for (const [name, value] of Object.entries(init)) this.append(name, value)
  }

  append(name: string, value: string): void {
    const key = checkedName(name)
    const v = checkedValue(key, value)
    const list = this.#values.get(key)
    if (list) list.push(v)
    else this.#values.set(key, [v])
  }

  set(name: string, value: string): void {
    const key = checkedName(name)
    this.#values.set(key, [checkedValue(key, value)])
  }

  delete(name: string): void {
    this.#values.delete(checkedName(name))
  }

  get(name: string): string | null {
    const list = this.#values.get(checkedName(name))
    return list ? list.join(', ') : null
  }

  has(name: string): boolean {
    return this.#values.has(checkedName(name))
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])]
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const list = this.#values.get(name)
      if (!list) continue
      if (name === 'set-cookie') for (const v of list) yield [name, v]
      else yield [name, list.join(', ')]
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value
  }

  forEach(fn: (value: string, name: string, headers: LightHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) fn.call(thisArg, value, name, this)
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries()
  }

  get [Symbol.toStringTag](): string {
    return 'Headers'
  }
}

export { LightHeaders as Headers }

/**
 * FormData as the SDK uses it: `instanceof FormData` answered without loading undici, and the built-in
 * one (undici loaded then) only when a FormData is made, for a file upload.
 */
class LazyFormData {
  static [Symbol.hasInstance](v: unknown): boolean {
    return typeof v === 'object' && v !== null && Object.prototype.toString.call(v) === '[object FormData]'
  }

  constructor(...args: ConstructorParameters<typeof globalThis.FormData>) {
    // biome-ignore lint/correctness/noConstructorReturn: the built-in FormData is what the caller gets
    return new globalThis.FormData(...args) as unknown as LazyFormData
  }
}

export const FormData = LazyFormData as unknown as typeof globalThis.FormData

/**
 * `x instanceof globalThis.ReadableStream` (and Blob), as the SDK asks it of every request's body, answered
 * without reading those globals: Node 20 loads its web streams (~7 ms before a run's first request) when
 * `ReadableStream` is first read, for a body that is JSON. scripts/build.mjs rewrites the SDK's
 * `globalThis.ReadableStream && x instanceof globalThis.ReadableStream` to this. A stream exists only once
 * the class is loaded, and it names itself by its toStringTag (a subclass's instance too).
 */
export const isReadableStream = (v: unknown): boolean => tagOf(v) === '[object ReadableStream]'
/** The same for `globalThis.Blob && x instanceof globalThis.Blob` (a File is a Blob). */
export const isBlob = (v: unknown): boolean => tagOf(v) === '[object Blob]' || tagOf(v) === '[object File]'
const tagOf = (v: unknown): string | null => (typeof v === 'object' && v !== null ? Object.prototype.toString.call(v) : null)
