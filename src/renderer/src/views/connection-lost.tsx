// What the page says while the connection to Fanout is lost (browser mode: the host stopped or the network
// dropped). Everything behind it is greyed out and cannot act (app.tsx), its clocks stopped where the
// connection went (lib/use-now.ts): what shows is as of that moment, not live. Reconnected, the page reads
// the host's state again (transport-wiring.ts) and this goes.
import { useApp } from '../state/store'
import { formatTime } from '../lib/format'

export function ConnectionLost() {
  const lostAt = useApp((s) => s.connectionLostAt)
  return (
    <div className="connection-lost" role="alert" data-testid="connection-lost">
      <span className="conn-dot" aria-hidden="true" />
      <div>
        <strong>Lost the connection to Fanout</strong>
        {lostAt !== null && <span className="muted"> at {formatTime(lostAt)}</span>}
        <div className="small muted">
          Reconnecting… What shows is as it was then: nothing here is live, and nothing can be answered or sent until Fanout is back.
        </div>
      </div>
    </div>
  )
}
