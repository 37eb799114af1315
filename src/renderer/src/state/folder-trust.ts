// The workspace folder's trust, as the page sees it: what the folder brings that runs by itself, the
// person's answer (sent with the hash of the list shown), and the waiting that keeps a session, the demo or
// a try from starting before that answer. The consent dialog (views/trust-dialog.tsx) drives it.
import type { FolderTrust } from '../../../shared/trust'
import { call, useApp, type AppState } from './app-state'
import { errorMessage } from '../../../shared/error-message'

const get = () => useApp.getState()
const set = (patch: Partial<AppState>) => useApp.setState(patch)

/** Nothing of a folder starts before the person has answered about what it brings. */
export const NOT_ANSWERED = 'Nothing was started: first say whether to trust what this folder runs by itself.'

/** What the workspace folder brings that runs by itself, asked of the host afresh. */
export async function refreshTrust(): Promise<FolderTrust | null> {
  const cwd = get().workspace?.cwd
  if (!cwd) return null
  try {
    const { trust } = await call('trust.get', { cwd })
    if (get().workspace?.cwd === cwd) set({ trust, trustError: undefined })
    return trust
  } catch (err) {
    if (get().workspace?.cwd === cwd) set({ trustError: errorMessage(err) })
    return null
  }
}

// A start waiting for the folder's answer: resolved when the person answers, or false when they close the
// dialog without answering (then nothing starts).
let trustWaiter: ((answered: boolean) => void) | null = null

/** Opens the folder's consent dialog (to review or change the answer). */
export function reviewTrust(): void {
  set({ trustOpen: true })
}

/** The person's answer about the workspace folder, for the list they saw. */
export async function answerTrust(decision: 'trust' | 'decline', hash: string): Promise<void> {
  const cwd = get().workspace?.cwd
  if (!cwd) throw new Error('Open a folder first.')
  try {
    const { trust } = await call('trust.answer', { cwd, decision, hash })
    set({ trust })
  } catch (err) {
    // The files changed while the dialog was open: show the new list rather than answer for the old one.
    void refreshTrust()
    throw err
  }
  const waiter = trustWaiter
  trustWaiter = null
  waiter?.(true)
}

/** Resolves once nothing of the folder waits for an answer; false when the person closed the dialog instead. */
export async function trustAnswered(): Promise<boolean> {
  const trust = (await refreshTrust()) ?? get().trust
  if (trust?.state !== 'waiting') return true
  trustWaiter?.(false)
  return new Promise<boolean>((resolve) => {
    trustWaiter = resolve
    set({ trustOpen: true })
  })
}

/** The trust dialog closed without an answer. */
export function trustDialogClosed(): void {
  set({ trustOpen: false })
  const waiter = trustWaiter
  trustWaiter = null
  waiter?.(false)
}

/** For resetStore: no start waits for an answer any more. */
export function forgetTrustWaiter(): void {
  trustWaiter = null
}
