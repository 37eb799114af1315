// The CLI's edge: everything `fanout` prints (answers, stream-json events, errors, warnings, console
// output of any part of the runtime) passes through redactText on its way to stdout and stderr, so no
// credential reaches a terminal, a CI log or a pipe.
// A JSON line (a result, an event of `--output-format events` or `stream-json`) is redacted as it is
// serialized instead (writeJsonLine, redactedJson): its strings passed the session's bus, which redacted
// them already and remembers them clean, so that costs look-ups where a second pass over the whole line
// scans its every character again (~10 ms for a 16-way run's 8 KB result, on the path to the answer).
import { redactedJson, redactText } from '../../shared/redact'

type Write = NodeJS.WriteStream['write']
type RawWrite = (...args: unknown[]) => boolean

/** Each redacted stream's own write, for lines whose every string was redacted already. */
const patched = new WeakMap<NodeJS.WriteStream, RawWrite>()

export function redactStream(stream: NodeJS.WriteStream): void {
  if (patched.has(stream)) return
  const write = stream.write.bind(stream) as RawWrite
  patched.set(stream, write)
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string') return write(redactText(chunk), ...rest)
    if (chunk instanceof Uint8Array) {
      const text = Buffer.from(chunk).toString('utf8')
      const clean = redactText(text)
      return write(clean === text ? chunk : clean, ...rest)
    }
    return write(chunk, ...rest)
  }) as Write
}

type StdName = 'stdout' | 'stderr'
/** The standard streams made so far, and what is to be done with each once it is. */
const made = new Map<StdName, NodeJS.WriteStream>()
const pending: Record<StdName, Array<(stream: NodeJS.WriteStream) => void>> = { stdout: [], stderr: [] }
let installed = false

/**
 * stdout and stderr redacted from their first use. Node makes each stream the first time `process.stdout` (or
 * stderr) is read, loading the modules of its kind (a pipe's, a terminal's, a file's: ~1-3 ms each); a run needs
 * neither before its first model request, so each is patched as it is made, not at start.
 */
export function redactProcessOutput(): void {
  if (installed) return
  installed = true
  for (const name of ['stdout', 'stderr'] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name)
    if (!own?.get || !own.configurable) {
      redactStream(process[name])
      made.set(name, process[name])
      continue
    }
    const make = own.get
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: own.enumerable ?? true,
      get() {
        const stream = make.call(process) as NodeJS.WriteStream
        if (!made.has(name)) {
          redactStream(stream)
          made.set(name, stream)
          for (const f of pending[name].splice(0)) f(stream)
        }
        return stream
      }
    })
  }
}

/** Calls `f` with the stream once it is made (now, when it is): listeners that need not make it. */
export function whenMade(name: StdName, f: (stream: NodeJS.WriteStream) => void): void {
  // Not installed (the runtime run in-process, by a test): the stream as Node makes it.
  const stream = installed ? made.get(name) : process[name]
  if (stream) f(stream)
  else pending[name].push(f)
}

/** `value` as one line of JSON on `stream`, redacted as the stream's other text is (see redactedJson). */
export function writeJsonLine(stream: NodeJS.WriteStream, value: unknown): boolean {
  return writeLine(stream, jsonLine(value))
}

/** `value` as a line of JSON, redacted as writeJsonLine writes it (made ahead of its writeLine). */
export function jsonLine(value: unknown): string {
  return `${redactedJson(value, { wholeText: true })}\n`
}

/** A line made by jsonLine, on `stream` as it is (it was redacted as it was made). */
export function writeLine(stream: NodeJS.WriteStream, line: string): boolean {
  const write = patched.get(stream)
  return write ? write(line) : stream.write(line)
}
