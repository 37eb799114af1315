// A session another process runs (`fanout run`, another Fanout window): shown read-only here and followed as
// it runs. The bar says who runs it; the prompt box, Stop and Resume give way to it until that process lets
// the session go (the host then sends the session's row without `runningElsewhere`).
import type { SessionSummary } from '../../../shared/ipc-contract'
import { Icon } from '../components/icon'
import { formatTime } from '../lib/format'
import { useApp } from '../state/store'

export type RunningElsewhere = NonNullable<SessionSummary['runningElsewhere']>

/** Who runs the session, if another process does. */
export function useRunningElsewhere(sessionId: string): RunningElsewhere | undefined {
  return useApp((s) => s.sessions.find((x) => x.sessionId === sessionId)?.runningElsewhere)
}

/** "fanout run (process 4242, on build-7) since 14:03". */
export function ownerText(o: RunningElsewhere): string {
  return `${o.app} (process ${o.pid}${o.host ? `, on ${o.host}` : ''}) since ${formatTime(o.since)}`
}

export function RunningElsewhereBar({ owner }: { owner: RunningElsewhere }) {
  return (
    <div className="bottom-bar-wrap">
      <div className="running-bar running-elsewhere" data-testid="running-elsewhere" role="status">
        <Icon name="lock" size={14} />
        <span className="small">
          <strong>Read-only here.</strong> This session is being run by {ownerText(owner)}; it is followed live. Once that run ends you can continue it here.
        </span>
      </div>
    </div>
  )
}
