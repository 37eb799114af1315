// "Test connection", in Settings and on the first-run page: its button and its answer. An answer belongs
// to the address and the key it tested, so it goes as soon as either changes (and when the settings are
// saved): an old answer never sits beside a new state. The host says what happened; the caller's `hints`
// say what to do about it in words that fit where the answer is shown.
import { useState, type ReactNode } from 'react'
import type { ConnectionFix } from '../../../shared/ipc-contract'
import { checkBaseUrl } from '../../../shared/settings-fields'
import { Icon } from '../components/icon'
import { call, useApp } from '../state/store'
import { errorMessage } from '../transport/types'

export type FixHints = Record<ConnectionFix, string>

interface Answer {
  ok: boolean
  message: string
  /** What it tested: the address and the key as they were. */
  tested: string
}

export interface ConnectionTest {
  button: ReactNode
  result: ReactNode
  /** Drops the answer (the settings it tested were saved). */
  clear(): void
}

/**
 * `baseUrl`: the address as typed (empty: the default endpoint), or undefined to test the saved one.
 * `onInvalidUrl`: a typed address that cannot be one is the field's own error to show; no second message.
 */
export function useConnectionTest({ baseUrl, hints, onInvalidUrl }: { baseUrl?: string; hints: FixHints; onInvalidUrl?: () => void }): ConnectionTest {
  const [busy, setBusy] = useState(false)
  const [answer, setAnswer] = useState<Answer | null>(null)
  const key = useApp((s) => `${s.settings?.apiKeySource ?? ''}#${s.keySaves}`)
  const now = `${baseUrl === undefined ? 'saved' : baseUrl.trim()}\n${key}`
  const test = async () => {
    let request: { baseUrl?: string | null } = {}
    if (baseUrl !== undefined) {
      const url = checkBaseUrl(baseUrl)
      if (!url.ok) {
        setAnswer(null)
        return onInvalidUrl?.()
      }
      request = { baseUrl: url.value }
    }
    const tested = now
    setBusy(true)
    setAnswer(null)
    try {
      const r = await call('settings.testConnection', request)
      setAnswer({ ok: r.ok, message: r.fix ? `${r.message} ${hints[r.fix]}` : r.message, tested })
    } catch (err) {
      setAnswer({ ok: false, message: errorMessage(err), tested })
    } finally {
      setBusy(false)
    }
  }
  const shown = answer && answer.tested === now ? answer : null
  return {
    button: (
      // aria-disabled, not disabled: a disabled button drops keyboard focus to <body> while the test runs.
      <button type="button" className="btn" onClick={() => void (busy || test())} aria-disabled={busy} data-testid="test-connection">
        {busy ? 'Testing…' : 'Test connection'}
      </button>
    ),
    result: shown && (
      <span className={`connection-result ${shown.ok ? 'ok-text' : 'inline-error'}`} role="status" data-testid="connection-result">
        <Icon name={shown.ok ? 'check' : 'x'} size={12} /> {shown.message}
      </span>
    ),
    clear: () => setAnswer(null)
  }
}
