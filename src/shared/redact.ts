// Credentials never leave the runtime: the one function every exit applies (the session's event bus and
// transcripts, tool results on their way to the model, the IPC and WebSocket pumps, the CLI's output).
// It removes the secrets this process holds (the API key or auth token in use, credential-named environment
// values: registered with registerSecret), key-shaped strings (`sk-ant-…`), and the values of credential
// headers and assignments (`x-api-key: …`, `Authorization: Bearer …`, `ANTHROPIC_API_KEY=…`), whatever
// carries them: an error body an endpoint echoed, a tool's output, a file an agent read.
// Pure (no Node): the adapters and the runtime share it, and with it one registry of secrets per process.

import { SecretPieces } from './secret-pieces'

export const REDACTED = '[REDACTED]'

/** Shorter values are too likely to occur by chance (and too weak to be worth hiding). */
const MIN_SECRET_LENGTH = 8

const secrets = new Set<string>()
const pieces = new SecretPieces()
/** Longest first, so a secret that contains another is removed whole. */
let ordered: string[] = []

// Redacted once, not at every exit: an event passes the session's bus, then a UI transport, and a tool's
// output the loop before both. What came out of a redaction is remembered until the next secret is
// registered: objects (a WeakMap, so nothing is kept alive), the latest long strings found clean, and many
// more short ones. Short strings repeat by the thousand in a fan-out (field names, agent and session ids,
// model names, paths: every event of every agent carries them), and each costs a scan of its every form
// for a piece of a secret (secret-pieces.ts): a lookup is several times cheaper.
const cleanObjects = new WeakMap<object, number>()
const cleanStrings = new Set<string>()
const cleanShortStrings = new Set<string>()
/** Strings from this length on are kept among the long ones; longer than the max are not kept. */
const CLEAN_STRING_MIN = 1024
const CLEAN_STRING_MAX = 1 << 18
const CLEAN_STRINGS_KEPT = 32
const CLEAN_SHORT_STRINGS_KEPT = 8192
/** Ids this process made from random bits (madeClean): never a secret's, whatever is registered later. */
const madeIds = new Set<string>()
const MADE_IDS_KEPT = 4096
let generation = 0

function secretsChanged(): void {
  generation++
  cleanStrings.clear()
  cleanShortStrings.clear()
}

/**
 * Adds a value to hide from now on (the key in use, a token); short or empty values are ignored. It is hidden
 * as it is and, when long enough, in every shape a command can give it (secret-pieces.ts): reversed, hex,
 * octal, base64/base32, case-changed, split across lines or cut into pieces.
 */
export function registerSecret(value: string | null | undefined): void {
  const v = value?.trim()
  if (!v || v.length < MIN_SECRET_LENGTH || secrets.has(v)) return
  secrets.add(v)
  pieces.add(v)
  ordered = [...secrets].sort((a, b) => b.length - a.length)
  secretsChanged()
}

/**
 * Registers every value of an environment that `isSecret` calls a credential (the runtime passes the one
 * rule child processes are scrubbed by, security/child-env.ts: what children never get, nothing shows).
 */
export function registerEnvironmentSecrets(env: Record<string, string | undefined>, isSecret: (name: string, value: string) => boolean): void {
  for (const [name, value] of Object.entries(env)) if (value && isSecret(name, value)) registerSecret(value)
}

/** For tests: forget every registered secret. */
export function clearSecrets(): void {
  secrets.clear()
  pieces.clear()
  ordered = []
  secretsChanged()
}

// `sk-ant-api03-…`, `sk-ant-admin01-…`, `sk-ant-oat01-…`: Anthropic's key shapes.
const KEY_SHAPE = /sk-ant-[A-Za-z0-9_-]{8,}/g
// The value after a credential header's name, in HTTP (`x-api-key: v`), JSON (`"x-api-key":"v"`) or
// code (`'Authorization': 'Bearer v'`). Authorization needs a scheme, or a long token-looking value, so
// that prose ("authorization: the user must…") is left alone.
const HEADER_VALUE =
  /((?:x-api-key|api-key|x-auth-token|x-goog-api-key)["']?\s*[:=]\s*["']?)([A-Za-z0-9._~+/=-]{8,})|((?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token)\s+))([A-Za-z0-9._~+/=:-]{6,})|((?:proxy-)?authorization["']?\s*[:=]\s*["']?)([A-Za-z0-9._~+/=-]{24,})/gi
// `NAME=value`, `NAME: value`, `"NAME": "value"` where NAME is a credential's name (an `env` dump, a .env file).
const ASSIGNMENT =
  /(\b[A-Za-z][A-Za-z0-9_]*?(?:API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH_?TOKEN|ACCESS_?TOKEN|REFRESH_?TOKEN|_TOKEN|_SECRET|SECRET_?KEY|CLIENT_SECRET|PASSWORD)["']?\s*[:=]\s*["']?)([^\s"',;`]{8,})/g

// Cheap tests first: most text holds nothing to redact, and each full pattern runs only where its hint is.
const HEADER_HINT = /(?:api-key|auth-token|authorization)["']?\s*[:=]/i
const ASSIGNMENT_HINT = /(?:KEY|TOKEN|SECRET|PASSWORD)["']?\s*[:=]/

export function redactText(text: string): string {
  if (typeof text !== 'string' || text.length < MIN_SECRET_LENGTH) return text
  if (madeIds.has(text)) return text
  if (text.length > CLEAN_STRING_MAX) return redactFresh(text)
  const short = text.length < CLEAN_STRING_MIN
  const kept = short ? cleanShortStrings : cleanStrings
  if (kept.has(text)) return text
  const out = redactFresh(text)
  if (out === text) {
    if (kept.size >= (short ? CLEAN_SHORT_STRINGS_KEPT : CLEAN_STRINGS_KEPT)) kept.delete(kept.values().next().value as string)
    kept.add(text)
  }
  return out
}

/**
 * Notes an id this process made from random bits (a session's, an agent's) as holding no secret, so it is never
 * scanned: a session id is 32 hex digits, and scanning it built the index of the secrets' hex forms (~1.5 ms)
 * on the way to a run's first request, for a text no secret can be in. Only for ids made here, never for text
 * that came from anywhere else (a resumed session's id came from the command line).
 */
export function madeClean(id: string): string {
  if (madeIds.size >= MADE_IDS_KEPT) madeIds.delete(madeIds.values().next().value as string)
  madeIds.add(id)
  return id
}

/**
 * Builds the index of the registered secrets' encoded forms now, not at the first text that needs it: for a
 * moment the process waits (a run's first model call), so that no later step pays for it.
 */
export function prepareRedaction(): void {
  pieces.prepare()
}

function redactFresh(text: string): string {
  let out = text
  for (const s of ordered) if (out.includes(s)) out = out.split(s).join(REDACTED)
  const spans = pieces.spans(out)
  for (let k = spans.length - 1; k >= 0; k--) out = out.slice(0, spans[k][0]) + REDACTED + out.slice(spans[k][1])
  if (out.includes('sk-ant-')) out = out.replace(KEY_SHAPE, REDACTED)
  if (HEADER_HINT.test(out))
    out = out.replace(HEADER_VALUE, (_all, n1?: string, _v1?: string, n2?: string, _v2?: string, n3?: string) => `${n1 ?? n2 ?? n3 ?? ''}${REDACTED}`)
  if (ASSIGNMENT_HINT.test(out))
    out = out.replace(ASSIGNMENT, (all, name: string, value: string) => (value === REDACTED || value.startsWith('$') ? all : `${name}${REDACTED}`))
  return out
}

/**
 * A copy of `value` with every string redacted (object keys too); the same object when nothing changed, so
 * the common case costs no copy. Never mutates its argument: events share objects with the conversation.
 */
export function redactValue<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactText(value) as T
  if (value === null || typeof value !== 'object') return value
  if (cleanObjects.get(value) === generation) return value
  if (depth > 64) {
    walkedWhole = false
    return value
  }
  if (depth > 0) return redactObject(value, depth)
  // Only a whole value is remembered (an event), and only when every string in it was looked at.
  walkedWhole = true
  const out = redactObject(value, depth)
  if (walkedWhole) cleanObjects.set(out as object, generation)
  return out
}

/**
 * Notes `value` as redacted whole (its caller passed every string in it through redactText at this
 * generation, see EventRedactor), so the exits send it as it is. Never for a value with strings unread.
 */
export function markRedacted<T extends object>(value: T, at: number): T {
  if (at === generation) cleanObjects.set(value, generation)
  return value
}

/** Changes whenever a secret is registered or cleared: what was redacted before is read again. */
export const redactionGeneration = (): number => generation

/** False once a walk left something unread (too deep, a class instance). */
let walkedWhole = true

function redactObject<T extends object>(value: T, depth: number): T {
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null
    for (let i = 0; i < value.length; i++) {
      const next = redactValue(value[i], depth + 1)
      if (next !== value[i]) (copy ??= value.slice())[i] = next
    }
    return (copy ?? value) as T
  }
  // Only plain data travels (JSON): class instances are left as they are.
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) {
    walkedWhole = false
    return value
  }
  let copy: Record<string, unknown> | null = null
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = redactText(k)
    const next = redactValue(v, depth + 1)
    if (next !== v || key !== k) {
      copy ??= { ...(value as Record<string, unknown>) }
      if (key !== k) delete copy[k]
      copy[key] = next
    }
  }
  return (copy ?? value) as T
}

/**
 * JSON of `value` with every string value redacted, in the one pass that serializes it (the WebSocket's
 * frames, the CLI's JSON lines), and what a redaction already returned (an event
 * from the session's bus) written as it is, so a line costs look-ups where a scan of the whole text reads its
 * every character again. Only the whole text shows a credential's name (a key) beside its value, or a key
 * that holds a secret: with `wholeText` (the CLI's stdout, which redacted whole lines before), a text with a
 * hint of either is redacted whole as well.
 */
export function redactedJson(value: unknown, opts: { wholeText?: boolean } = {}): string {
  // Inside a clean object everything is clean: its children are noted as the walk reaches them.
  const cleanHere = new WeakSet<object>()
  let keyToRead = false
  const text = JSON.stringify(value, function (this: unknown, key, v: unknown) {
    const holder = this as object
    const inClean = cleanHere.has(holder) || cleanObjects.get(holder) === generation
    if (opts.wholeText && !inClean && !keyToRead && key && redactText(key) !== key) keyToRead = true
    if (typeof v === 'string') return inClean ? v : redactText(v)
    if (inClean && v !== null && typeof v === 'object') cleanHere.add(v)
    return v
  })
  if (text === undefined) return text as unknown as string
  return opts.wholeText && (keyToRead || HEADER_HINT.test(text) || ASSIGNMENT_HINT.test(text)) ? redactText(text) : text
}

/** True when the text still holds something redactText would remove (tests and assertions). */
export function holdsSecret(text: string): boolean {
  return redactText(text) !== text
}
