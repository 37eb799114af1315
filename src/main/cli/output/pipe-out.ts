// stdout of `fanout run` as a Unix tool treats it: the answer and JSON lines (redacted as they are serialized,
// redacted-output.ts), and a reader that goes away (`| head`) stops the run instead of crashing it.
import { whenMade, writeJsonLine, writeLine } from '../redacted-output'

/** stdout: text, and JSON lines (redacted as they are serialized, see writeJsonLine). */
export interface RunOutput {
  write(text: string): void
  json(value: unknown): void
  /** A line made by jsonLine, written as it is. */
  line(text: string): void
  /** Readies stdout now, when nothing waits for it (once): its first write sets up what later ones reuse (~0.2 ms). */
  ready(): void
  dispose(): void
}

/**
 * stdout as a Unix tool treats it: once the reader has gone (`| head -2` closed the pipe), writing stops
 * quietly, and `onClosed` is told once, so the run can stop instead of spending on output nobody reads.
 */
export function pipeOut(onClosed: () => void): RunOutput {
  let closed = false
  let readied = false
  const onError = (err: NodeJS.ErrnoException) => {
    if (closed) return
    closed = true
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') onClosed()
    else process.stderr.write(`fanout run: cannot write the output: ${err.message}\n`)
  }
  const ignore = () => undefined
  // On each stream once it is made: making one before the first request costs start time (redacted-output.ts),
  // and a stream's errors come from writes to it.
  whenMade('stdout', (stdout) => stdout.on('error', onError))
  // A closed stderr (`2>&1 | head`) is not worth a crash either.
  whenMade('stderr', (stderr) => stderr.on('error', ignore))
  return {
    write: (text) => void (closed || process.stdout.write(text)),
    json: (value) => void (closed || writeJsonLine(process.stdout, value)),
    line: (text) => void (closed || writeLine(process.stdout, text)),
    // A write of nothing: the pipe's first write sets up what later ones reuse; a pipe or file gets no bytes.
    ready: () => {
      if (readied || closed) return
      readied = true
      process.stdout.write('')
    },
    // A write still pending when the run ends can fail after it (the reader closed the pipe meanwhile):
    // keep swallowing errors on both streams rather than let an unhandled EPIPE crash the exit.
    dispose: () => {
      whenMade('stdout', (stdout) => stdout.off('error', onError).on('error', ignore))
    }
  }
}

/** Exit status of a run cut short because its output pipe was closed, as a shell reports SIGPIPE. */
export const EXIT_PIPE_CLOSED = 141
