// Settings: the API key (write-only), appearance, and the settings form (settings-form.tsx). Closing with
// unsaved changes asks first, as the agent editor does.
import { useCallback, useRef, useState } from 'react'
import { checkApiKey, THEME_CHOICES, type ThemeChoice } from '../../../shared/settings-fields'
import { DialogActions } from '../components/dialog-actions'
import { Icon } from '../components/icon'
import { SubmitForm } from '../components/submit-form'
import { refocusWhenLost } from '../lib/focus'
import { useTask } from '../lib/use-task'
import { applyTheme } from '../lib/theme'
import { saveApiKey, saveSettings, ui, useApp } from '../state/store'
import { errorMessage } from '../transport/types'
import { Dialog } from './dialog'
import { McpServersSection } from './mcp-servers'
import { SettingsForm } from './settings-form'

/** `onSaved`: where the form goes away once a key is saved (the first-run page), the page puts focus next. */
export function ApiKeyForm({ onSaved, autoFocus = false }: { onSaved?: () => void; autoFocus?: boolean }) {
  const settings = useApp((s) => s.settings)
  const mode = useApp((s) => s.mode)
  const input = useRef<HTMLInputElement>(null)
  const [key, setKey] = useState('')
  const { error, busy, run } = useTask()
  const [saved, setSaved] = useState(false)
  // A key that does not look like an Anthropic one (a gateway's token may not) is saved once confirmed.
  const [confirmed, setConfirmed] = useState<string | null>(null)
  const check = checkApiKey(key)
  const asking = !!check.warning && confirmed === key
  const save = async () => {
    if (check.error) return
    if (check.warning && !asking) return setConfirmed(key)
    await run(async () => {
      await saveApiKey(key.trim())
      setKey('')
      setSaved(true)
      onSaved?.()
      // Emptied, Save is disabled and drops the focus it had: back to the (empty) key field, which the
      // "Saved" line now describes. Where the form itself went away, `onSaved` said where focus goes.
      refocusWhenLost(() => (input.current?.isConnected ? input.current : null))
    })
  }
  const source = settings?.apiKeySource
  return (
    <SubmitForm className="api-key-form" onSubmit={save}>
      <div className="key-status small">
        <Icon name="key" size={13} />
        {settings?.hasApiKey
          ? source === 'environment'
            ? 'Using ANTHROPIC_API_KEY from the environment. A key saved here takes its place.'
            : 'A key is stored. It is never shown again; enter a new one to replace it.'
          : 'No key yet.'}
      </div>
      <div className="inline-fields">
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(e) => {
            setKey(e.target.value)
            setSaved(false)
            setConfirmed(null)
          }}
          placeholder="sk-ant-…"
          aria-label="Anthropic API key"
          aria-invalid={check.error ? true : undefined}
          aria-describedby={
            [check.error || check.warning ? 'api-key-check' : '', saved && !error ? 'api-key-saved' : ''].filter(Boolean).join(' ') || undefined
          }
          className={check.error ? 'invalid' : undefined}
          data-testid="api-key-input"
          ref={input}
          autoFocus={autoFocus}
        />
        <button className="btn btn-primary" type="submit" disabled={busy || !key.trim() || !!check.error} data-testid="api-key-save">
          {asking ? 'Save anyway' : settings?.hasApiKey ? 'Replace key' : 'Save key'}
        </button>
      </div>
      {check.error && (
        <span className="field-error" id="api-key-check" data-testid="api-key-check">
          {check.error}
        </span>
      )}
      {check.warning && (
        <span className="warn-text small" id="api-key-check" data-testid="api-key-check" role={asking ? 'alert' : undefined}>
          {asking && <strong>Not saved yet: </strong>}
          {check.warning}
        </span>
      )}
      {saved && !error && (
        <div className="ok-text small" id="api-key-saved" role="status">
          Saved. It stays {mode === 'electron' ? 'encrypted with your system keychain' : 'in a file only your user can read'}.
        </div>
      )}
      {error && <div className="inline-error">{error}</div>}
    </SubmitForm>
  )
}

const THEME_LABEL: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' }

function ThemePicker() {
  const current = useApp((s) => s.settings?.theme ?? 'system')
  const [error, setError] = useState<string | null>(null)
  const choose = async (theme: ThemeChoice) => {
    applyTheme(theme) // at once; the setting follows
    setError(null)
    try {
      await saveSettings({ theme })
    } catch (err) {
      setError(errorMessage(err))
    }
  }
  return (
    <div className="field">
      <span className="field-label" id="theme-label">
        Theme
      </span>
      <div className="ae-segmented theme-picker" role="radiogroup" aria-labelledby="theme-label">
        {THEME_CHOICES.map((t) => (
          <button
            key={t}
            type="button"
            role="radio"
            aria-checked={current === t}
            className={current === t ? 'active' : ''}
            onClick={() => void choose(t)}
            data-testid={`theme-${t}`}
          >
            {THEME_LABEL[t]}
          </button>
        ))}
      </div>
      <span className="field-hint">System follows your computer’s light or dark setting. Saved at once.</span>
      {error && <span className="field-error">{error}</span>}
    </div>
  )
}

/**
 * Settings closed, and what opened it is gone ("Add an API key in Settings" goes once a key is saved): the
 * prompt box, where the person was about to start, else the Settings button.
 */
const settingsFallback = () =>
  document.querySelector('[data-testid=new-prompt], [data-testid=followup]') ?? document.querySelector('[data-testid=open-settings]')

export function SettingsDialog() {
  const settings = useApp((s) => s.settings)
  const [dirty, setDirty] = useState(false)
  const [asking, setAsking] = useState(false)
  const close = () => ui.setDialog(null)
  const onDirty = useCallback((d: boolean) => setDirty(d), [])
  return (
    <Dialog title="Settings" onClose={() => (dirty ? setAsking(true) : close())} returnFocus={settingsFallback} wide testId="settings-dialog">
      <section className="settings-section">
        <h3>Anthropic API key</h3>
        <ApiKeyForm />
      </section>
      <section className="settings-section">
        <h3>Appearance</h3>
        <ThemePicker />
      </section>
      {settings ? <SettingsForm settings={settings} onDirty={onDirty} /> : <div className="muted">Loading…</div>}
      <McpServersSection />
      {asking && (
        <Dialog title="Unsaved settings" onClose={() => setAsking(false)} testId="settings-discard-dialog">
          <p>Some settings are changed but not saved. Close Settings and lose those changes?</p>
          <DialogActions
            onCancel={() => setAsking(false)}
            cancelLabel="Keep editing"
            cancelTestId="settings-keep-editing"
            focus="cancel"
            confirm="Discard changes"
            danger
            onConfirm={close}
            confirmTestId="settings-discard"
          />
        </Dialog>
      )}
    </Dialog>
  )
}
