// The CLI's edge: everything `fanout` prints (answers, stream-json events, errors, warnings, console
// output of any part of the runtime) passes through redactText on its way to stdout and stderr, so no
// credential reaches a terminal, a CI log or a pipe.
import { redactText } from '../../shared/redact'

type Write = NodeJS.WriteStream['write']

const patched = new WeakSet<NodeJS.WriteStream>()

export function redactStream(stream: NodeJS.WriteStream): void {
  if (patched.has(stream)) return
  patched.add(stream)
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean
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

export function redactProcessOutput(): void {
  redactStream(process.stdout)
  redactStream(process.stderr)
}
