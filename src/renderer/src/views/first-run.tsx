// Shown when no API key is available and nothing has run yet: enter a key, or watch the scripted demo.
import { useEffect, useRef, useState } from 'react'
import { Icon } from '../components/icon'
import { refocusWhenLost } from '../lib/focus'
import { useTask } from '../lib/use-task'
import { saveSettings, startDemo, ui, useApp } from '../state/store'
import { requestNotificationPermission } from './notifications'
import { useConnectionTest, type FixHints } from './connection-test'
import { ApiKeyForm } from './settings-dialog'
import { usePick } from '../lib/use-pick'

// Shown on this page, where there is no Base URL field: the endpoint is changed in Settings, after Continue.
const FIRST_RUN_HINTS: FixHints = {
  base_url: 'Check the Base URL in Settings after you continue, or clear it there to use the Anthropic API.',
  environment: 'This address comes from the ANTHROPIC_BASE_URL environment variable; you can set another Base URL in Settings after you continue.',
  network: 'Check the network connection. If you use a gateway, set its address as the Base URL in Settings after you continue.',
  key: 'Check that the key is right, or use a different one.',
  no_key: 'Save a key first.'
}

/** After the key is saved: say so, and offer a test of it before going on. */
function KeySaved({ onReplace }: { onReplace(): void }) {
  const mode = useApp((s) => s.mode)
  const connection = useConnectionTest({ hints: FIRST_RUN_HINTS })
  const next = useRef<HTMLButtonElement>(null)
  // This replaces the key form, whose Save button had the focus (or "Keep the saved key" did): Continue
  // takes it, described by the "Key saved" line, so the keyboard goes on from where the page did.
  useEffect(() => refocusWhenLost(() => next.current), [])
  return (
    <div className="first-run-saved" data-testid="first-run-key-saved">
      <div className="ok-text" role="status" id="first-run-key-saved-note">
        <Icon name="check" size={13} /> Key saved. It stays {mode === 'electron' ? 'encrypted with your system keychain' : 'in a file only your user can read'}.
      </div>
      <p className="muted small">Check that it works before you start, if you like: Fanout asks the API for its list of models.</p>
      <div className="first-run-saved-actions">
        {connection.button}
        <button
          className="btn btn-primary"
          onClick={() => ui.dismissFirstRun()}
          ref={next}
          aria-describedby="first-run-key-saved-note"
          data-testid="first-run-continue"
        >
          Continue <Icon name="chevronRight" size={13} />
        </button>
      </div>
      {connection.result}
      <button className="btn-link small first-run-other-key" onClick={onReplace} data-testid="first-run-other-key">
        Use a different key
      </button>
    </div>
  )
}

export function FirstRun() {
  const { workspace, mode, firstRunKeySaved: keySaved } = usePick(useApp, 'workspace', 'mode', 'firstRunKeySaved')
  const [replacing, setReplacing] = useState(false)
  const { error, busy, run } = useTask()
  // The demo's session takes this page's place: busy until it does, so a second click starts nothing.
  const demo = () => {
    requestNotificationPermission()
    return run(startDemo, { stayBusy: true })
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
        <p className="first-run-lead">
          Fanout runs Claude agents that delegate to parallel subagents — and shows every one of them working, live, side by side.
        </p>
        <div className="first-run-options">
          <section className="first-run-option">
            <h2>Use your Anthropic API key</h2>
            <p className="muted small">
              {mode === 'electron' ? 'Encrypted with your system keychain' : 'Kept in a file only your user can read'} and used only by Fanout’s own process;
              this page never sees it again.
            </p>
            {keySaved && !replacing ? (
              <KeySaved onReplace={() => setReplacing(true)} />
            ) : (
              <>
                {/* "Use a different key" went away as the form came: its key field takes the focus. */}
                <ApiKeyForm onSaved={() => (setReplacing(false), ui.firstRunKeySaved())} autoFocus={replacing} />
                {replacing && (
                  <button className="btn-link small first-run-other-key" onClick={() => setReplacing(false)}>
                    Keep the saved key
                  </button>
                )}
              </>
            )}
          </section>
          <div className="first-run-or">
            <span>or</span>
          </div>
          <section className="first-run-option">
            <h2>
              Watch the demo <span className="tag tag-accent">scripted</span>
            </h2>
            <p className="muted small">
              A <strong>scripted</strong> model — no key, no network — fans out into parallel subagents over <code>{workspace?.name ?? 'this folder'}</code>,
              using real tools: they list, search and read files, and one asks your permission to run <code>du -sh . &amp;&amp; node --version</code> to measure
              the folder. The tour ends once you answer. Nothing in the folder is changed.
            </p>
            <button className="btn btn-primary" onClick={() => void demo()} disabled={busy || !workspace} data-testid="first-run-demo">
              <Icon name="play" size={13} /> Run the scripted demo
            </button>
            {error && <div className="inline-error">{error}</div>}
          </section>
        </div>
        {/* With a key saved there is nothing to skip: Continue goes on. */}
        {!keySaved && (
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
        )}
      </div>
    </div>
  )
}
