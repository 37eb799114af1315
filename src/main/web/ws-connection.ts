// One authenticated browser-mode WebSocket: calls in, results, batched events and notices out.
// The connection was authenticated at the upgrade (token, Origin, Host); this only speaks the contract.
import type { WebSocket } from 'ws'
import { createEventPump } from '../../shared/event-pump'
import type { RuntimeHost } from '../../shared/host'
import { WsRequestSchema, describeZodError, type WsServerMessage } from '../../shared/ipc-contract'
import { dispatchCall } from '../../shared/ipc-dispatch'

export function serveConnection(ws: WebSocket, host: RuntimeHost): () => void {
  const send = (message: WsServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message))
  }
  const pump = createEventPump({ send: (events) => send({ kind: 'events', events }) })
  const unsubscribeEvents = host.onEvents((events) => pump.push(events))
  const unsubscribeNotices = host.onNotice((notice) => send({ kind: 'notice', notice }))

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
      if (typeof id === 'number') return send({ kind: 'result', id, result: { ok: false, error: { code: 'invalid_request', message } } })
      return send({ kind: 'error', message })
    }
    const { id, call, payload } = request.data
    void dispatchCall(host, call, payload).then((result) => send({ kind: 'result', id, result }))
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
