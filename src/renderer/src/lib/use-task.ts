// One way to run what a button starts: busy while it runs (so the button disables itself), its error as the
// text to show, cleared when it is tried again. Every dialog and form wrote these three states by hand.
import { useCallback, useState } from 'react'
import { errorMessage } from '../transport/types'

export interface Task {
  error: string | null
  busy: boolean
  setError(error: string | null): void
  /**
   * Runs `fn`; its error is kept as text, never thrown. `stayBusy`: stay busy after a success, for work whose
   * success takes this view away (a started demo, a deleted session): a second click must not slip in first.
   */
  run(fn: () => Promise<unknown>, opts?: { stayBusy?: boolean }): Promise<void>
}

export function useTask(): Task {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const run = useCallback(async (fn: () => Promise<unknown>, opts: { stayBusy?: boolean } = {}) => {
    setBusy(true)
    setError(null)
    try {
      await fn()
      if (!opts.stayBusy) setBusy(false)
    } catch (err) {
      setError(errorMessage(err))
      setBusy(false)
    }
  }, [])
  return { error, busy, setError, run }
}
