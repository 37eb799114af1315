// Shown when no API key is available and nothing has run yet: enter a key, or watch the scripted demo.
import { useState } from 'react'
import { Icon } from '../components/icon'
import { saveSettings, startDemo, ui, useApp } from '../state/store'
import { errorText } from '../transport/types'
import { requestNotificationPermission } from './notifications'
import { ApiKeyForm } from './settings-dialog'

export function FirstRun() {
  const workspace = useApp((s) => s.workspace)
  const mode = useApp((s) => s.mode)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const demo = async () => {
    requestNotificationPermission()
    setBusy(true)
    setError(null)
    try {
      await startDemo()
    } catch (err) {
      setError(errorText(err))
      setBusy(false)
    }
  }
  return (
    <div className="first-run" data-testid="first-run">
      <div className="first-run-card">
        <div className="first-run-brand">
          <span className="brand-mark large">
            <Icon name="agents" size={22} />
          </span>
          <h1>Welcome to Fanout</h1>
        </div>
        <p className="first-run-lead">Fanout runs Claude agents that delegate to parallel subagents — and shows every one of them working, live, side by side.</p>
        <div className="first-run-options">
          <section className="first-run-option">
            <h2>Use your Anthropic API key</h2>
            <p className="muted small">
              {mode === 'electron' ? 'Encrypted with your system keychain' : 'Kept in a file only your user can read'} and used only by Fanout’s own process; this page never
              sees it again.
            </p>
            <ApiKeyForm onSaved={() => ui.dismissFirstRun()} />
          </section>
          <div className="first-run-or">
            <span>or</span>
          </div>
          <section className="first-run-option">
            <h2>
              Watch the demo <span className="tag tag-accent">scripted</span>
            </h2>
            <p className="muted small">
              A <strong>scripted</strong> model — no key, no network — fans out into parallel subagents over <code>{workspace?.name ?? 'this folder'}</code>, using real
              tools (read, search, list). Nothing is changed.
            </p>
            <button className="btn btn-primary" onClick={() => void demo()} disabled={busy || !workspace} data-testid="first-run-demo">
              <Icon name="play" size={13} /> Run the scripted demo
            </button>
            {error && <div className="inline-error">{error}</div>}
          </section>
        </div>
        <button
          className="btn-link small first-run-skip"
          onClick={() => {
            ui.dismissFirstRun()
            // Remembered in settings, so a reload or the next start does not ask again.
            // Not saved (the host went away): this screen comes back next start, nothing else is lost.
            void saveSettings({ firstRunSkipped: true }).catch((err: Error) => console.warn(`Fanout could not remember 'Skip for now': ${err.message}`))
          }}
          data-testid="first-run-skip"
        >
          Skip for now
        </button>
      </div>
    </div>
  )
}
