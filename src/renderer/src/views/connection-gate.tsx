// What a browser-mode page shows when it can no longer connect (Fanout stopped, or restarted with a new
// token). It keeps what the person typed: drafts live in the tab's memory, and going to the new address
// takes them along. When a page of the new launch is open at this address, it offers to continue here.
import { useEffect, useState } from 'react'
import { SubmitForm } from '../components/submit-form'
import { Icon } from '../components/icon'
import { allDrafts } from '../lib/tab-memory'
import { addressWithState, continueWithToken, listenForLaunch } from '../transport/launch-channel'
import { useApp } from '../state/store'
import { InlineError } from '../components/inline-error'

export function ConnectionGate() {
  const connection = useApp((s) => s.connection)
  const detail = useApp((s) => s.connectionDetail)
  const mode = useApp((s) => s.mode)
  const [newToken, setNewToken] = useState<string | null>(null)
  const [address, setAddress] = useState('')
  const [error, setError] = useState<string | null>(null)
  const drafts = Object.values(allDrafts()).filter((d) => d.trim())
  useEffect(() => (mode === 'browser' ? listenForLaunch(sessionStorage.getItem('fanout-token'), setNewToken) : undefined), [mode])

  const go = () => {
    const r = addressWithState(address)
    if ('error' in r) return setError(r.error)
    location.assign(r.url)
  }

  return (
    <div className="gate" data-testid={connection === 'gone' ? 'connection-gone' : 'unauthorized'}>
      <h1>Fanout cannot connect</h1>
      <p>{detail}</p>
      {newToken && (
        <div className="gate-offer" data-testid="gate-new-launch">
          <p>Fanout is running again at this address (another tab has its new token).</p>
          <button className="btn btn-primary" onClick={() => continueWithToken(newToken)} data-testid="gate-continue" autoFocus>
            <Icon name="play" size={13} /> Continue in this tab
          </button>
        </div>
      )}
      {mode === 'browser' && (
        <SubmitForm className="gate-address" onSubmit={go}>
          <label htmlFor="gate-address">New address (the line “fanout web” printed when it started)</label>
          <div className="gate-address-row">
            <input
              id="gate-address"
              value={address}
              onChange={(e) => (setAddress(e.target.value), setError(null))}
              placeholder="http://127.0.0.1:…/#token=…"
              data-testid="gate-address"
              spellCheck={false}
            />
            <button className="btn" type="submit" disabled={!address.trim()} data-testid="gate-go">
              Open
            </button>
          </div>
          <InlineError error={error} as="p" />
        </SubmitForm>
      )}
      {drafts.length > 0 && (
        <div className="gate-drafts" data-testid="gate-drafts">
          <p className="muted small">
            Kept: {drafts.length === 1 ? 'your unsent prompt goes' : `your ${drafts.length} unsent prompts go`} with you to the new address.
          </p>
          {drafts.map((d, i) => (
            <pre key={i} className="gate-draft">
              {d}
            </pre>
          ))}
        </div>
      )}
    </div>
  )
}
