// One authenticated browser-mode WebSocket: calls in, results, batched events and notices out.
// The connection was authenticated at the upgrade (token, Origin, Host); this only speaks the contract.
// Whatever a page sends, the process lives on: a frame that is not the protocol gets an error frame naming
// what is wrong; one the WebSocket layer refuses (too large, not UTF-8, not a valid frame) closes this
// connection alone, with a close code that says why; sessions keep running.
import type { WebSocket } from 'ws'
import { createEventPump } from '../../shared/event-pump'
import type { RuntimeHost } from '../../shared/host'
import { WS_MAX_FRAME_BYTES, WsRequestSchema, describeZodError, type WsServerMessage } from '../../shared/ipc-contract'
import { dispatchCall } from '../../shared/ipc-dispatch'
import { redactedJson } from '../../shared/redact'
import { errorMessage } from '../../shared/error-message'

/** Calls one page may have waiting at once: a page that sends faster than they finish is told to slow down. */
export const MAX_CALLS_IN_FLIGHT = 256

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`

/** Why the WebSocket layer closed a connection, for the log and the close reason. */
export function refusalText(err: Error & { code?: string }): string {
  switch (err.code) {
    case 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH':
      return `A message larger than ${mib(WS_MAX_FRAME_BYTES)} was refused and this connection closed.`
    case 'WS_ERR_INVALID_UTF8':
      return 'A text message that is not valid UTF-8 was refused and this connection closed.'
    default:
      return `A frame that breaks the WebSocket protocol was refused and this connection closed (${err.message}).`
  }
}

export interface ServeOptions {
  /** Told when a connection is closed for what its page sent (default: stderr). */
  onRefused?: (message: string) => void
}

export function serveConnection(ws: WebSocket, host: RuntimeHost, opts: ServeOptions = {}): () => void {
  // Every frame to the page passes here: no credential leaves in a result, an event or a notice.
  const send = (message: WsServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(redactedJson(message))
  }
  const pump = createEventPump({ send: (events) => send({ kind: 'events', events }) })
  const unsubscribeEvents = host.onEvents((events) => pump.push(events))
  const unsubscribeNotices = host.onNotice((notice) => send({ kind: 'notice', notice }))
  let inFlight = 0

  // Without a listener an 'error' would be thrown, and one bad frame would end the process and every session
  // in it. The WebSocket layer has already begun closing this connection with the matching close code (1009:
  // too big, 1007: not UTF-8, 1002: not the protocol), which the page turns into a sentence.
  ws.on('error', (err: Error & { code?: string }) => {
    ;(opts.onRefused ?? ((m) => process.stderr.write(`fanout web: ${m}\n`)))(refusalText(err))
  })

  ws.on('message', (data, isBinary) => {
    if (isBinary) return send({ kind: 'error', message: 'Binary frames are not part of the Fanout protocol; send JSON text.' })
    let raw: unknown
    try {
      raw = JSON.parse(data.toString())
    } catch {
      return send({ kind: 'error', message: 'A frame was not valid JSON and was ignored.' })
    }
    const request = WsRequestSchema.safeParse(raw)
    if (!request.success) {
      const id = (raw as { id?: unknown } | null)?.id
      const message = describeZodError('frame', request.error)
      if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0)
        return send({ kind: 'result', id, result: { ok: false, error: { code: 'invalid_request', message } } })
      return send({ kind: 'error', message })
    }
    const { id, call, payload } = request.data
    if (inFlight >= MAX_CALLS_IN_FLIGHT)
      return send({
        kind: 'result',
        id,
        result: {
          ok: false,
          error: {
            code: 'unavailable',
            message: `More than ${MAX_CALLS_IN_FLIGHT} calls are waiting for an answer on this connection; wait for some to finish.`
          }
        }
      })
    inFlight++
    void dispatchCall(host, call, payload)
      .catch((err: unknown) => ({ ok: false as const, error: { code: 'internal' as const, message: `${call} failed: ${errorMessage(err)}` } }))
      .then((result) => {
        inFlight--
        try {
          send({ kind: 'result', id, result })
        } catch (err) {
          send({
            kind: 'result',
            id,
            result: { ok: false, error: { code: 'internal', message: `The answer to ${call} could not be sent: ${errorMessage(err)}` } }
          })
        }
      })
  })

  let closed = false
  const dispose = () => {
    if (closed) return
    closed = true
    unsubscribeEvents()
    unsubscribeNotices()
    pump.close()
  }
  ws.on('close', dispose)
  return dispose
}
